/**
 * The A3S driver's durable state in the extension's storage, one directory per connection: what the kit's door
 * journals (run index with the driver's `extra` — session, cursor, recovery links — and per-run inputs,
 * a3sJournal.ts), the change-set cache, and the generated session id. The cursor in the index is saved coalesced;
 * the journal's inputs are the truth for what is held, so events lost by a crash or dispose are simply paged again
 * after a reload.
 */
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { A3sEventRecord } from '../../protocol/a3s';
import type { RunState } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { safeFileName } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { DriverRuns } from '../kit/driverRuns';
import { errorText } from '../kit/errors';
import type { CheckpointBooks } from '../kit/runCheckpoints';
import type { JournalTerms, RestorePolicy } from '../kit/runJournaling';
import { storedStateOf } from '../kit/runJournaling';
import { storedSummaryOf } from '../kit/runSummaries';
import type { A3sCursor } from './a3sJournal';
import { A3S_GAP_REASON, a3sCursorSchema, a3sEventRecords, legacyA3sDecoder, restoreA3sMapping } from './a3sJournal';
import type { A3sRunBook } from './a3sRunBook';
import { a3sRunBookExtra } from './a3sRunBook';
import type { A3sRunExtra, CachedChangeSet } from './a3sRunRecords';
import { a3sExtraOf, loadChangeSetCache, saveChangeSetCache } from './a3sRunRecords';

export interface A3sReplayHooks {
  /** The book for a stored run (registered by the driver); undefined leaves the run out (already known). */
  open(stored: StoredRun, extra: A3sRunExtra): A3sRunBook | undefined;
  /** After the run's records, with its cursor and flags restored: publish what it shows beside its transcript. */
  restored(book: A3sRunBook, state: RunState, changeSet: CachedChangeSet | undefined): void;
}

/** What a run checkpoint keeps of a book: what the replay's `record` handler below rebuilds from the records. */
const savedBookSchema = z.object({
  held: z.nullable(z.int()),
  toolInput: z.array(z.tuple([z.string(), z.string()])),
  truncated: z.array(z.string()),
  sawText: z.boolean(),
});

/** A stored run while its journal is replayed. */
interface Replaying {
  readonly book: A3sRunBook;
  readonly extra: A3sRunExtra;
  held: number | null;
}

export class A3sRunStorage {
  readonly dir: string;
  private readonly dirty = new Map<string, () => void>();
  private readonly replaying = new Map<string, Replaying>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    ctx: Pick<DriverContext, 'storageDir' | 'connectionId'>,
    private readonly runs: DriverRuns<A3sCursor>,
    private readonly log: DriverContext['log'],
    /** The live book of a run (a checkpoint taken later in this window saves it). */
    private readonly bookOf: (runId: string) => A3sRunBook | undefined,
  ) {
    this.dir = join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId));
  }

  /** The driver's journaling terms: its cursor records, and the books a run checkpoint carries. */
  journalTerms(): JournalTerms<A3sCursor> {
    return { cursor: a3sCursorSchema, books: this.checkpointBooks() };
  }

  async saveRun(book: A3sRunBook): Promise<void> {
    this.dirty.delete(book.runId);
    if (this.closed) {
      return;
    }
    await this.runs.saveRun(book.runId, { a3s: a3sRunBookExtra(book) });
  }

  /** Saves the run soon (the cursor moves with every page; one index write per 300 ms is plenty). */
  scheduleSave(runId: string, save: () => void): void {
    this.dirty.set(runId, save);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, 300);
  }

  flush(): void {
    for (const save of [...this.dirty.values()]) {
      save();
    }
    this.dirty.clear();
  }

  /**
   * Folds one harness record into the model and the journal; resolves once it is on disk, rejects when it could
   * not be written. Undefined when the run already holds it.
   */
  fold(book: A3sRunBook, record: A3sEventRecord): Promise<void> | undefined {
    const held = this.runs.get(book.runId)?.lastSequence ?? 0;
    if (record.sequence + 1 <= held) {
      return undefined;
    }
    return this.runs.record(book.runId, a3sEventRecords(book.mapping, record));
  }

  /** Wire sequences [from, toExclusive) were evicted before this editor read them = model sequences (from, to]. */
  gap(runId: string, from: number, toExclusive: number): Promise<void> {
    return this.runs.gap(runId, from, toExclusive, A3S_GAP_REASON);
  }

  saveChangeSet(runId: string, changeSet: CachedChangeSet): Promise<void> {
    return saveChangeSetCache(this.dir, runId, changeSet).catch((error: unknown) => this.log.warn(`Could not store the change set of ${runId}: ${errorText(error)}`));
  }

  /**
   * How a stored A3S run comes back: its transcript, its book (cursor, mapping state, flags) and its change set.
   * Lazily: a finished run whose change set was ready (its summary counted the lines: the cache holds it) comes back
   * from its summary with its book, its transcript and change set when it is opened. A stranded run (offered for
   * recovery) and a finished one without a ready change set (refused, or still to fetch) are replayed at connect.
   */
  restorePolicy(hooks: A3sReplayHooks): RestorePolicy<A3sCursor> {
    return {
      open: (stored) => {
        const extra = a3sExtraOf(stored.extra);
        const book = extra ? hooks.open(stored, extra) : undefined;
        if (!book) {
          return false;
        }
        // What the book says until its records are replayed (`restored` settles it then).
        book.terminal = isTerminalRunState(storedStateOf(stored)) && !book.stranded;
        if (book.terminal && storedSummaryOf(stored)?.changes !== undefined) {
          book.changeSet = 'done'; // in the cache: nothing to fetch
        }
        return true;
      },
      replaying: (stored) => {
        const book = this.bookOf(stored.runId);
        const extra = a3sExtraOf(stored.extra);
        if (book && extra) {
          this.replaying.set(stored.runId, { book, extra, held: null });
        }
      },
      lazy: true,
      keepsLoaded: (stored, peek) => a3sExtraOf(stored.extra)?.stranded === true || !peek.hasChanges,
      // Replayed events must not move the state: the stored one is the last we knew.
      state: 'as indexed',
      legacy: () => legacyA3sDecoder(),
      record: (runId, input) => {
        const run = this.replaying.get(runId)!;
        restoreA3sMapping(run.book.mapping, input);
        if ('event' in input && input.sequence !== undefined) {
          run.held = Math.max(run.held ?? -1, input.sequence - 1);
        }
      },
      restored: async (stored) => {
        const { book, extra, held } = this.replaying.get(stored.runId)!;
        this.replaying.delete(stored.runId);
        // The journal is the truth for what is held; the index's cursor only helps when it has no records.
        book.cursor = held ?? extra.cursor;
        const state = storedStateOf(stored);
        book.terminal = isTerminalRunState(state) && !book.stranded;
        hooks.restored(book, state, await loadChangeSetCache(this.dir, stored.runId));
      },
    };
  }

  /** The wire sequences (+1) a run's journal holds, in order (tests: a reload restores what is on disk). */
  sequencesOf(runId: string): Promise<number[]> {
    return this.runs.sequencesOf(runId);
  }

  /** Saves what is due, then stops saving (the door closes the journal with the driver). */
  close(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.flush();
    this.closed = true;
  }

  // The cursor moves once a record is on disk, and a checkpoint is taken when nothing is left to write: then it is
  // the highest sequence the journal holds, what `held` is after a replay.
  private checkpointBooks(): CheckpointBooks {
    return {
      save: (runId) => {
        const book = this.bookOf(runId);
        return book && { held: book.cursor, toolInput: [...book.mapping.toolInput], truncated: [...book.mapping.truncatedTools], sawText: book.mapping.sawText };
      },
      restore: (runId, saved) => {
        const parsed = savedBookSchema.safeParse(saved);
        const run = this.replaying.get(runId);
        if (!parsed.success || !run) {
          return false;
        }
        run.held = parsed.data.held;
        const { mapping } = run.book;
        parsed.data.toolInput.forEach(([callId, input]) => mapping.toolInput.set(callId, input));
        parsed.data.truncated.forEach((callId) => mapping.truncatedTools.add(callId));
        mapping.sawText ||= parsed.data.sawText;
        return true;
      },
    };
  }
}
