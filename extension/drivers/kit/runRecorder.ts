/**
 * Folds a driver's model inputs into the store and journals them in one call, and replays a connection's
 * journal after a window reload — the same way for every driver (record format: journalRecords.ts).
 *
 * Writing: `record` dispatches each record to the store, then appends it; the promise resolves once the lines
 * are on disk (fdatasync), which is what an acknowledgement to a daemon may wait for.
 * Replay: for every run in the index, `open` says what the run starts from, then each line is read, validated and
 * dispatched (`runEvent` with `restored: true` and its sequence, `runUpserted`, `runGap`, `runPanels`) as it is
 * read — nothing is collected, so a journal is never held in memory. A line in one of 0.1.0's formats goes through
 * the driver's legacy decoder (which yields v2 records: old journals are read, never rewritten). A line that fits
 * neither is skipped and counted; a torn last line (crash mid-append) is ignored.
 */
import type * as z from 'zod/mini';
import type { ModelAction, RunEvent, RunFields, RunSummaryCounts } from '../../model/modelActions';
import { runKeyOf } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { RunJournal } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { LeaseHolder, LeaseIdentity } from '../../storage/runWriterLease';
import { watchJournalDir } from '../../storage/journalDirWatch';
import type { JournalRecord, RunInput } from './journalRecords';
import { diskRecordOf, isCurrentRecord, journalRecordSchema, runInputOf } from './journalRecords';
import type { Clock } from './clock';
import { systemClock } from './clock';
import { RunCheckpoints } from './runCheckpoints';
import type { CheckpointBooks } from './runCheckpoints';
import { RunWriters } from './runWriters';

/** What a recorder writes into and how it reads its driver's cursors. */
export interface RunRecorderOptions<C> {
  /**
   * `holdChanges`, where the store has it, makes a replay notify views once (RunStore.holdChanges); with `state` and
   * `transcript` too, runs are checkpointed (runCheckpoints.ts).
   */
  readonly store: Pick<RunStore, 'dispatch'> & Partial<Pick<RunStore, 'holdChanges' | 'state' | 'transcript'>>;
  readonly connectionId: string;
  /** The connection's journal directory (private to one connection profile). */
  readonly dir: string;
  /** The schema of the driver's cursor records; `z.never()` for a driver that keeps none. */
  readonly cursor: z.ZodMiniType<C>;
  /** Told how many lines of a run were skipped on replay (unreadable, or of no known shape), and of checkpoints not used. */
  readonly warn?: (message: string) => void;
  /** When checkpoints are due (tests pass a ManualClock). */
  readonly clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /**
   * This editor window (and its extension host), when several windows may share the directory: each run is then
   * journaled by one window only, the holder of its writer lease (runWriters.ts). Absent: the lone writer.
   */
  readonly writer?: LeaseIdentity;
  /** Told of what concerns the user less than `warn` (which window writes a run). */
  readonly info?: (message: string) => void;
  /** This window now writes the run's journal (it started the run, or took it over from `previous`). */
  readonly writing?: (runId: string, previous: LeaseHolder | undefined) => void;
}

/**
 * Turns one line in a 0.1.0 format into inputs (shaped like `RunInput`, contents unchecked: each is validated like
 * any line read back); undefined: not one of its lines.
 */
export type LegacyDecoder = (line: unknown) => readonly object[] | undefined;

/** A driver's part of a replay: where each run starts, how its old lines read, what it rebuilds. */
export interface ReplayHandlers<C> {
  /** The fields a stored run starts from; undefined leaves the run out (not this driver's, or already shown). */
  open(stored: StoredRun): RunFields | undefined;
  /** A decoder for the run's 0.1.0 lines (one per run: a decoder may keep state across them). */
  legacy?(stored: StoredRun): LegacyDecoder;
  /** Each input once it was dispatched (cursors are only handed here): the driver rebuilds its own books. */
  record?(runId: string, input: RunInput<C>): void;
  /** After the run's last record. */
  close?(stored: StoredRun): void | Promise<void>;
  /**
   * A driver with a `record` handler keeps books per run that a checkpoint must carry (runCheckpoints.ts); without
   * `books` its runs are always replayed whole. A driver without `record` needs none.
   */
  books?: CheckpointBooks;
  /**
   * What a stored run shows without its transcript, when it may come back that way (runSummaries.ts): the replay
   * then dispatches `runSummarized` and reads nothing else of it, and none of the handlers above run for it until
   * `replayRun` loads it. Undefined: replayed now.
   */
  summarized?(stored: StoredRun): { readonly fields: RunFields; readonly counts: RunSummaryCounts } | 'archived' | undefined;
}

/** What a replay found (a driver may log it; skipped lines are already reported through `warn`). */
export interface ReplayStats {
  readonly runs: number;
  readonly records: number;
  /** Lines skipped: not JSON (before the last line), or no record of a known shape. */
  readonly invalid: number;
  /** Runs whose last line was torn (ignored). */
  readonly torn: number;
  /** Runs put back from a checkpoint (`records` then counts only the lines after it). */
  readonly checkpoints: number;
  /** Runs shown from their summary, their journal not read. */
  readonly summarized: number;
  /** Finished runs past the retention setting: left on disk, out of the model (Search Run History finds them). */
  readonly archived: number;
}

/** Runs shown from their summaries between two turns of the event loop at connect. */
const SUMMARIES_PER_SLICE = 100;

type MutableStats = { -readonly [K in keyof ReplayStats]: ReplayStats[K] };

/** One connection's journal: records model inputs as they are folded, and replays them after a reload. */
export class RunRecorder<C = never> {
  private readonly journal: RunJournal;
  private readonly schema: z.ZodMiniType<JournalRecord<C>>;
  private readonly checkpoints: RunCheckpoints | undefined;
  private readonly writers: RunWriters | undefined;
  /** How far this window has read each run's file, and the last daemon sequence in what it read. */
  private readonly readTo = new Map<string, { bytes: number; last: number }>();
  /** Records waiting for their run's writer to be decided (kit/runWriters.ts). */
  private readonly deciding = new Set<Promise<void>>();
  /** The last daemon sequence of each run known to be in its file (what an ack may cover). */
  private readonly journaled = new Map<string, number>();

  constructor(private readonly options: RunRecorderOptions<C>) {
    this.journal = new RunJournal(options.dir, options.writer);
    if (options.writer) {
      const clock = options.clock ?? systemClock;
      this.writers = new RunWriters({
        journal: this.journal,
        now: () => clock.now(),
        journalEnd: (runId) => this.journalEnd(runId),
        info: (message) => (options.info ?? options.warn)?.(message),
        ...(options.writing ? { writing: options.writing } : {}),
      });
    }
    this.schema = journalRecordSchema(options.cursor);
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

  /** Makes this window the run's writer if it can be (see runWriters.ts); resolves with whether it is. */
  async claim(runId: string): Promise<boolean> {
    return (await this.writers?.decide(runId, this.lastSequenceOf(runId))) ?? true;
  }

  /**
   * The last daemon sequence of the run known to be on disk in its journal (what this window wrote, or read of it).
   * An ack needs this window to write the run too (`writes`): another window's journal may grow past what we read.
   */
  journaledThrough(runId: string): number {
    return this.journaled.get(runId) ?? 0;
  }

  /** Readers of runs ask again whether they may write them (a lease changed). */
  probeWriters(): void {
    this.writers?.probeSoon();
  }

  /**
   * Watches the journal directory: `onIndex` when the run index changed (another window added or changed a run),
   * readers probe again when a lease changed. Returns its stop; a directory that cannot be watched logs why once, and
   * the driver's own polling is all there is.
   */
  watch(onIndex: () => void): () => void {
    return watchJournalDir(this.options.dir, (names) => {
      if ([...names].some((name) => name.endsWith('.lease'))) {
        this.probeWriters();
      }
      if (names.has('runs.json')) {
        onIndex();
      }
    }, (message) => this.options.warn?.(message));
  }

  /** Removes the run's entry, journal, checkpoint and lease (refused while another window writes it). */
  async removeRun(runId: string): Promise<'removed' | 'held elsewhere'> {
    this.checkpoints?.forget(runId);
    await this.checkpoints?.settled();
    const outcome = await this.journal.removeRun(runId);
    if (outcome === 'removed') {
      this.writers?.forget(runId);
      this.readTo.delete(runId);
      this.journaled.delete(runId);
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
    return (writes.length === 1 ? writes[0]! : Promise.all(writes)).then(() => {
      if (last > 0) {
        this.journaled.set(runId, Math.max(this.journaled.get(runId) ?? 0, last));
      }
    });
  }

  private lastSequenceOf(runId: string): number | undefined {
    const state = this.options.store.state;
    return state ? (state.runs.get(runKeyOf(this.options.connectionId, runId))?.lastSequence ?? 0) : undefined;
  }

  /** Reads the run's file on from where this window last read it: the last daemon sequence it holds. */
  private async journalEnd(runId: string): Promise<number> {
    const known = this.readTo.get(runId) ?? { bytes: 0, last: 0 };
    let last = known.last;
    const bytes = await this.journal.readLines(runId, (line) => {
      const parsed = line.ok ? this.schema.safeParse(line.value) : undefined;
      if (parsed?.success && 'e' in parsed.data && parsed.data.q !== undefined) {
        last = Math.max(last, parsed.data.q);
      }
    }, known.bytes);
    this.readTo.set(runId, { bytes, last });
    this.journaled.set(runId, Math.max(this.journaled.get(runId) ?? 0, last));
    return last;
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

  /** Reads the index again and replays the stored runs this window does not show yet (another window's new runs). */
  async replayNew(handlers: ReplayHandlers<C>): Promise<ReplayStats> {
    await this.journal.reloadRuns();
    return this.replay(handlers, true);
  }

  /** The run's entry in the index as it is on disk now (another window may have written it since this one read it). */
  async storedRun(runId: string): Promise<StoredRun | undefined> {
    return (await this.journal.reloadRuns()).find((run) => run.runId === runId);
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

  /** Replays every stored run, record by record (see the file comment). */
  async replay(handlers: ReplayHandlers<C>, onlyNew = false): Promise<ReplayStats> {
    const release = this.options.store.holdChanges?.();
    try {
      return await this.replayRuns(handlers, onlyNew);
    } finally {
      release?.();
    }
  }

  /**
   * Replays one stored run now (one shown from its summary is opened): it starts empty (`runLoading`), then comes
   * back as a connect would have brought it — checkpoint, journal, the driver's handlers. Views hear of it once.
   */
  async replayRun(stored: StoredRun, handlers: ReplayHandlers<C>): Promise<void> {
    const release = this.options.store.holdChanges?.();
    try {
      this.options.store.dispatch({ type: 'runLoading', runKey: runKeyOf(this.options.connectionId, stored.runId) });
      await this.replayStored(stored, handlers, { runs: 0, records: 0, invalid: 0, torn: 0, checkpoints: 0, summarized: 0, archived: 0 });
    } finally {
      release?.();
    }
  }

  /** The bytes of a run's journal (retention by size). */
  journalBytes(runId: string): Promise<number> {
    return this.journal.journalBytes(runId);
  }

  private async replayRuns(handlers: ReplayHandlers<C>, onlyNew: boolean): Promise<ReplayStats> {
    const stats: MutableStats = { runs: 0, records: 0, invalid: 0, torn: 0, checkpoints: 0, summarized: 0, archived: 0 };
    if (!handlers.record || handlers.books) {
      this.checkpoints?.enable(handlers.books);
    }
    for (const stored of await this.journal.loadRuns()) {
      if (onlyNew && this.options.store.state?.runs.has(runKeyOf(this.options.connectionId, stored.runId))) {
        continue; // shown already (live, or replayed before)
      }
      const summarized = handlers.summarized?.(stored);
      if (summarized === 'archived') {
        stats.archived += 1;
        continue;
      }
      if (summarized !== undefined) {
        // Its journal is not read now: opening the run replays it (replayRun).
        this.options.store.dispatch({ type: 'runSummarized', connectionId: this.options.connectionId, runId: stored.runId, fields: summarized.fields, summary: summarized.counts });
        stats.summarized += 1;
        if (stats.summarized % SUMMARIES_PER_SLICE === 0) {
          await new Promise<void>((resolve) => setImmediate(resolve)); // 1,000 summaries are not one stall
        }
        continue;
      }
      await this.replayStored(stored, handlers, stats);
    }
    return stats;
  }

  private async replayStored(stored: StoredRun, handlers: ReplayHandlers<C>, stats: MutableStats): Promise<void> {
    const fields = handlers.open(stored);
    if (fields === undefined) {
      return;
    }
    stats.runs += 1;
    // From its checkpoint and the lines after it, or from the start.
    const from = (await this.checkpoints?.restore(stored.runId)) ?? 0;
    if (from > 0) {
      stats.checkpoints += 1;
    } else {
      this.options.store.dispatch({ type: 'runUpserted', connectionId: this.options.connectionId, runId: stored.runId, fields });
    }
    const legacy = handlers.legacy?.(stored);
    let invalid = 0;
    let records = 0;
    const end = await this.journal.readLines(stored.runId, (line) => {
      if (!line.ok) {
        stats.torn += line.torn ? 1 : 0;
        invalid += line.torn ? 0 : 1;
        return;
      }
      const candidates = isCurrentRecord(line.value) ? [line.value] : legacy?.(line.value)?.map((input) => diskRecordOf(input as RunInput<C>));
      if (candidates === undefined) {
        invalid += 1;
        return;
      }
      for (const candidate of candidates) {
        const parsed = this.schema.safeParse(candidate);
        if (!parsed.success) {
          invalid += 1;
          continue;
        }
        records += 1;
        const input = runInputOf(parsed.data);
        this.dispatch(stored.runId, input, true);
        handlers.record?.(stored.runId, input);
      }
    }, from);
    stats.records += records;
    // Where a reader (or a writer taking over) goes on reading this run's file from.
    const last = this.lastSequenceOf(stored.runId) ?? 0;
    this.readTo.set(stored.runId, { bytes: end, last });
    this.journaled.set(stored.runId, Math.max(this.journaled.get(stored.runId) ?? 0, last));
    this.checkpoints?.note(stored.runId, records, true);
    if (invalid > 0) {
      stats.invalid += invalid;
      this.options.warn?.(`Skipped ${invalid} unreadable journal line${invalid === 1 ? '' : 's'} of run ${stored.runId}.`);
    }
    await handlers.close?.(stored);
  }

  /** The daemon sequences a run's journal holds, in order (a folded record counts each of its own). */
  async sequencesOf(runId: string): Promise<number[]> {
    const out: number[] = [];
    await this.journal.readLines(runId, (line) => {
      const parsed = line.ok ? this.schema.safeParse(line.value) : undefined;
      if (parsed?.success && 'e' in parsed.data && parsed.data.q !== undefined) {
        for (let q = parsed.data.s ?? parsed.data.q; q <= parsed.data.q; q++) {
          out.push(q);
        }
      }
    });
    return out;
  }

  private dispatch(runId: string, input: RunInput<C>, restored = false): void {
    const action = modelActionOf(this.options.connectionId, runId, input, restored);
    if (action) {
      this.options.store.dispatch(action);
    }
  }
}

/** The model action an input stands for (undefined for a cursor: the driver's, not the model's). */
export function modelActionOf<C>(connectionId: string, runId: string, input: RunInput<C>, restored = false): ModelAction | undefined {
  const runKey = runKeyOf(connectionId, runId);
  if ('event' in input) {
    // Spelled out, not spread: this runs for every streamed chunk.
    const action: { type: 'runEvent'; runKey: string; event: RunEvent; sequence?: number; firstSequence?: number; restored?: boolean } = { type: 'runEvent', runKey, event: input.event };
    if (input.sequence !== undefined) {
      action.sequence = input.sequence;
      if (input.firstSequence !== undefined) {
        action.firstSequence = input.firstSequence;
      }
    }
    if (restored) {
      action.restored = true;
    }
    return action;
  }
  if ('fields' in input) {
    return { type: 'runUpserted', connectionId, runId, fields: input.fields };
  }
  if ('gap' in input) {
    return { type: 'runGap', runKey, ...input.gap };
  }
  if ('panels' in input) {
    return input.replace ? { type: 'runPanels', runKey, panels: input.panels } : { type: 'runPanels', runKey, panels: input.panels, merge: true };
  }
  return undefined;
}
