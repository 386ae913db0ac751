/**
 * The editor's side of run worktrees (issue #26): the one owner of the `RunWorktrees` records of this workspace
 * (`<workspace storage>/worktrees`), and what the rest of the UI asks of them — whether a run is isolated (the
 * "WT" badge on its rows), the worktree a run's folder is in (workspace access lets that run use its files),
 * what goes when a run is removed, merges and their undo, and orphans after a crash.
 */
import * as vscode from 'vscode';
import { RunWorktrees } from '../../changeSets/runWorktrees';
import type { OrphanWorktree } from '../../changeSets/runWorktrees';
import type { MergeConflict } from '../../changeSets/worktreeMerge';
import type { RunWorktree } from '../../changeSets/worktreeRecords';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { Capability } from '../../model/modelTypes';
import { runKeyOf } from '../../model/runKeys';
import type { RunStore } from '../../model/runStore';
import { BOARD_RUN_URI_SCHEME } from '../board/boardItems';
import { RUN_URI_SCHEME } from '../connectionsTreeProvider';
import { Disposable } from '../disposable';

/**
 * Why a connection's runs cannot work in a worktree (shown where the option would be): only daemons whose runs take
 * their folder from *New Run…* (`run.workingDirectory`: ACP `cwd`, AgencyProxy `workspaceRoots`) can.
 */
export function worktreeRefusal(capabilities: readonly Capability[]): string | undefined {
  return capabilities.includes('run.workingDirectory') ? undefined : 'this daemon’s runs work where the daemon puts them (it takes no folder from the editor)';
}

export class RunWorktreeService extends Disposable implements vscode.FileDecorationProvider {
  /** Undefined without a workspace (no storage of its own): the option then says so. */
  readonly worktrees: RunWorktrees | undefined;
  /** The conflicts of each worktree's last merge still open (this window only: *Merge* again finds them anew). */
  readonly conflicts = new Map<string, readonly MergeConflict[]>();
  private readonly decorationEmitter = this._register(new vscode.EventEmitter<vscode.Uri | vscode.Uri[] | undefined>());
  readonly onDidChangeFileDecorations = this.decorationEmitter.event;

  constructor(
    storageFolder: string | undefined,
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.worktrees = storageFolder !== undefined ? new RunWorktrees(storageFolder) : undefined;
    this._register(vscode.window.registerFileDecorationProvider(this));
    void this.worktrees?.load().then(() => this.changed(), (error: unknown) => this.log.warn(`Run worktrees: ${String(error)}`));
  }

  /** The worktree a run works in, if any. */
  forRun(connectionId: string, runId: string): RunWorktree | undefined {
    return this.worktrees?.forRun(connectionId, runId);
  }

  /** The worktree folder `runFolder` is in, when it is one of ours (workspace access: that run may use its files). */
  worktreeOf(runFolder: string): string | undefined {
    return this.worktrees?.containing(runFolder)?.path;
  }

  /** What a connection's run removal takes with it: the run's worktree (kit/runHistory.ts `onRemoval`). */
  removalOf(connectionId: string): (runId: string) => Promise<() => Promise<void>> {
    return async (runId) => {
      await this.worktrees?.load();
      const worktree = this.forRun(connectionId, runId);
      return async () => {
        if (worktree && this.worktrees) {
          await this.worktrees.remove(worktree.id);
          this.conflicts.delete(worktree.id);
          this.log.info(`Removed the worktree of run ${runId} (${worktree.path}).`);
          this.changed();
        }
      };
    };
  }

  /** The run's rows get the badge once its worktree is attached (or removed). */
  changed(): void {
    this.decorationEmitter.fire(undefined);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if ((uri.scheme !== RUN_URI_SCHEME && uri.scheme !== BOARD_RUN_URI_SCHEME) || !this.worktrees) {
      return undefined;
    }
    const runKey = decodeURIComponent(uri.path.slice(1));
    const worktree = this.worktrees.all().find((w) => w.run && runKeyOf(w.run.connectionId, w.run.runId) === runKey);
    return worktree ? { badge: 'WT', tooltip: `Isolated: works in its own git worktree (${worktree.path})` } : undefined;
  }

  /**
   * Whether the run is known to this window: true (in the model, or archived), false (its connection's runs are
   * read and it is not among them, or its connection profile is gone), undefined (its connection is not connected).
   */
  async runKnown(): Promise<(connectionId: string, runId: string) => boolean | undefined> {
    const state = this.store.state;
    const archived = new Map<string, Set<string>>();
    for (const connection of state.connections.values()) {
      if (connection.state.kind === 'connected') {
        const stored = await this.connections.driver(connection.id)?.history?.archived().catch(() => []) ?? [];
        archived.set(connection.id, new Set(stored.map((s) => s.runId)));
      }
    }
    return (connectionId, runId) => {
      if (state.runs.has(runKeyOf(connectionId, runId)) || archived.get(connectionId)?.has(runId)) {
        return true;
      }
      if (this.connections.profile(connectionId) === undefined) {
        return false;
      }
      return archived.has(connectionId) ? false : undefined;
    };
  }

  async orphans(): Promise<OrphanWorktree[]> {
    return this.worktrees ? this.worktrees.orphans(await this.runKnown()) : [];
  }
}
