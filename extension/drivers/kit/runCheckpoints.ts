/**
 * Run checkpoints (issue #12: a window reload replayed three 100k-item journals record by record, 10–13 s). Beside
 * a run's journal, a checkpoint holds the run's model as the store has it (model/runCheckpoint.ts) and the driver's
 * books of it (ReplayHandlers.books), standing for the journal's first `bytes`; a replay loads it and replays only
 * the lines after those bytes. The journal stays the truth: a checkpoint is used only when its digest matches
 * (storage/runCheckpointFile.ts), it is of this format, and the journal still holds the bytes it saw (length, and a
 * digest of their last 4 KiB); anything else is logged and the run is replayed whole, as before.
 *
 * When: a checkpoint is taken at a moment when everything recorded for the run is on disk and nothing more is
 * queued (RunJournal.settledSize), so it covers exactly those records — once the run has been quiet for QUIET_MS,
 * every EVERY_RECORDS records while it streams on (a checkpoint costs O(run)), after a replay that found none, and at
 * close (a window reload closes every connection first). Runs of fewer than MIN_RECORDS records replay in
 * milliseconds and get none. A timer runs only while some run has records not yet checkpointed.
 */
import type { ModelState } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import { isEmptyRun } from '../../model/runQueries';
import type { ModelAction } from '../../model/modelActions';
import { captureRun } from '../../model/runCheckpoint';
import type { RunDigest } from '../../model/modelTypes';
import type { Transcript } from '../../model/transcript';
import { writeCheckpointFile } from '../../storage/runCheckpointFile';
import type { RunJournal } from '../../storage/runJournal';
import { checkpointBodyLines } from './checkpointBody';
import { readCheckpointHeadOnly, readWholeCheckpoint } from './checkpointReads';
import type { CheckpointHeadRead, WholeCheckpoint } from './checkpointReads';
import { CHECKPOINT_VERSION } from './checkpointSchema';
import type { CheckpointHeader } from './checkpointSchema';
import type { Timeouts } from './clock';

/** Runs with fewer records than this get no checkpoint (they replay in milliseconds). */
export const MIN_RECORDS = 2_000;
/** A checkpoint is due once the run has had no record for this long… */
export const QUIET_MS = 2_000;
/** …or, while it streams on, once this many records came since its last one. */
export const EVERY_RECORDS = 50_000;

/** A driver's own books of a run (what its replay `record` handler rebuilds), saved with a checkpoint. */
export interface CheckpointBooks {
  /** The run's books now, JSON-safe. */
  save(runId: string): unknown;
  /** Puts them back; false when `saved` does not fit (the run is then replayed whole). */
  restore(runId: string, saved: unknown): boolean;
}

/** Where checkpoints are taken from: the store. */
export interface CheckpointSource {
  readonly state: ModelState;
  transcript(runKey: string): Transcript | undefined;
  dispatch(action: ModelAction): void;
}

export interface RunCheckpointsOptions {
  readonly source: CheckpointSource;
  readonly journal: RunJournal;
  readonly dir: string;
  readonly connectionId: string;
  readonly timeouts: Timeouts;
  readonly now: () => number;
  readonly warn: (message: string) => void;
  /** A checkpoint of the run was written. */
  readonly written?: (runId: string) => void;
}

interface Counts {
  /** Records in the journal (replayed or recorded in this window). */
  records: number;
  /** Of those, recorded since the last checkpoint. */
  since: number;
  lastAt: number;
}

export class RunCheckpoints {
  /** Off until a replay says how the driver's books come back (undefined books: it keeps none). */
  private enabled = false;
  private books: CheckpointBooks | undefined;
  private readonly counts = new Map<string, Counts>();
  private timer: unknown;
  private writes: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly o: RunCheckpointsOptions) {}

  /** From the replay: checkpoints are used and written (a driver that keeps books per record must save them). */
  enable(books: CheckpointBooks | undefined): void {
    this.enabled = true;
    this.books = books;
  }

  /** `count` records of the run were recorded now (or, `replayed`, read back by a replay). */
  note(runId: string, count: number, replayed = false): void {
    let counts = this.counts.get(runId);
    if (!counts) {
      counts = { records: 0, since: 0, lastAt: 0 };
      this.counts.set(runId, counts);
    }
    counts.records += count;
    counts.since += count;
    if (!replayed) {
      counts.lastAt = this.o.now();
    }
    if (this.enabled && count > 0 && this.timer === undefined && counts.records >= MIN_RECORDS) {
      this.arm(QUIET_MS);
    }
  }

  /**
   * Puts the run back from its checkpoint, if it has a usable one (see the file comment); returns the journal byte
   * to replay on from, or 0 (nothing restored: replay it whole).
   */
  async restore(runId: string): Promise<number> {
    // Not over a run already shown; one being opened from its summary is empty (runLoading) and may be restored.
    const shown = this.o.source.state.runs.get(runKeyOf(this.o.connectionId, runId));
    if (!this.enabled || (shown !== undefined && !isEmptyRun(shown))) {
      return 0;
    }
    let loaded: WholeCheckpoint | undefined;
    try {
      loaded = await readWholeCheckpoint(this.o.dir, this.o.journal, runId);
    } catch (error) {
      this.notUsed(runId, error instanceof Error ? error.message : String(error));
      return 0;
    }
    if (!loaded) {
      return 0;
    }
    const { header, model, transcript } = loaded;
    if (this.books && !this.books.restore(runId, header.books)) {
      this.notUsed(runId, "the driver's books in it do not fit");
      return 0;
    }
    this.o.source.dispatch({ type: 'runRestored', connectionId: this.o.connectionId, runId, checkpoint: model, transcript });
    this.counts.set(runId, { records: header.records, since: 0, lastAt: 0 });
    return header.bytes;
  }

  /**
   * A run that comes back without its transcript (quietRuns.ts): its checkpoint's header and head, the items not
   * read; undefined when it has no usable one (logged when it is there but unusable), or the run is shown already.
   */
  async peek(runId: string): Promise<CheckpointHeadRead | undefined> {
    if (!this.enabled || this.o.source.state.runs.has(runKeyOf(this.o.connectionId, runId))) {
      return undefined;
    }
    try {
      return await readCheckpointHeadOnly(this.o.dir, this.o.journal, runId);
    } catch (error) {
      this.notUsed(runId, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  /**
   * Puts the run back from a peeked head without its transcript (`digest`: what the board shows of it): its books,
   * its fields and counts, `unloaded` — opening it, or news for it, restores it whole. False when the driver's
   * books in it do not fit (nothing changed: replay it whole).
   */
  restoreUnloaded(runId: string, peeked: CheckpointHeadRead, digest: RunDigest): boolean {
    if (this.books && !this.books.restore(runId, peeked.header.books)) {
      return false;
    }
    this.o.source.dispatch({ type: 'runRestored', connectionId: this.o.connectionId, runId, checkpoint: { ...peeked.head, items: [] }, unloaded: digest });
    this.counts.set(runId, { records: peeked.header.records, since: 0, lastAt: 0 });
    return true;
  }

  /** Says why the run's checkpoint is not used (whole restore and head peek alike): its journal is replayed instead. */
  private notUsed(runId: string, why: string): void {
    this.o.warn(`Run ${runId}: its checkpoint was not used (${why}); replaying its whole journal.`);
  }

  /** The run was removed: nothing more is due for it. */
  forget(runId: string): void {
    this.counts.delete(runId);
  }

  /** Writes every checkpoint that is due now (`all`: every run with records since its last, as at close). */
  writeDue(all = false): Promise<void> {
    this.writes = this.writes.then(() => this.writeRuns(all));
    return this.writes;
  }

  /** Resolves once the checkpoint writes begun so far are done. */
  settled(): Promise<void> {
    return this.writes;
  }

  /** Writes what is due (all of it), then stops: no timer after this. */
  async close(): Promise<void> {
    this.disarm();
    // Callbacks of the last writes (a driver's books are updated once a record is on disk) run first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.writeDue(true);
    this.closed = true;
    this.disarm();
  }

  private async writeRuns(all: boolean): Promise<void> {
    if (!this.enabled || this.closed) {
      return;
    }
    const now = this.o.now();
    let wait = Number.POSITIVE_INFINITY;
    for (const [runId, counts] of this.counts) {
      if (counts.since === 0 || counts.records < MIN_RECORDS) {
        continue;
      }
      const quietFor = now - counts.lastAt;
      if (all || quietFor >= QUIET_MS || counts.since >= EVERY_RECORDS) {
        if ((await this.write(runId, counts)) === 'busy') {
          wait = Math.min(wait, QUIET_MS); // its records are being written: soon again
        }
      } else {
        wait = Math.min(wait, QUIET_MS - quietFor);
      }
    }
    if (!all && Number.isFinite(wait)) {
      this.arm(wait);
    }
  }

  /**
   * Checkpoints one run now if it can be: `busy` while its records are being written (retried soon), `refused` when
   * its model cannot be taken now (captureRun: e.g. an approval mid-decision — retried with the run's next record,
   * not by a timer, since a failed send may wait for a person for hours).
   */
  private async write(runId: string, counts: Counts): Promise<'done' | 'busy' | 'refused'> {
    // Synchronous up to the capture: the store, the books and the journal's size are taken at the same moment. The
    // body is serialised afterwards, a line at a time as the file is written (the items are not changed in place).
    if (!this.o.journal.writes(runId)) {
      return 'refused'; // another window writes this run's journal, and its checkpoint
    }
    const bytes = this.o.journal.settledSize(runId);
    if (bytes === 'busy') {
      return 'busy';
    }
    if (bytes === undefined || bytes === 0) {
      return 'refused'; // nothing on disk it could stand for (a write failed, and said so)
    }
    const key = runKeyOf(this.o.connectionId, runId);
    const model = captureRun(this.o.source.state, this.o.source.transcript(key), key);
    if (typeof model === 'string') {
      return 'refused';
    }
    const books = this.books?.save(runId);
    const records = counts.records;
    const since = counts.since;
    try {
      const tail = await this.o.journal.tailDigest(runId, bytes);
      if (tail === undefined) {
        throw new Error('its journal could not be read back');
      }
      // The file as it is on disk, not as this window counted it: a checkpoint may stand only for complete lines.
      if (!(await this.o.journal.endsLineAt(runId, bytes, false))) {
        throw new Error(`its journal has no line end at byte ${bytes}`);
      }
      const header: CheckpointHeader = { v: CHECKPOINT_VERSION, bytes, tail, records, ...(books !== undefined ? { books } : {}) };
      await writeCheckpointFile(this.o.dir, runId, header, checkpointBodyLines(model));
      counts.since -= since;
      this.o.written?.(runId);
    } catch (error) {
      // Not fatal: the journal is whole; the next reload replays more of it.
      this.o.warn(`Run ${runId}: could not write its checkpoint: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 'done';
  }

  private arm(ms: number): void {
    if (this.closed) {
      return;
    }
    this.disarm();
    this.timer = this.o.timeouts.setTimeout(() => {
      this.timer = undefined;
      void this.writeDue();
    }, ms);
  }

  private disarm(): void {
    if (this.timer !== undefined) {
      this.o.timeouts.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
