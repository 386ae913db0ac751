/**
 * Wires the "Runs" board: its tree view (selecting a row peeks the run's transcript without leaving the board), the
 * Needs-you badge, the row commands (Allow / Deny and the approval's other choices, decided as 'board'; Reply is the
 * existing Send Message command, which takes a run row) and *Next Approval*, which walks every waiting request.
 */
import * as vscode from 'vscode';
import type { ApprovalInfo } from '../../model/modelTypes';
import type { ApprovalDecision } from '../../protocol/transcriptTypes';
import { isAllowing } from '../../protocol/transcriptTypes';
import type { Event } from '../../base/emitter';
import type { CommandContext } from '../commands/commandContext';
import { showOlderRuns } from '../runHistory/olderRuns';
import { asConnectionId } from '../../model/runKeys';
import type { BoardNode } from './boardItems';
import { BoardAcknowledgements } from './boardAcknowledgements';
import { BoardQuestions } from './boardQuestions';
import { BoardTreeProvider } from './boardTreeProvider';
import { SeenRuns } from './seenRuns';
import { registerSeenTracking } from './seenTracking';

export const BOARD_VIEW_ID = 'agentSwitchboard.board';

export interface RunBoard {
  readonly provider: BoardTreeProvider;
  readonly view: vscode.TreeView<BoardNode>;
  /** When the user last looked at each run (the rows' "since you looked"). */
  readonly seen: SeenRuns;
}

/** Creates the board and its commands; everything returned in `disposables` belongs to the extension's lifetime. */
export function registerRunBoard(ctx: CommandContext, removedRuns?: Event<string>): { readonly board: RunBoard; readonly disposables: vscode.Disposable[] } {
  const questions = new BoardQuestions(ctx);
  const acknowledged = new BoardAcknowledgements(ctx.memento);
  const seen = new SeenRuns(ctx.memento, Date.now());
  const looking = (): string | undefined => (ctx.transcript.isVisible ? ctx.selection.runKey : undefined);
  const provider = new BoardTreeProvider(
    ctx.store,
    (key) => {
      const approval = ctx.approvals.find(key);
      return approval !== undefined && ctx.diffs.canShow(approval);
    },
    questions,
    acknowledged,
    ctx.reviews.marks,
    { runs: seen, looking },
  );
  const view = vscode.window.createTreeView(BOARD_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  provider.setVisible(view.visible);
  const disposables: vscode.Disposable[] = [provider, view, questions, seen, ...registerSeenTracking(ctx, seen, looking, provider)];
  if (removedRuns) {
    disposables.push(removedRuns((runKey) => (acknowledged.forget(runKey), seen.forget(runKey))));
  }
  let selected: string | undefined;

  disposables.push(
    view.onDidChangeVisibility((e) => provider.setVisible(e.visible)),
    provider.onDidChangeNeedsYou((count) => {
      view.badge = count > 0 ? { value: count, tooltip: `${count} run${count === 1 ? '' : 's'} need${count === 1 ? 's' : ''} you` } : undefined;
    }),
    view.onDidChangeSelection((e) => {
      const node = e.selection[0];
      const runKey = node?.type === 'run' ? node.key : node?.type === 'approval' ? node.runKey : undefined;
      // A failed run leaves Needs you once the user has looked at it and moved on: not while it is selected, where
      // the row would jump into the folded Done group under the keyboard.
      if (selected !== undefined && selected !== runKey) {
        provider.acknowledge(selected);
      }
      selected = runKey;
      if (runKey) {
        void peek(ctx, runKey);
      }
    }),
    // Acted on (continued in a new run…): dealt with, as when it was looked at on the board and moved on from.
    ctx.daemonActions.onDidActOnRun((runKey) => provider.acknowledge(runKey)),
  );

  const approvalOf = (target: unknown): ApprovalInfo | undefined => {
    const key = typeof target === 'string' ? target : isApprovalNode(target) ? target.key : undefined;
    return key ? ctx.approvals.find(key) : undefined;
  };
  const decide = async (target: unknown, wanted: ApprovalDecision): Promise<boolean> => {
    const approval = approvalOf(target);
    if (!approval) {
      void vscode.window.showWarningMessage('Choose an approval request on the run board.');
      return false;
    }
    // "Allow" on a daemon without "allow once" (none today, but options are the daemon's) means its allowing choice.
    const decision = wanted === 'allow_once' && !approval.options.includes('allow_once') ? (approval.options.find(isAllowing) ?? wanted) : wanted;
    return ctx.approvals.decide(approval.key, decision, 'board');
  };

  let lastVisited: ApprovalInfo | undefined;
  const nextApproval = async (): Promise<string | undefined> => {
    const pending = ctx.approvals.pending();
    if (pending.length === 0) {
      void vscode.window.showInformationMessage('No approval requests are waiting.');
      return undefined;
    }
    // Oldest first, from the one visited last, wrapping; a visited request that was decided meanwhile keeps its place.
    const at = lastVisited ? pending.findIndex((a) => a.key === lastVisited!.key) : -1;
    const after = lastVisited ? pending.findIndex((a) => a.requestedAt > lastVisited!.requestedAt) : 0;
    const next = at >= 0 ? pending[(at + 1) % pending.length]! : pending[after >= 0 ? after : 0]!;
    lastVisited = next;
    provider.flush();
    ctx.selection.select(next.runKey);
    ctx.transcript.revealApproval(next.approvalId);
    try {
      await view.reveal(provider.approvalNode(next.key, next.runKey), { select: true, focus: true, expand: true });
    } catch (error) {
      ctx.log.warn(`Next Approval: could not reveal the row: ${error instanceof Error ? error.message : String(error)}`);
    }
    return next.key;
  };

  disposables.push(
    vscode.commands.registerCommand('agentSwitchboard.board.allow', (target?: unknown) => decide(target, 'allow_once')),
    vscode.commands.registerCommand('agentSwitchboard.board.allowSimilar', (target?: unknown) => decide(target, 'allow_similar')),
    vscode.commands.registerCommand('agentSwitchboard.board.deny', (target?: unknown) => decide(target, 'deny')),
    vscode.commands.registerCommand('agentSwitchboard.board.denySimilar', (target?: unknown) => decide(target, 'deny_always')),
    vscode.commands.registerCommand('agentSwitchboard.board.showApprovalDiff', async (target?: unknown) => {
      const approval = approvalOf(target);
      if (approval) {
        await ctx.diffs.show(approval);
      }
    }),
    // The board's "N older runs…" row: more Done rows, and the next page of every connection's older runs (stored,
    // not in the model) so that the rows it shows are the newest.
    vscode.commands.registerCommand('agentSwitchboard.board.showOlder', async () => {
      provider.showOlder();
      return showOlderRuns(ctx);
    }),
    // The palette's, and a connection's row in the Connections tree (its id as the argument).
    vscode.commands.registerCommand('agentSwitchboard.showOlderRuns', async (target?: unknown) => {
      const connectionId = asConnectionId(target);
      if (connectionId === undefined) {
        provider.showOlder();
      }
      const shown = await showOlderRuns(ctx, connectionId);
      if (shown === 0 && connectionId === undefined) {
        void vscode.window.showInformationMessage('Every stored run is shown already (archived runs: Search Run History…).');
      }
      return shown;
    }),
    vscode.commands.registerCommand('agentSwitchboard.nextApproval', nextApproval),
  );
  return { board: { provider, view, seen }, disposables };
}

/** Shows the run in the Transcript view; focus stays on the board (a peek, not a jump). */
async function peek(ctx: CommandContext, runKey: string): Promise<void> {
  ctx.selection.select(runKey);
  if (!ctx.transcript.isVisible) {
    // Opening a collapsed webview view moves focus into it: give it back so arrow keys keep walking the board.
    await ctx.transcript.reveal();
    await vscode.commands.executeCommand(`${BOARD_VIEW_ID}.focus`);
  }
}

function isApprovalNode(target: unknown): target is Extract<BoardNode, { type: 'approval' }> {
  return target !== null && typeof target === 'object' && 'type' in target && target.type === 'approval' && 'key' in target && typeof target.key === 'string';
}
