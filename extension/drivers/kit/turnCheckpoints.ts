/**
 * The kit's one seam for file checkpoints (issue #26): a driver calls `boundary(runId, roots)` when its run starts
 * and at each turn boundary its protocol knows (ACP end of turn, SCV `turn.completed`, an AgencyProxy
 * `message_boundary` or terminal event, an A3S terminal state); the files of the run's workspace roots are
 * snapshotted (changeSets/fileCheckpointStore.ts) — in the window that writes the run only (runWriters.ts: a
 * checkpoint belongs to the run's writer), never blocking the driver and never throwing into it: a failed snapshot
 * is a warning in the log and a checkpoint that says which root has none and why.
 *
 * Each checkpoint recorded here, and each rewind and redo done through here, becomes a marker row in the run's
 * transcript through the door (`runs.event`): journaled like any event, so it survives a reload and other windows
 * read it from the journal. Rewinds go through here, not the store, so their marker is never forgotten.
 *
 * Where things go: the per-run list beside the run's journal (`<run>.files.json`, journalDirOf), private git dirs
 * of folders that are not repositories under the extension's storage (`fileCheckpoints/`), shared by every
 * connection and window of this machine (one per folder).
 */
import { join } from 'node:path';
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import { filesChangedSince } from '../../changeSets/checkpointChanges';
import type { FileCheckpoint } from '../../changeSets/fileCheckpointRecords';
import { FileCheckpointStore } from '../../changeSets/fileCheckpointStore';
import type { RewindOutcome } from '../../changeSets/fileCheckpointStore';
import { rewindSummary } from '../../changeSets/rewindSummary';
import type { RewindDecision } from '../../changeSets/rewindPreview';
import { FileCheckpointLedger } from '../../storage/fileCheckpointLedger';
import { readLease } from '../../storage/runWriterLease';
import type { DriverContext } from '../connectionManager';
import type { RunWriterWindow } from '../driver';
import type { DriverRuns } from './driverRuns';
import type { RunHistory } from './runHistory';
import { errorText } from './errors';
import { journalDirOf } from './runJournaling';

/** A checkpoint this window recorded for one of its runs. */
export interface RecordedCheckpoint {
  readonly runId: string;
  readonly checkpoint: FileCheckpoint;
}

export class TurnCheckpoints {
  readonly store: FileCheckpointStore;
  private readonly recorded = new Emitter<RecordedCheckpoint>();
  /** Each recorded checkpoint (the transcript's marker will come from here). */
  readonly onRecorded: Event<RecordedCheckpoint> = this.recorded.event;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: Pick<DriverContext, 'storageDir' | 'connectionId' | 'log'>,
    private readonly runs: Pick<DriverRuns<unknown>, 'writes' | 'claim'> &
      Partial<Pick<DriverRuns<unknown>, 'event'>> & { readonly history?: Pick<RunHistory<unknown>, 'onRemoval'> },
  ) {
    this.store = new FileCheckpointStore({
      ledger: new FileCheckpointLedger(journalDirOf(ctx), (runId) => runs.writes(runId)),
      privateRoot: join(ctx.storageDir, 'fileCheckpoints'),
      refScope: ctx.connectionId,
    });
    // Removing a run (Remove Run, Clear Finished Runs…) unpins its snapshots in the repositories it touched.
    runs.history?.onRemoval((runId) => this.store.removalOf(runId));
  }

  /**
   * A turn boundary of the run (or its start): checkpoints the roots given (undefined ones, a run without a
   * folder, are skipped). Resolves with the checkpoint, or undefined (not this window's run, no roots, a failure
   * — logged); never rejects.
   */
  boundary(runId: string, roots: readonly (string | undefined)[]): Promise<FileCheckpoint | undefined> {
    const folders = roots.filter((r): r is string => r !== undefined && r !== '');
    if (folders.length === 0) {
      return Promise.resolve(undefined);
    }
    // A run's writer is decided at its first record, which its driver may not have awaited (SCV starts a session
    // with a `void` record): the decision is waited for here — the same one the journal's next record would make.
    const task = this.runs.claim(runId).then((mine) => (mine ? this.store.record(runId, undefined, folders) : ({ status: 'not writer' } as const))).then(
      (outcome) => {
        if (outcome.status !== 'recorded') {
          return undefined;
        }
        for (const missing of outcome.checkpoint.unavailable) {
          this.ctx.log.warn(`No checkpoint of ${missing.root} for ${runId}: ${missing.reason}`);
        }
        this.recorded.fire({ runId, checkpoint: outcome.checkpoint });
        return this.marked(runId, outcome.checkpoint).then(() => outcome.checkpoint);
      },
      (error: unknown) => {
        this.ctx.log.warn(`Checkpoint of ${runId}: ${errorText(error)}`);
        return undefined;
      },
    );
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
    return task;
  }

  /**
   * Rewinds the run's files to a checkpoint (FileCheckpointStore.rewind: every question of its preview needs a
   * decision) and marks the transcript with what came of it.
   */
  rewind(runId: string, checkpointId: string, decisions: readonly RewindDecision[] = []): Promise<RewindOutcome> {
    // A finished run reopened after a reload has no writer until one asks (no record since): the rewind asks, as a
    // record would; a window that holds it elsewhere keeps it (`not writer`).
    return this.tracked(this.runs.claim(runId).then(() => this.store.rewind(runId, checkpointId, decisions)).then((outcome) => this.markRewind(runId, outcome, false)));
  }

  /** Undoes a rewind (its before-state `rewindId`), marked like one: a redo can itself be undone. */
  redo(runId: string, rewindId: string, decisions: readonly RewindDecision[] = []): Promise<RewindOutcome> {
    return this.tracked(this.runs.claim(runId).then(() => this.store.redo(runId, rewindId, decisions)).then((outcome) => this.markRewind(runId, outcome, true)));
  }

  /** The window that writes the run, as its lease says (for "not writer": the person is told where to go). */
  async writerOf(runId: string): Promise<RunWriterWindow | undefined> {
    const holder = await readLease(journalDirOf(this.ctx), runId);
    return holder === undefined ? undefined : { pid: holder.pid, ...(holder.name !== undefined ? { name: holder.name } : {}) };
  }

  /** Resolves once every checkpoint asked for so far is recorded (or failed): before a close, and in tests. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.all([...this.pending]);
    }
  }

  /** The checkpoint's marker row, through the door (journaled with the run). */
  private async marked(runId: string, checkpoint: FileCheckpoint): Promise<void> {
    if (this.runs.event === undefined) {
      return;
    }
    const files = await this.store.list(runId).then((history) => filesChangedSince(history, checkpoint), () => undefined);
    const unavailable = checkpoint.unavailable.map((u) => `No checkpoint of ${u.root}: ${u.reason}`).join('; ');
    await this.runs.event(runId, {
      kind: 'fileCheckpoint',
      checkpointId: checkpoint.id,
      mark: 'turn',
      rewindable: checkpoint.trees.length > 0,
      ...(checkpoint.turn !== undefined ? { turn: checkpoint.turn } : {}),
      ...(files !== undefined ? { files } : {}),
      ...(unavailable !== '' ? { unavailable } : {}),
    }).catch((error: unknown) => this.ctx.log.warn(`Checkpoint marker of ${runId}: ${errorText(error)}`));
  }

  private async markRewind(runId: string, outcome: RewindOutcome, redo: boolean): Promise<RewindOutcome> {
    if (outcome.status !== 'rewound' || this.runs.event === undefined) {
      return outcome;
    }
    const summary = rewindSummary(await this.store.list(runId).catch(() => []), outcome, redo);
    await this.runs.event(runId, { kind: 'fileCheckpoint', checkpointId: outcome.rewindId, mark: 'rewound', rewindable: false, summary }).catch((error: unknown) =>
      this.ctx.log.warn(`Rewind marker of ${runId}: ${errorText(error)}`),
    );
    return outcome;
  }

  private tracked<T>(task: Promise<T>): Promise<T> {
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task)).catch(() => undefined);
    return task;
  }

  /** Deletes the run's checkpoints (refs and list): with the rest of the run's files, when it is removed for good. */
  removeRun(runId: string): Promise<void> {
    return this.store.removeRun(runId);
  }

  dispose(): void {
    this.recorded.dispose();
  }
}

