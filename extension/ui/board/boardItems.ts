/**
 * How the run board's rows look: a run (title; daemon, connection, state, elapsed time, `+N −M`; the last line of
 * output in the tooltip), an approval under its run (Allow / Deny inline), a group header and the "older runs" row.
 * `contextValue` carries what the row allows, so package.json's menus show only what works.
 */
import * as vscode from 'vscode';
import type { BoardGroup, BoardRow } from '../../model/boardRows';
import { awayText, changeStatsText, reviewCountText, rowTimeText, showsClockTime, startedText, waitsForText } from '../../model/boardRows';
import { authorText } from '../../model/changeAttribution';
import { clockText, elapsedText } from '../../model/elapsedText';
import type { ApprovalInfo, ModelState } from '../../model/modelTypes';
import { isProtectedSubject } from '../../model/pathRules';
import { decisionLabel, isTerminalRunState, shownDecisions } from '../../protocol/transcriptTypes';
import { usageLongText, usageShortText } from '../../protocol/runUsage';
import { visibleExcerpt, visibleText } from '../../protocol/visibleText';
import { runIcon, runStateLabel } from '../runPresentation';

/** A row's node. Run nodes have the Connections tree's shape, so the run commands (send, cancel…) accept them. */
export type BoardNode =
  | { readonly type: 'group'; readonly id: BoardGroup['id'] }
  /** `nested`: drawn as a row with rows under it (fixed for the node's life: boardNodes.ts). */
  | { readonly type: 'run'; readonly key: string; readonly nested?: boolean }
  | { readonly type: 'approval'; readonly key: string; readonly runKey: string }
  | { readonly type: 'older' };

/** The tree item id of a node: the same for the node's whole life (boardNodes.ts), gone or not. */
export function nodeId(node: BoardNode): string {
  switch (node.type) {
    case 'group':
      return `group:${node.id}`;
    case 'run':
      return node.nested ? `run:${node.key}:nested` : `run:${node.key}`;
    case 'approval':
      return `approval:${node.key}`;
    case 'older':
      return 'older';
  }
}

/**
 * What a node no longer shown says to a refresh of it still queued in VS Code (the refresh that drops it follows):
 * its own id, so that VS Code does not change the item's handle in place (boardNodes.ts).
 */
export function goneItem(node: BoardNode, label: string): vscode.TreeItem {
  const item = new vscode.TreeItem(label);
  item.id = nodeId(node);
  return item;
}

export function groupItem(group: BoardGroup): vscode.TreeItem {
  // Done is history: folded until asked for. VS Code keeps the user's own folding per id after that.
  const collapsed = group.id === 'done' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded;
  const item = new vscode.TreeItem(group.label, collapsed);
  item.id = nodeId({ type: 'group', id: group.id });
  const count = group.rows.length + group.hidden;
  item.description = String(count);
  item.contextValue = `boardGroup.${group.id}`;
  item.accessibilityInformation = { label: `${group.label}: ${count} run${count === 1 ? '' : 's'}` };
  return item;
}

export interface RunItemContext {
  readonly now: number;
  readonly cancellable: boolean;
  readonly endable: boolean;
  readonly hasChangeSet: boolean;
}

/** What `row` offers now: End and Cancel only while its connection is up and its daemon can do them. */
export function runItemContext(state: ModelState, row: BoardRow): RunItemContext {
  const run = state.runs.get(row.runKey);
  const connection = run ? state.connections.get(run.connectionId) : undefined;
  const connected = connection?.state.kind === 'connected';
  const capabilities = connection?.capabilities ?? [];
  const active = !isTerminalRunState(row.state) && row.state !== 'stopped';
  return {
    now: Date.now(),
    endable: connected && row.state === 'idle' && capabilities.includes('run.end'),
    cancellable: connected && active && row.state !== 'idle' && capabilities.includes('run.cancel'),
    hasChangeSet: state.changeSets.has(row.runKey),
  };
}

/** The board row's resource: a scheme of its own, so the Connections tree's decorations (approval counts) stay there. */
export const BOARD_RUN_URI_SCHEME = 'agent-switchboard-board-run';

export function boardRunUri(runKey: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BOARD_RUN_URI_SCHEME, path: `/${encodeURIComponent(runKey)}` });
}

/** `nested`: the node's (isNestedRow when it was made), so that a node's id never changes. */
export function runItem(row: BoardRow, ctx: RunItemContext, nested: boolean): vscode.TreeItem {
  const expandable = nested ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(row.title, expandable);
  // VS Code keeps a row's folding by id: a row that was a leaf would stay folded when its first request (or
  // subagent) arrives. A row with some is another id, so it opens with them shown.
  item.id = nodeId({ type: 'run', key: row.runKey, nested });
  item.description = runDescription(row, ctx.now);
  item.iconPath =
    row.need === 'approval'
      ? new vscode.ThemeIcon('shield', new vscode.ThemeColor('charts.yellow'))
      : row.need === 'question'
        ? new vscode.ThemeIcon('question', new vscode.ThemeColor('charts.yellow'))
        : runIcon(row.look);
  item.tooltip = runTooltip(row, ctx.now);
  // Decorated by what only the UI knows of a run (its own worktree: ui/worktrees/runWorktreeService.ts).
  item.resourceUri = boardRunUri(row.runKey);
  const stats = (hasChanges(row) ? `, ${row.changes.added} lines added, ${row.changes.removed} removed` : '') + (row.review ? `, ${reviewCountText(row.review)}` : '');
  const last = row.lastLine ? `, last output: ${row.lastLine}` : '';
  const usage = row.usage ? `, ${usageLongText(row.usage)}` : '';
  const away = row.away ? `, ${awayText(row.away)} since you looked` : '';
  item.accessibilityInformation = { label: `${row.title}, ${stateText(row)}${away}, ${row.daemon} ${row.connectionName}${stats}${usage}${last}` };
  let flags = '';
  if (row.canReply) {
    flags += '+reply';
  }
  if (ctx.endable) {
    flags += '+end';
  } else if (ctx.cancellable) {
    flags += '+cancel';
  }
  if (row.approvals.length > 0) {
    flags += '+approval';
  }
  if (ctx.hasChangeSet) {
    flags += '+changes';
  }
  if (row.away) {
    flags += '+away';
  }
  item.contextValue = `boardRun.${row.state}${flags}`;
  return item;
}

/**
 * `3m · +12 −3 · AgencyProxy · work · Reading README.md`: what a narrow sidebar cuts last goes last. The state is the
 * icon's (and the tooltip's and screen reader's); the daemon is left out when the connection is named after it.
 */
export function runDescription(row: BoardRow, now: number): string {
  // Finished runs say how long ago they started; live ones how long they have been going, or (with requests or
  // subagents under them, which a timer must not redraw) since when.
  const parts = [rowTimeText(row, now)];
  // What happened while the user was away comes first: it is what the row is looked at for.
  if (row.away) {
    parts.unshift(`\u25CF ${awayText(row.away)}`);
  }
  if (hasChanges(row)) {
    parts.push(changeStatsText(row.changes));
  }
  if (row.review) {
    parts.push(reviewCountText(row.review));
  }
  if (row.usage) {
    parts.push(usageShortText(row.usage));
  }
  if (row.connectionName.toLowerCase() !== row.daemon.toLowerCase()) {
    parts.push(row.daemon);
  }
  parts.push(row.connectionName);
  if (row.lastLine) {
    parts.push(row.lastLine);
  }
  return parts.join(' · ');
}

/** The state as the row's readers hear it ("waiting for approval" also for a session that asks while it runs). */
function stateText(row: BoardRow): string {
  if (row.need === 'question') {
    return 'waiting for your answer';
  }
  return row.need === 'approval' && row.state !== 'waiting_approval' ? 'waiting for approval' : runStateLabel(row.look).toLowerCase();
}

function runTooltip(row: BoardRow, now: number): vscode.MarkdownString {
  // Titles, state details and output are the agent's: appendText escapes them (no links, no HTML).
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown('**');
  md.appendText(row.title);
  md.appendMarkdown('**\n\n');
  md.appendText(`${row.daemon} · ${row.connectionName}\n`);
  md.appendMarkdown('\n\n');
  md.appendText(`${runStateLabel(row.look)}${row.stateDetail ? ` (${row.stateDetail})` : ''} · ${startedText(row, now)}`);
  appendAway(md, row, now);
  if (row.look.changeSetRefused !== undefined) {
    md.appendMarkdown('\n\n');
    md.appendText(`Change set refused: ${row.look.changeSetRefused}`);
  }
  if (hasChanges(row)) {
    md.appendMarkdown('\n\n');
    md.appendText(`Changes: ${changeStatsText(row.changes)} lines`);
  }
  if (row.review) {
    md.appendMarkdown('\n\n');
    md.appendText(`Review: ${reviewCountText(row.review)}`);
  }
  if (row.usage) {
    md.appendMarkdown('\n\n');
    md.appendText(usageLongText(row.usage));
  }
  if (row.children?.length) {
    md.appendMarkdown('\n\n');
    md.appendText(`${row.children.length} subagent${row.children.length === 1 ? '' : 's'}: ${row.children.map((c) => c.title).join(', ')}`);
  }
  if (row.approvals.length > 0) {
    md.appendMarkdown('\n\n');
    md.appendText(`${row.approvals.length} approval${row.approvals.length === 1 ? '' : 's'} waiting`);
  }
  if (row.lastLine) {
    md.appendMarkdown('\n\n---\n\n');
    md.appendText(`Last: ${visibleText(row.lastLine)}`);
  }
  return md;
}

/**
 * "Since you looked 12m ago: 3 files changed — a.ts, README.md (by Fix docs), b.ts (shared tree)", and what the run
 * waits for. Paths and titles are the agent's text: escaped (appendText) with hidden characters shown.
 */
function appendAway(md: vscode.MarkdownString, row: BoardRow, now: number): void {
  if (row.away) {
    // A row that does not tick is not redrawn with the time: it says the clock time instead (as its "started").
    const looked = row.away.seenAt === undefined ? undefined : showsClockTime(row) ? `at ${clockText(row.away.seenAt, now)}` : `${elapsedText(row.away.seenAt, now)} ago`;
    const when = looked !== undefined ? `Since you looked ${looked}` : 'Since it started (not looked at yet)';
    const names = row.away.files.map((f) => {
      const by = authorText(f.by);
      return `${visibleText(f.path)}${by ? ` (${visibleText(by)})` : ''}`;
    });
    const more = row.away.count - row.away.files.length;
    md.appendMarkdown('\n\n');
    md.appendText(`${when}: ${awayText(row.away)} \u2014 ${names.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
    if (row.away.files.some((f) => f.by?.kind === 'shared')) {
      md.appendMarkdown('\n\n');
      md.appendText('Shared tree: another run worked in the same folder meanwhile and no run reported that edit, so who made it is a guess.');
    }
    md.appendMarkdown('\n\n');
    md.appendText('Selecting the run marks it seen (or run "Mark All Runs Seen").');
  }
  const waits = waitsForText(row);
  md.appendMarkdown('\n\n');
  md.appendText(`Waits for: ${waits ?? 'nothing'}`);
}

export function approvalItem(approval: ApprovalInfo, canShowDiff: boolean): vscode.TreeItem {
  // Agent text where a person decides: hidden characters shown, a long summary (often the command) cut in its
  // middle, never at its end (protocol/visibleText.ts).
  const title = visibleText(approval.title);
  const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
  item.id = nodeId({ type: 'approval', key: approval.key, runKey: approval.runKey });
  const failed = approval.status === 'failed';
  const summary = approval.summary ? visibleExcerpt(approval.summary.trim().replace(/ {2,}/g, ' '), 120) : '';
  item.description = failed ? `not delivered — try again${summary ? ` · ${summary}` : ''}` : summary;
  item.iconPath = failed ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('shield', new vscode.ThemeColor('charts.yellow'));
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown('**');
  md.appendText(title);
  md.appendMarkdown('**');
  if (approval.summary) {
    md.appendMarkdown('\n\n');
    md.appendText(visibleExcerpt(approval.summary, 2000, 'keep'));
  }
  if (approval.risk) {
    md.appendMarkdown('\n\n');
    md.appendText(`Risk: ${approval.risk}`);
  }
  if (failed && approval.reason) {
    md.appendMarkdown('\n\n');
    md.appendText(`Not delivered: ${approval.reason}`);
  }
  md.appendMarkdown('\n\n');
  md.appendText(`Choices: ${approval.options.map((o) => decisionLabel(o, approval.options, approval.lasts)).join(', ')}`);
  item.tooltip = md;
  item.accessibilityInformation = { label: `Approval: ${title}${summary ? `, ${summary}` : ''}` };
  // Enter (or a click) asks for the decision in a quick pick; Allow / Deny are also inline and in the context menu.
  item.command = { command: 'agentSwitchboard.decideApproval', title: 'Decide', arguments: [approval.key, undefined, 'board'] };
  // The menus offer what the card offers: nothing "similar" for a request not whole, no agent "always allow" for a
  // protected path (shownDecisions).
  const offered = shownDecisions(approval.options, approval.subject, false, isProtectedSubject(approval.subject));
  item.contextValue = `boardApproval${offered.map((o) => `+${o}`).join('')}${canShowDiff ? '+diff' : ''}`;
  return item;
}

export function olderItem(hidden: number): vscode.TreeItem {
  const item = new vscode.TreeItem(`${hidden} older run${hidden === 1 ? '' : 's'}…`, vscode.TreeItemCollapsibleState.None);
  item.id = nodeId({ type: 'older' });
  item.iconPath = new vscode.ThemeIcon('history');
  item.tooltip = 'Show more of the finished runs';
  item.command = { command: 'agentSwitchboard.board.showOlder', title: 'Show Older Runs' };
  item.contextValue = 'boardOlder';
  return item;
}

/** A change set that changes no line (captured, nothing edited yet) is not worth `+0 −0` on every row. */
function hasChanges(row: BoardRow): row is BoardRow & { readonly changes: NonNullable<BoardRow['changes']> } {
  return row.changes !== undefined && row.changes.added + row.changes.removed > 0;
}

