/**
 * Folds a driver's model inputs into the store and journals them in one call, and replays a connection's
 * journal after a window reload — the same way for every driver (record format: journalRecords.ts; the replay
 * itself: runReplay.ts).
 *
 * Writing: `record` dispatches each record to the store, then appends it; the promise resolves once the lines
 * are on disk (fdatasync), which is what an acknowledgement to a daemon may wait for.
 */
import type * as z from 'zod/mini';
import { RunKeyCache } from '../../model/runKeys';
import { RunJournal } from '../../storage/runJournal';
import type { RemovedRunIds, StoredRun } from '../../storage/runJournal';
import type { LeaseHolder } from '../../storage/runWriterLease';
import { watchJournalDir } from '../../storage/journalDirWatch';
import type { JournalRecord, RunInput } from './journalRecords';
import { diskRecordOf, journalRecordSchema } from './journalRecords';
import { systemClock } from './clock';
import { JournaledSequences } from './journaledSequences';
import { RunCheckpoints } from './runCheckpoints';
import { modelActionOf } from './runInputActions';
import { noStats, replayStoredRun, replayStoredRuns } from './runReplay';
import type { ReplayHandlers, ReplaySource, ReplayStats } from './runReplay';
import { RunWriters } from './runWriters';
import type { RunRecorderOptions } from './runRecorderOptions';
import type { ColdTest, ConnectIndex } from '../../storage/runIndexDigest';
import { OlderStubs } from '../../storage/olderStubs';

// Where they always were for their importers.
export { modelActionOf };
export type { LegacyDecoder, ReplayHandlers, ReplayStats } from './runReplay';
export type { RunRecorderOptions } from './runRecorderOptions';

/** One connection's journal: records model inputs as they are folded, and replays them after a reload. */
export class RunRecorder<C = never> {
  private readonly journal: RunJournal;
  private readonly schema: z.ZodMiniType<JournalRecord<C>>;
  private readonly checkpoints: RunCheckpoints | undefined;
  private readonly writers: RunWriters | undefined;
  /** Records waiting for their run's writer to be decided (kit/runWriters.ts). */
  private readonly deciding = new Set<Promise<void>>();
  /** What an ack may cover (journaledSequences.ts). */
  private readonly sequences: JournaledSequences<C>;
  private readonly keys: RunKeyCache;
  /** The runs removed for good by any window of this machine (kept beside the index: storage/removedRunsFile.ts). */
  readonly removals: RemovedRunIds;

  constructor(private readonly options: RunRecorderOptions<C>) {
    this.keys = new RunKeyCache(options.connectionId);
    this.journal = new RunJournal(options.dir, options.writer);
    this.removals = this.journal.removals;
    this.schema = journalRecordSchema(options.cursor);
    this.sequences = new JournaledSequences(this.journal, this.schema);
    if (options.writer) {
      const clock = options.clock ?? systemClock;
      this.writers = new RunWriters({
        journal: this.journal,
        now: () => clock.now(),
        journalEnd: (runId) => this.sequences.end(runId),
        info: (message) => (options.info ?? options.warn)?.(message),
        ...(options.writing ? { writing: options.writing } : {}),
        ...(options.behind ? { behind: options.behind } : {}),
      });
    }
    const { store } = options;
    if (store.transcript && 'state' in store) {
      const clock = options.clock ?? systemClock;
      this.checkpoints = new RunCheckpoints({
        source: { get state() { return store.state!; }, transcript: (key) => store.transcript!(key), dispatch: (action) => store.dispatch(action) },
        journal: this.journal,
        dir: options.dir,
        connectionId: options.connectionId,
        timeouts: clock,
        now: () => clock.now(),
        warn: (message) => options.warn?.(message),
        ...(options.checkpointed ? { written: options.checkpointed } : {}),
      });
    }
  }

  /**
   * Dispatches the inputs to the store and journals them; resolves once all are on disk. A cursor is only journaled
   * (the driver's resume state: a replay hands it back through `record`).
   */
  record(runId: string, inputs: readonly RunInput<C>[]): Promise<void> {
    const before = this.writers ? this.lastSequenceOf(runId) : undefined;
    this.checkpoints?.note(runId, inputs.length);
    for (const input of inputs) {
      this.dispatch(runId, input);
    }
    const writes = this.writers?.decide(runId, before) ?? true;
    if (writes === true) {
      return this.append(runId, inputs);
    }
    if (writes === false) {
      return Promise.resolve(); // another window journals this run: folded here, in memory only
    }
    const written = writes.then((writer) => (writer ? this.append(runId, inputs) : undefined));
    // Not in the journal's queue yet: a flush (a window closing) waits for it too.
    this.deciding.add(written);
    const done = (): void => void this.deciding.delete(written);
    written.then(done, done);
    return written;
  }

  /** Whether this window journals the run (always, without writer leases). */
  writes(runId: string): boolean {
    return this.writers?.writes(runId) ?? true;
  }

  /**
   * Makes this window the run's writer if it can be (see runWriters.ts); resolves with whether it is. `asked`: a
   * person asks for the run (adopting it): the lease is asked for now, and when taking the run over means reading it
   * back from its file first, this resolves once that is done.
   */
  async claim(runId: string, asked = false): Promise<boolean> {
    if (!this.writers) {
      return true;
    }
    const writer = await this.writers.decide(runId, this.lastSequenceOf(runId), asked);
    return writer || (asked && this.writers.whenRejoined(runId));
  }

  /**
   * The last daemon sequence of the run known to be on disk in its journal (what this window wrote, or read of it).
   * An ack needs this window to write the run too (`writes`): another window's journal may grow past what we read.
   */
  journaledThrough(runId: string): number {
    return this.sequences.through(runId);
  }

  /** The run taken over came back from its file and is followed again from its end (`ok`), or could not (runWriters.ts). */
  rejoined(runId: string, ok: boolean): Promise<void> {
    return this.writers?.rejoined(runId, ok) ?? Promise.resolve();
  }

  /**
   * Watches the journal directory: `onIndex` when the run index changed (another window added or changed a run),
   * readers probe again when a lease changed. Returns its stop; a directory that cannot be watched logs why once, and
   * the driver's own polling is all there is.
   */
  watch(onIndex: () => void): () => void {
    return watchJournalDir(this.options.dir, (names) => {
      if ([...names].some((name) => name.endsWith('.lease'))) {
        this.writers?.probeSoon(); // readers of runs ask again whether they may write them
      }
      if (names.has('runs.json')) {
        onIndex();
      }
    }, (message) => this.options.warn?.(message));
  }

  /** Removes the run's entry and every file of it (refused while another window writes it, naming that window). */
  async removeRun(runId: string): Promise<{ readonly kind: 'removed' } | { readonly kind: 'held elsewhere'; readonly holder: LeaseHolder }> {
    this.checkpoints?.forget(runId);
    await this.checkpoints?.settled();
    const outcome = await this.journal.removeRun(runId);
    if (outcome.kind === 'removed') {
      this.keys.forget(runId);
      this.writers?.forget(runId);
      this.sequences.forget(runId);
    }
    return outcome;
  }

  private append(runId: string, inputs: readonly RunInput<C>[]): Promise<void> {
    let last = 0;
    const writes = inputs.map((input) => {
      if ('event' in input && input.sequence !== undefined) {
        last = Math.max(last, input.sequence);
      }
      return this.journal.append(runId, diskRecordOf(input));
    });
    // Several resolve together, or reject if one failed.
    return (writes.length === 1 ? writes[0]! : Promise.all(writes)).then(() => this.sequences.wrote(runId, last));
  }

  private lastSequenceOf(runId: string): number | undefined {
    const state = this.options.store.state;
    return state ? (state.runs.get(this.keys.of(runId))?.lastSequence ?? 0) : undefined;
  }

  /**
   * The run's entry in the run index: metadata and driver extras, merged into the shared index — by the window that
   * writes the run only (another window's entry of its own run is never overwritten by a reader's view).
   */
  async saveRun(run: StoredRun): Promise<void> {
    if (await this.claim(run.runId)) {
      await this.journal.saveRun(run);
    }
  }

  /**
   * Replays the stored runs this window does not show yet (another window's new runs), looking for them where they
   * are (storage/runIndex.ts `recent`): each change of the index costs what the digest holds, not the history.
   */
  async replayNew(handlers: ReplayHandlers<C>): Promise<ReplayStats> {
    return this.replay(handlers, true, { runs: await this.journal.recentRuns(), older: OlderStubs.none, bytes: 0, unmeasured: 0 });
  }

  /** The run's entry in the index as it is on disk now (another window may have written it since this one read it). */
  async storedRun(runId: string): Promise<StoredRun | undefined> {
    return (await this.journal.reloadRuns()).find((run) => run.runId === runId);
  }

  /** The index as a connect reads it (storage/runIndexDigest.ts: a digest of it while it matches). */
  connectRuns(): Promise<ConnectIndex> {
    return this.journal.index.connect();
  }

  /** Which entries a connect may leave out of the model: every index write keeps a digest for the next connect. */
  keepDigest(coldAt: ColdTest): void {
    this.journal.index.coldAt = coldAt;
  }

  /** Every run in the index. */
  loadRuns(): Promise<StoredRun[]> {
    return this.journal.loadRuns();
  }

  /** One run's index entry. */
  loadRun(runId: string): Promise<StoredRun | undefined> {
    return this.journal.loadRun(runId);
  }

  /** Resolves once everything recorded so far (and the index, and checkpoints begun) is on disk, whatever the outcome of each. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.deciding]);
    await this.journal.flush();
    await this.checkpoints?.settled();
  }

  /** Flushes, writes the checkpoints that are due, then closes the files; recording after this rejects. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.deciding]);
    await this.journal.flush();
    await this.checkpoints?.close();
    return this.journal.close();
  }

  /** Replays every stored run, record by record (see the file comment); `index`: the connect's view of the index. */
  async replay(handlers: ReplayHandlers<C>, onlyNew = false, index?: ConnectIndex): Promise<ReplayStats> {
    const release = this.options.store.holdChanges?.();
    try {
      return await replayStoredRuns(this.replaySource(), handlers, onlyNew, index);
    } finally {
      release?.();
    }
  }

  /**
   * Replays one stored run now (one shown from its summary is opened): it starts empty (`runLoading`), then comes
   * back as a connect would have brought it — checkpoint, journal, the driver's handlers. Views hear of it once.
   * `again`: a loaded run, read back from its journal (a window taking it over: runWriters.ts).
   */
  async replayRun(stored: StoredRun, handlers: ReplayHandlers<C>, again = false): Promise<void> {
    const release = this.options.store.holdChanges?.();
    try {
      this.options.store.dispatch({ type: 'runLoading', runKey: this.keys.of(stored.runId), ...(again ? { again } : {}) });
      await replayStoredRun(this.replaySource(), stored, handlers, noStats());
    } finally {
      release?.();
    }
  }

  /** Every run in the index with what its data takes on disk (retention by size; runHistoryTrim.ts). */
  measuredRuns(): Promise<StoredRun[]> {
    return this.journal.measuredRuns();
  }

  /** What a replay reads through and writes into (runReplay.ts). */
  private replaySource(): ReplaySource<C> {
    return {
      store: this.options.store,
      connectionId: this.options.connectionId,
      journal: this.journal,
      schema: this.schema,
      checkpoints: this.checkpoints,
      warn: this.options.warn,
      dispatch: (runId, input) => this.dispatch(runId, input, true),
      // Where a reader (or a writer taking over) goes on reading this run's file from.
      readTo: (runId, bytes) => this.sequences.read(runId, bytes, this.lastSequenceOf(runId) ?? 0),
    };
  }

  /** The daemon sequences a run's journal holds, in order (a folded record counts each of its own). */
  sequencesOf(runId: string): Promise<number[]> {
    return this.sequences.all(runId);
  }

  private dispatch(runId: string, input: RunInput<C>, restored = false): void {
    const action = modelActionOf(this.options.connectionId, runId, input, restored, this.keys.of(runId));
    if (action) {
      this.options.store.dispatch(action);
    }
  }
}
