/**
 * The "Connections" tree: each profile with its state, its runs below (newest first) with state icons,
 * provider/model, and an approval badge (a FileDecoration on a private URI scheme). `contextValue` encodes the
 * state and the actions the daemon allows, so menus show only what works.
 */
import * as vscode from 'vscode';
import type { DaemonAction } from '../drivers/kit/daemonActions';
import { actionContextFlag } from '../drivers/kit/daemonActions';
import type { ConnectionInfo, ModelState, RunInfo } from '../model/modelTypes';
import { runKeyOf } from '../model/runKeys';
import { runLookOf } from '../model/runLook';
import { usageLongText } from '../protocol/runUsage';
import type { RunStore } from '../model/runStore';
import { Disposable } from './disposable';
import { markRefusedChangeSet, refusedChangeSetDecoration } from './changeSetRefusal';
import { connectionTreeItem, runContextFlags } from './connectionTreeItems';
import { olderRunsItem, runDescription, runIcon, runStateLabel } from './runPresentation';
import type { ConnectionNote } from './connectionTreeItems';
import type { SessionRow } from './sessionRows';
import { sessionRows } from './sessionRows';

export type TreeNode =
  | { readonly type: 'connection'; readonly id: string }
  /** `nested`: the run had subagents under it when this element was made (its item's id says so, for its life). */
  | { readonly type: 'run'; readonly key: string; readonly nested?: true }
  /** Ended SCV sessions of one name, collapsed under the live one (sessionRows.ts). */
  | { readonly type: 'ended'; readonly connectionId: string; readonly title: string }
  /** "N older runs…": the connection's finished runs stored but not in the model (a click loads the next page). */
  | { readonly type: 'older'; readonly connectionId: string };

/** The daemon actions that apply to a connection (no run) or one of its runs now (ui/daemonActions/actionTargets.ts). */
export type ActionsFor = (state: ModelState, connectionId: string, run?: RunInfo) => readonly DaemonAction[];

/** What the tree adds to a connection row that a repository's settings define (ui/workspaceConnections). */
export type NoteFor = (connectionId: string) => ConnectionNote | undefined;

export const RUN_URI_SCHEME = 'agent-switchboard-run';

export function runUri(runKey: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_URI_SCHEME, path: `/${encodeURIComponent(runKey)}` });
}

export class ConnectionsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode>, vscode.FileDecorationProvider {
  private readonly treeEmitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.treeEmitter.event;
  private readonly decorationEmitter = this._register(new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>());
  readonly onDidChangeFileDecorations = this.decorationEmitter.event;
  private readonly connectionNodes = new Map<string, TreeNode>();
  private readonly runNodes = new Map<string, TreeNode>();
  private readonly endedNodes = new Map<string, TreeNode>();
  private readonly olderNodes = new Map<string, TreeNode>();
  private parents: { readonly runs: ModelState['runs']; readonly keys: ReadonlySet<string> } | undefined;
  private countdown: ReturnType<typeof setInterval> | undefined;
  /** Whether the view is visible (`setVisible`): the countdown ticks only for someone who can see it. */
  private visible = false;

  constructor(
    private readonly store: RunStore,
    private readonly actionsFor: ActionsFor,
    private readonly noteFor: NoteFor = () => undefined,
  ) {
    super();
    const subscription = store.onDidChange((state) => this.refresh(state));
    this._register({ dispose: () => subscription.dispose() });
    this._register(vscode.window.registerFileDecorationProvider(this));
    this._register({ dispose: () => this.countdown && clearInterval(this.countdown) });
  }

  /** Node objects are cached so `TreeView.reveal` and selection keep working across refreshes. */
  connectionNode(id: string): TreeNode {
    let node = this.connectionNodes.get(id);
    if (!node) {
      node = { type: 'connection', id };
      this.connectionNodes.set(id, node);
    }
    return node;
  }

  /**
   * The run's element for its shape: one that gains (or loses) subagents under it is a new element, because its
   * item's id changes with that (runItem) and VS Code must never see an element's id change — it then changes the
   * item's handle in place, its renderer keeps the old one, and a later re-render of every row asks for the parent of
   * an item its tree no longer has ("[TreeView] Failed to resolve parent", as the run board did: ui/board/boardNodes.ts).
   */
  runNode(key: string, nested: boolean = this.parentKeys().has(key)): TreeNode {
    const node = this.runNodes.get(key);
    if (node?.type === 'run' && (node.nested ?? false) === nested) {
      return node;
    }
    const made: TreeNode = nested ? { type: 'run', key, nested } : { type: 'run', key };
    this.runNodes.set(key, made);
    return made;
  }

  /** The keys of the runs with subagents under them, once per state of the runs (rows ask for it one by one). */
  private parentKeys(): ReadonlySet<string> {
    const runs = this.store.state.runs;
    if (this.parents?.runs !== runs) {
      const keys = new Set<string>();
      for (const run of runs.values()) {
        if (run.parentRunId !== undefined) {
          keys.add(runKeyOf(run.connectionId, run.parentRunId));
        }
      }
      this.parents = { runs, keys };
    }
    return this.parents.keys;
  }

  endedNode(connectionId: string, title: string): TreeNode {
    const id = `${connectionId}\n${title}`;
    let node = this.endedNodes.get(id);
    if (!node) {
      node = { type: 'ended', connectionId, title };
      this.endedNodes.set(id, node);
    }
    return node;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const state = this.store.state;
    if (!node) {
      return [...state.connections.values()].sort((a, b) => a.name.localeCompare(b.name)).map((c) => this.connectionNode(c.id));
    }
    if (node.type === 'connection') {
      const rows = this.rowsOf(node.id).map((row) => (row.kind === 'run' ? this.runNode(row.key) : this.endedNode(node.id, row.title)));
      return (state.connections.get(node.id)?.olderRuns ?? 0) > 0 ? [...rows, this.olderNode(node.id)] : rows;
    }
    if (node.type === 'older') {
      return [];
    }
    if (node.type === 'ended') {
      return this.endedRow(node)?.keys.map((key) => this.runNode(key)) ?? [];
    }
    return this.childrenOf(node.key).map((run) => this.runNode(run.key));
  }

  /** A run's subagents (ACP `subagent_update`), newest first: shown under it, not beside it. */
  private childrenOf(runKey: string): RunInfo[] {
    const parent = this.store.state.runs.get(runKey);
    const runs = [...this.store.state.runs.values()];
    return parent ? runs.filter((r) => r.connectionId === parent.connectionId && r.parentRunId === parent.runId).sort((a, b) => b.createdAt - a.createdAt) : [];
  }

  private parentOf(run: RunInfo): RunInfo | undefined {
    return run.parentRunId !== undefined ? this.store.state.runs.get(runKeyOf(run.connectionId, run.parentRunId)) : undefined;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node.type === 'run') {
      const run = this.store.state.runs.get(node.key);
      if (!run) {
        return undefined;
      }
      const parent = this.parentOf(run);
      if (parent) {
        return this.runNode(parent.key);
      }
      const group = this.rowsOf(run.connectionId).find((row) => row.kind === 'ended' && row.keys.includes(node.key));
      return group?.kind === 'ended' ? this.endedNode(run.connectionId, group.title) : this.connectionNode(run.connectionId);
    }
    return node.type === 'ended' || node.type === 'older' ? this.connectionNode(node.connectionId) : undefined;
  }

  private olderNode(connectionId: string): TreeNode {
    return cachedNode(this.olderNodes, connectionId, () => ({ type: 'older', connectionId }));
  }

  private rowsOf(connectionId: string): SessionRow[] {
    const state = this.store.state;
    const grouped = state.connections.get(connectionId)?.capabilities.includes('runs.sessions') ?? false;
    return sessionRows([...state.runs.values()].filter((r) => r.connectionId === connectionId && !this.parentOf(r)), grouped);
  }

  private endedRow(node: { readonly connectionId: string; readonly title: string }): Extract<SessionRow, { kind: 'ended' }> | undefined {
    const row = this.rowsOf(node.connectionId).find((r) => r.kind === 'ended' && r.title === node.title);
    return row?.kind === 'ended' ? row : undefined;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const state = this.store.state;
    if (node.type === 'connection') {
      const connection = state.connections.get(node.id);
      return connection ? this.connectionItem(connection) : new vscode.TreeItem('(removed)');
    }
    if (node.type === 'older') {
      return olderRunsItem(node.connectionId, state.connections.get(node.connectionId)?.olderRuns ?? 0);
    }
    if (node.type === 'ended') {
      const count = this.endedRow(node)?.keys.length ?? 0;
      const item = new vscode.TreeItem(`${count} ended session${count === 1 ? '' : 's'}`, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `ended:${node.connectionId}:${node.title}`;
      item.description = node.title;
      item.iconPath = new vscode.ThemeIcon('history');
      item.tooltip = `Earlier sessions named "${node.title}" (their transcripts are kept)`;
      item.contextValue = 'endedSessions';
      return item;
    }
    const run = state.runs.get(node.key);
    return run ? this.runItem(node, run, state) : new vscode.TreeItem('(removed)');
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== RUN_URI_SCHEME) {
      return undefined;
    }
    const run = this.store.state.runs.get(decodeURIComponent(uri.path.slice(1)));
    const pending = run?.pendingApprovals.length ?? 0;
    if (pending === 0) {
      return run ? refusedChangeSetDecoration(this.store.state.changeSets.get(run.key)) : undefined;
    }
    return new vscode.FileDecoration(
      pending > 9 ? '9+' : String(pending),
      `${pending} approval${pending === 1 ? '' : 's'} waiting`,
      new vscode.ThemeColor('list.warningForeground'),
    );
  }

  private connectionItem(connection: ConnectionInfo): vscode.TreeItem {
    const actionFlags = this.actionsFor(this.store.state, connection.id).map(actionContextFlag).join('');
    return connectionTreeItem(connection, this.noteFor(connection.id), actionFlags);
  }

  private runItem(node: { readonly nested?: true }, run: RunInfo, state: ModelState): vscode.TreeItem {
    const children = this.childrenOf(run.key).length;
    const item = new vscode.TreeItem(run.title, children > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // A row that was a leaf would stay folded by id once its first subagent arrives: one with subagents is another
    // id, and so another element (runNode); an element's id is the one it was made with.
    item.id = node.nested ? `run:${run.key}:nested` : `run:${run.key}`;
    const look = runLookOf(state, run);
    item.description = runDescription(run, look);
    item.iconPath = runIcon(look);
    item.resourceUri = runUri(run.key);
    const parent = this.parentOf(run);
    item.tooltip = [
      run.title,
      `Run ${run.runId}`,
      `State: ${runStateLabel(look)}${run.stateDetail ? ` (${run.stateDetail})` : ''}`,
      ...(run.usage ? [usageLongText(run.usage)] : []),
      ...(parent ? [`A subagent of "${parent.title}"`] : []),
      ...(children > 0 ? [`${children} subagent${children === 1 ? '' : 's'}`] : []),
    ].join('\n');
    item.command = { command: 'agentSwitchboard.showTranscript', title: 'Show Transcript', arguments: [this.runNode(run.key)] };
    markRefusedChangeSet(item, state.changeSets.get(run.key));
    const flags = runContextFlags(run, state) + this.actionsFor(state, run.connectionId, run).map(actionContextFlag).join('');
    item.contextValue = `run.${run.state}${flags}`;
    return item;
  }

  /** Redraws every row (what `NoteFor` says changed). */
  refreshAll(): void {
    this.treeEmitter.fire(undefined);
  }

  /** The tree view was shown or hidden; shown, it is refreshed (the countdown texts moved on meanwhile). */
  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) {
      this.treeEmitter.fire(undefined);
    }
    this.updateCountdown(this.store.state);
  }

  private refresh(state: ModelState): void {
    this.treeEmitter.fire(undefined);
    this.decorationEmitter.fire(undefined);
    this.updateCountdown(state);
  }

  /** "reconnecting in Ns" counts down each second while a retry is scheduled and the view is visible. */
  private updateCountdown(state: ModelState): void {
    const ticking = this.visible && [...state.connections.values()].some((c) => c.state.kind === 'reconnecting');
    if (ticking && !this.countdown) {
      this.countdown = setInterval(() => this.treeEmitter.fire(undefined), 1000);
    } else if (!ticking && this.countdown) {
      clearInterval(this.countdown);
      this.countdown = undefined;
    }
  }
}

function cachedNode(nodes: Map<string, TreeNode>, id: string, make: () => TreeNode): TreeNode {
  let node = nodes.get(id);
  if (!node) {
    node = make();
    nodes.set(id, node);
  }
  return node;
}
