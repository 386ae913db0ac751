/**
 * A connection's stored runs beyond the ones it shows whole (issue #25 §2): a finished run comes back at connect from
 * its index summary (runSummaries.ts) and is replayed here when a view opens it (`load`), released again when none
 * shows it (`release`); runs past the retention setting are archived (`archived`, `unarchive`); `remove` deletes a
 * finished run for good (runRemovals.ts: it never comes back). The door (driverRuns.ts) owns it and hands it the recorder and the replay handlers of the connect;
 * the UI reaches it as `Driver.history` (ui/runResidency.ts, the history commands).
 */
import type { RunFields } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverHistory, RunRemoval, RunWriterWindow } from '../driver';
import { RunRemovals } from './runRemovals';
import type { DriverContext } from '../connectionManager';
import type { RunRecorder } from './runRecorder';
import type { DoorReplayHandlers } from './runJournaling';
import { digestOf, storedSummaryOf, summaryOf } from './runSummaries';
import type { StoredSummary } from './runSummaries';
import { RunPaging } from './runPaging';

/** What the history reads of its door. */
export interface HistoryDoor<C> {
  readonly ctx: Pick<DriverContext, 'store' | 'connectionId' | 'runRemoved'> & { readonly now?: () => number };
  get(runId: string): RunInfo | undefined;
  key(runId: string): string;
  /** The connection's recorder (undefined: not journaled, or closed). */
  journal(): RunRecorder<C> | undefined;
  /** The handlers the connect replayed with (undefined before the first replay, or for a driver not lazy). */
  handlers(): DoorReplayHandlers<C> | undefined;
  /** Logs a failed write of the run (once, unless the door is closed). */
  failed(runId: string, error: unknown): void;
  /** The run's files are gone: the driver drops what it keeps of it (JournalTerms.removed). */
  removed(runId: string): void;
  /** Whether the last connect archived the run (retention: on disk, out of the model). */
  archived(runId: string): boolean;
}

export class RunHistory<C> implements DriverHistory {
  /** Runs being replayed because they were opened (one replay each, however many ask). */
  private readonly loading = new Map<string, Promise<void>>();
  /** Runs whose load is past its records (the reload's ending is folded now: it must not wait for the load). */
  private readonly settling = new Set<string>();

  /**
   * The state of each live run being loaded as the model showed it (kit/quietRuns.ts): its index entry's may be
   * older (an AgencyProxy run's "idle" is inferred from its events, never indexed), so the load keeps this one.
   */
  private readonly liveStates = new Map<string, RunFields>();

  /** When this window last recorded something other than fields for each run (what dates its summary). */
  private readonly recordedAt = new Map<string, number>();

  /** Removed runs: deleting them, and keeping them out for good (runRemovals.ts). */
  readonly removals: RunRemovals<C>;

  /** The connection's finished runs older than what the model holds (kit/olderRuns.ts), brought in on demand. */
  readonly pages: RunPaging<C>;

  constructor(private readonly door: HistoryDoor<C>) {
    this.pages = new RunPaging(door);
    this.removals = new RunRemovals(door, (runId) => {
      this.recordedAt.delete(runId);
      this.pages.forget(runId);
    });
  }

  /** Brings the next page of older runs into the model (an "older…" row); resolves with how many came. */
  showOlder(count?: number): Promise<number> {
    return this.pages.showOlder(count);
  }

  /** Whether the run is stored but older than what the model holds (it loads when asked for by its key). */
  isOlder(runId: string): boolean {
    return this.pages.has(runId);
  }

  /**
   * Adds to what a removal deletes: `prepare` reads what it needs while the run's files still exist and returns the
   * step that deletes it, run only once the run's files are gone (not when the removal is refused).
   */
  onRemoval(prepare: (runId: string) => Promise<() => Promise<void>>): void {
    this.removals.onRemoval(prepare);
  }

  /**
   * Whether the run is left out of the model on purpose — archived at connect, listed older than the connect's page
   * (runPaging.ts), or removed (runRemovals.ts) — so that a daemon's run list that still names it (finished) does not
   * bring it back.
   */
  leftOut(runId: string): boolean {
    return this.removals.removed(runId) || (this.door.get(runId) === undefined && (this.door.archived(runId) || this.pages.has(runId)));
  }

  /** Whether news for a run listed older must wait: the run comes into the model (and is loaded) first. */
  mustShowFirst(runId: string): boolean {
    return this.pages.has(runId);
  }

  /**
   * Whether news for the run must wait for its transcript: it is being loaded (and not yet settling), or it is shown
   * from its summary and the news is more than fields (fields alone change no transcript).
   */
  mustLoadFirst(runId: string, fieldsOnly: boolean): boolean {
    return (this.loading.has(runId) && !this.settling.has(runId)) || (!fieldsOnly && this.door.get(runId)?.unloaded !== undefined);
  }

  /** The state a live run being loaded had in the model (undefined: not such a run), which its load keeps. */
  liveState(runId: string): RunFields | undefined {
    return this.liveStates.get(runId);
  }

  /** Runs `ending` (the replay's close handler: what the reload ended) with news for the run folded at once. */
  async settle(runId: string, ending: () => Promise<void>): Promise<void> {
    const mine = this.loading.has(runId) && !this.settling.has(runId);
    if (mine) {
      this.settling.add(runId);
    }
    try {
      await ending();
    } finally {
      if (mine) {
        this.settling.delete(runId);
      }
    }
  }

  /**
   * Replays a run shown from its summary (a view opens it); resolves once its transcript is in the store. A run listed
   * older (not in the model) is brought in first.
   */
  load(runId: string): Promise<void> {
    const pending = this.loading.get(runId);
    if (pending) {
      return pending;
    }
    if (this.pages.has(runId)) {
      return this.pages.showOne(runId).then(() => this.load(runId));
    }
    const recorder = this.door.journal();
    const handlers = this.door.handlers();
    if (this.door.get(runId)?.unloaded === undefined || !recorder || !handlers) {
      return Promise.resolve();
    }
    const shown = this.door.get(runId);
    if (shown && !isTerminalRunState(shown.state)) {
      this.liveStates.set(runId, { state: shown.state, ...(shown.stateDetail !== undefined ? { stateDetail: shown.stateDetail } : {}) });
    }
    const loading = (async () => {
      const stored = await recorder.loadRun(runId);
      if (stored) {
        await recorder.replayRun(stored, handlers);
      }
    })().finally(() => {
      this.loading.delete(runId);
      this.liveStates.delete(runId);
    });
    this.loading.set(runId, loading);
    return loading;
  }

  /**
   * A run this window took over whose file ends at `journalEnd` while the model stood elsewhere (runWriters.ts): its
   * transcript comes back from the file, as a reload brings it (news for it waits meanwhile, `mustLoadFirst`), and
   * this window writes it from the file's end on. Resolves with whether it did; the driver then follows the run again
   * after the file's end (JournalTerms.rejoin), and must drop the run's live events until then.
   */
  rejoin(runId: string): Promise<boolean> {
    const recorder = this.door.journal();
    const handlers = this.door.handlers();
    if (!recorder || !handlers || this.loading.has(runId)) {
      void recorder?.rejoined(runId, false);
      return Promise.resolve(false);
    }
    const rejoining = (async () => {
      let ok = false;
      try {
        const stored = await recorder.loadRun(runId);
        if (stored) {
          await recorder.replayRun(stored, handlers, true);
          ok = true;
        }
      } finally {
        await recorder.rejoined(runId, ok);
      }
      return ok;
    })();
    const loading = rejoining.then(() => undefined, () => undefined).finally(() => this.loading.delete(runId));
    this.loading.set(runId, loading);
    return rejoining.catch((error: unknown) => {
      this.door.failed(runId, error);
      return false;
    });
  }

  /**
   * Drops a finished run's transcript from memory (no view shows it), keeping what the board shows; its summary is
   * saved first. False when it must stay: not finished, waiting for a person, being loaded, or already released.
   */
  async release(runId: string): Promise<boolean> {
    const releasable = (run: RunInfo | undefined): run is RunInfo => run !== undefined && run.unloaded === undefined && isTerminalRunState(run.state) && run.pendingApprovals.length === 0;
    if (!releasable(this.door.get(runId)) || this.loading.has(runId) || !this.door.handlers()?.summarized) {
      return false;
    }
    await this.saveSummary(runId);
    const now = this.door.get(runId);
    if (!releasable(now)) {
      return false; // it changed while its summary was written
    }
    this.door.ctx.store.dispatch({ type: 'runReleased', runKey: this.door.key(runId), digest: digestOf(this.summaryOf(now)) });
    return true;
  }

  /** The stored runs not in the model (archived, or listed older) with a summary: Search Run History's, newest first. */
  archived(): Promise<StoredRun[]> {
    return this.pages.notShown();
  }

  /** Brings a stored run not in the model into it from its summary (it is then opened, and loaded, like any other). */
  unarchive(runId: string): Promise<boolean> {
    return this.pages.unarchive(runId);
  }

  /**
   * Removes a finished run: out of the model, then its journal, checkpoint and index entry deleted. A run that is
   * not finished is refused (its daemon may still be writing it: stop it first) — the caller says so.
   */
  remove(runId: string): Promise<RunRemoval> {
    return this.removals.remove(runId, this.loading.get(runId));
  }

  /**
   * Removes a run that is not in the model — the size limit at connect (runHistoryTrim.ts) — the same way as
   * `remove`: its files and what goes with them deleted, then the editor told (its draft, selection and board note go).
   */
  removeStored(runId: string): Promise<'removed' | { readonly heldBy: RunWriterWindow }> {
    return this.removals.removeStored(runId);
  }

  /** Saves every loaded run's summary (one coalesced index write: the next connect shows finished runs from them). */
  async saveSummaries(runs: readonly RunInfo[]): Promise<void> {
    if (this.door.handlers()) {
      await Promise.all(runs.filter((run) => run.unloaded === undefined).map((run) => this.saveSummary(run.runId)));
    }
  }

  /** The summary of a run as the model holds it now (`previous`: its index entry, which keeps how old it is). */
  summaryOf(run: RunInfo, previous?: StoredRun): StoredSummary {
    const { store } = this.door.ctx;
    return summaryOf(run, store.transcript(run.key), store.state.changeSets.get(run.key), this.now(), previous && storedSummaryOf(previous), this.recordedAt.get(run.runId));
  }

  /** A checkpoint of the run was written: its summary now, of the same moment (unless the run moved on meanwhile). */
  checkpointed(runId: string): Promise<void> {
    return this.saveSummary(runId);
  }

  /** The door recorded news of the run (an event, a gap…; not fields alone): what its summary is dated by. */
  recorded(runId: string): void {
    this.recordedAt.set(runId, this.now());
  }

  private now(): number {
    return this.door.ctx.now?.() ?? Date.now();
  }

  /** Rewrites the run's index entry with its summary now (its other fields as the index has them). */
  private async saveSummary(runId: string): Promise<void> {
    const run = this.door.get(runId);
    const recorder = this.door.journal();
    const stored = run && (await recorder?.loadRun(runId));
    if (!run || !recorder || !stored || run.unloaded !== undefined) {
      return;
    }
    const summary = this.summaryOf(run, stored);
    const previous = storedSummaryOf(stored);
    if (previous && JSON.stringify(previous) === JSON.stringify(summary)) {
      return; // unchanged: no index write
    }
    await recorder.saveRun({ ...stored, summary }).catch((error: unknown) => this.door.failed(runId, error));
  }
}
