/**
 * A run's file checkpoints (issue #26, "Checkpoints and rewind for every run"): at each turn boundary the run's
 * workspace roots are snapshotted as git trees (snapshotScope.ts; never the user's index or HEAD), kept from `git gc`
 * by refs, and listed in a small per-run file (the ledger). *Rewind files to here* previews the diff from now to a
 * checkpoint, asks about files changed since and protected paths (rewindPreview.ts), records the files as they are
 * ("before rewind") and restores the checkpoint's (treeRestore.ts); *Redo* is a rewind to that before-state, so it
 * restores exactly what the rewind replaced.
 *
 * One writer per run: the ledger says whether this window holds the run's writer lease; elsewhere `record` and
 * `rewind` refuse (`not writer`). Within the window, a run's operations run one at a time. Daemon-independent: runs
 * are ids; the kit decides when turns end. Pure Node, no `vscode`.
 */
import { checkpointsFromStored, storedCheckpoints } from './fileCheckpointRecords';
import type { CheckpointLedger, FileCheckpoint, ScopeTree, UnavailableRoot } from './fileCheckpointRecords';
import { previewRewind, questionKey } from './rewindPreview';
import type { RewindDecision, RewindPreview, RewindQuestion } from './rewindPreview';
import { DEFAULT_PRIVATE_LIMITS, pinTree, resolveSnapshotScope, SnapshotUnavailable, snapshotScope, unpinRun } from './snapshotScope';
import type { PrivateSnapshotLimits, SnapshotScope } from './snapshotScope';
import { restoreEntries } from './treeRestore';

export interface FileCheckpointStoreOptions {
  readonly ledger: CheckpointLedger;
  /** Where private git dirs of folders that are not git work trees go (the extension's storage). */
  readonly privateRoot: string;
  /** What makes a run's refs unique across connections (its connection id): refs are named by a hash of it and the run id. */
  readonly refScope: string;
  readonly limits?: PrivateSnapshotLimits;
  readonly now?: () => number;
}

export type RecordOutcome = { readonly status: 'recorded'; readonly checkpoint: FileCheckpoint } | { readonly status: 'not writer' };

export interface RewindFailure {
  readonly top: string;
  readonly path: string;
  readonly reason: string;
}

export type RewindOutcome =
  | { readonly status: 'needs decision'; readonly questions: readonly RewindQuestion[] }
  | { readonly status: 'not writer' }
  | { readonly status: 'unknown checkpoint'; readonly checkpointId: string }
  | {
      readonly status: 'rewound';
      /** The before-state just recorded: `redo(runId, rewindId)` restores it. */
      readonly rewindId: string;
      readonly restored: number;
      readonly kept: readonly { readonly top: string; readonly path: string }[];
      readonly failures: readonly RewindFailure[];
    };

function scopeOf(tree: ScopeTree): SnapshotScope {
  return { top: tree.top, ...(tree.gitDir !== undefined ? { gitDir: tree.gitDir } : {}) };
}

function errorText(error: unknown): string {
  return error instanceof SnapshotUnavailable ? error.reason : error instanceof Error ? error.message : String(error);
}

export class FileCheckpointStore {
  /** Each run's operations, one after another (a rewind must not interleave with a record of the same run). */
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly limits: PrivateSnapshotLimits;
  private readonly now: () => number;

  constructor(private readonly options: FileCheckpointStoreOptions) {
    this.limits = options.limits ?? DEFAULT_PRIVATE_LIMITS;
    this.now = options.now ?? Date.now;
  }

  /** The run's checkpoints, oldest first. */
  async list(runId: string): Promise<FileCheckpoint[]> {
    return checkpointsFromStored(await this.options.ledger.read(runId));
  }

  /**
   * Snapshots the run's workspace roots at a turn boundary (roots in one repository share its snapshot). `turn`:
   * how many turns the run has done (absent: one more than the run's last turn checkpoint, 0 for its first — the
   * files before any turn). A root with no snapshot is listed in the checkpoint's `unavailable` with the reason; the
   * checkpoint is recorded all the same, so the transcript still shows the turn's marker.
   */
  record(runId: string, turn: number | undefined, roots: readonly string[]): Promise<RecordOutcome> {
    return this.serially(runId, async () => {
      if (!(await this.options.ledger.mayWrite(runId))) {
        return { status: 'not writer' };
      }
      const history = await this.list(runId);
      turn ??= history.reduce((n, c) => (c.kind === 'turn' ? Math.max(n, (c.turn ?? 0) + 1) : n), 0);
      const id = `c${nextNumber(history)}`;
      const { trees, unavailable } = await this.snapshotRoots(runId, id, roots);
      const checkpoint: FileCheckpoint = { id, kind: 'turn', turn, at: this.now(), trees, unavailable };
      await this.options.ledger.write(runId, storedCheckpoints([...history, checkpoint]));
      return { status: 'recorded', checkpoint };
    });
  }

  /** What rewinding to the checkpoint would change, and what must be asked first (nothing is written). */
  async preview(runId: string, checkpointId: string): Promise<RewindPreview | undefined> {
    const history = await this.list(runId);
    const checkpoint = history.find((c) => c.id === checkpointId);
    return checkpoint === undefined ? undefined : previewRewind(checkpoint, history, this.limits);
  }

  /**
   * Restores the checkpoint's files. Every question of the preview needs a decision in `decisions` (else nothing is
   * written and the questions come back); `keep` leaves that path as it is. The files as they were are recorded
   * first, as a `beforeRewind` checkpoint whose id comes back for *Redo*.
   */
  rewind(runId: string, checkpointId: string, decisions: readonly RewindDecision[] = []): Promise<RewindOutcome> {
    return this.serially(runId, () => this.rewindNow(runId, checkpointId, decisions));
  }

  /** Undoes a rewind: restores the files as they were just before it (a rewind itself, so it can be undone too). */
  redo(runId: string, rewindId: string, decisions: readonly RewindDecision[] = []): Promise<RewindOutcome> {
    return this.serially(runId, async () => {
      const target = (await this.list(runId)).find((c) => c.id === rewindId);
      if (target?.kind !== 'beforeRewind') {
        return { status: 'unknown checkpoint', checkpointId: rewindId };
      }
      return this.rewindNow(runId, rewindId, decisions);
    });
  }

  /**
   * Forgets the run's checkpoints: deletes its refs in every repository and private git dir it used (the trees go
   * at their next `git gc`) and its ledger file.
   */
  async removeRun(runId: string): Promise<void> {
    await (await this.removalOf(runId))();
  }

  /**
   * `removeRun` in two steps, for removing a run for good: the repositories its checkpoints used are read now, while
   * its list still exists; the returned step unpins them and deletes the list — after the run's other files went
   * (RunHistory.remove: removal may be refused, and the list is one of the run's files, deleted with them).
   */
  async removalOf(runId: string): Promise<() => Promise<void>> {
    const scopes = new Map<string, SnapshotScope>();
    for (const checkpoint of await this.list(runId)) {
      for (const tree of [...checkpoint.trees, ...(checkpoint.after ?? [])]) {
        scopes.set(`${tree.top}\0${tree.gitDir ?? ''}`, scopeOf(tree));
      }
    }
    return () => this.serially(runId, async () => {
      for (const scope of scopes.values()) {
        // A repository deleted or moved since has nothing left to unpin.
        await unpinRun(scope, this.runIdentity(runId)).catch(() => undefined);
      }
      await this.options.ledger.remove(runId);
    });
  }

  private async rewindNow(runId: string, checkpointId: string, decisions: readonly RewindDecision[]): Promise<RewindOutcome> {
    if (!(await this.options.ledger.mayWrite(runId))) {
      return { status: 'not writer' };
    }
    const history = await this.list(runId);
    const checkpoint = history.find((c) => c.id === checkpointId);
    if (checkpoint === undefined) {
      return { status: 'unknown checkpoint', checkpointId };
    }
    const preview = await previewRewind(checkpoint, history, this.limits);
    const decided = new Map(decisions.map((d) => [questionKey(d.top, d.path), d.decision]));
    const open = preview.questions.filter((q) => !decided.has(questionKey(q.top, q.path)));
    if (open.length > 0) {
      return { status: 'needs decision', questions: open };
    }
    // The before-state goes on disk (pinned, listed) before any file changes: a crash mid-rewind can still be redone.
    const number = nextNumber(history);
    const rewindId = `r${number}`;
    const before = preview.scopes.map((s) => ({ top: s.top, tree: s.nowTree, ...(s.gitDir !== undefined ? { gitDir: s.gitDir } : {}) }));
    for (const tree of before) {
      await pinTree(scopeOf(tree), this.runIdentity(runId), rewindId, tree.tree);
    }
    const entry: FileCheckpoint = { id: rewindId, kind: 'beforeRewind', at: this.now(), trees: before, unavailable: [], restored: checkpointId };
    await this.options.ledger.write(runId, storedCheckpoints([...history, entry]));

    const kept: { top: string; path: string }[] = [];
    const failures: RewindFailure[] = [];
    let restored = 0;
    for (const scope of preview.scopes) {
      const chosen = scope.entries.filter((e) => {
        const keep = decided.get(questionKey(scope.top, e.path)) === 'keep';
        if (keep) {
          kept.push({ top: scope.top, path: e.path });
        }
        return !keep;
      });
      const failed = await restoreEntries(scope, scope.targetTree, chosen);
      failures.push(...failed.map((f) => ({ top: scope.top, ...f })));
      restored += chosen.length - failed.length;
    }
    // The files right after the rewind: what "changed since" compares with from now on.
    const after = await this.snapshotTrees(runId, `a${number}`, preview.scopes);
    await this.options.ledger.write(runId, storedCheckpoints([...history, { ...entry, after, ...(kept.length > 0 ? { kept } : {}) }]));
    return { status: 'rewound', rewindId, restored, kept, failures };
  }

  private async snapshotRoots(runId: string, id: string, roots: readonly string[]): Promise<{ trees: ScopeTree[]; unavailable: UnavailableRoot[] }> {
    const scopes = new Map<string, SnapshotScope>();
    const unavailable: UnavailableRoot[] = [];
    for (const root of new Set(roots)) {
      try {
        const scope = await resolveSnapshotScope(root, this.options.privateRoot);
        scopes.set(scope.top, scope);
      } catch (error) {
        unavailable.push({ root, reason: errorText(error) });
      }
    }
    const trees: ScopeTree[] = [];
    for (const scope of scopes.values()) {
      try {
        trees.push(...(await this.snapshotTrees(runId, id, [scope])));
      } catch (error) {
        unavailable.push({ root: scope.top, reason: errorText(error) });
      }
    }
    return { trees, unavailable };
  }

  /** Snapshots and pins each scope under the checkpoint id. */
  private async snapshotTrees(runId: string, id: string, scopes: readonly SnapshotScope[]): Promise<ScopeTree[]> {
    const out: ScopeTree[] = [];
    for (const scope of scopes) {
      const tree = await snapshotScope(scope, this.limits);
      await pinTree(scope, this.runIdentity(runId), id, tree);
      out.push({ top: scope.top, tree, ...(scope.gitDir !== undefined ? { gitDir: scope.gitDir } : {}) });
    }
    return out;
  }

  private runIdentity(runId: string): string {
    return `${this.options.refScope}\0${runId}`;
  }

  private serially<T>(runId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(runId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.chains.set(runId, next);
    void next.finally(() => this.chains.get(runId) === next && this.chains.delete(runId)).catch(() => undefined);
    return next;
  }
}

/** The next checkpoint number of the run (ids of every kind share one counter, so refs never collide). */
function nextNumber(history: readonly FileCheckpoint[]): number {
  let max = 0;
  for (const c of history) {
    max = Math.max(max, Number(c.id.slice(1)));
  }
  return max + 1;
}
