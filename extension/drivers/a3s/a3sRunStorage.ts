/**
 * The A3S driver's durable state in the extension's storage, one directory per connection: the kit's journal (run
 * index with the driver's `extra` — session, cursor, recovery links — and per-run records, a3sJournal.ts), the
 * change-set cache, and the generated session id. The cursor in the index is saved coalesced; the journal's records
 * are the truth for what is held, so events lost by a crash or dispose are simply paged again after a reload.
 */
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { RunEvent } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { A3sEventRecord } from '../../protocol/a3s';
import type { RunState } from '../../protocol/transcriptTypes';
import { isTerminalRunState, runStateSchema } from '../../protocol/transcriptTypes';
import { safeFileName } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import { errorText } from '../kit/errors';
import { RunRecorder } from '../kit/runRecorder';
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
  /** The run's live book, for a run checkpoint (kit/runCheckpoints.ts) taken later in this window. */
  book(runId: string): A3sRunBook | undefined;
}

/** What a run checkpoint keeps of a book: what the replay's `record` handler below rebuilds from the records. */
const savedBookSchema = z.object({
  held: z.nullable(z.int()),
  toolInput: z.array(z.tuple([z.string(), z.string()])),
  truncated: z.array(z.string()),
  sawText: z.boolean(),
});

export class A3sRunStorage {
  readonly dir: string;
  private readonly journal: RunRecorder<A3sCursor>;
  private readonly dirty = new Map<string, () => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly ctx: Pick<DriverContext, 'store' | 'connectionId' | 'storageDir' | 'log'>) {
    this.dir = join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId));
    this.journal = new RunRecorder({ store: ctx.store, connectionId: ctx.connectionId, dir: this.dir, cursor: a3sCursorSchema, warn: (m) => ctx.log.warn(m) });
  }

  async saveRun(book: A3sRunBook, run: RunInfo | undefined): Promise<void> {
    this.dirty.delete(book.runId);
    if (!run || this.closed) {
      return;
    }
    await this.journal
      .saveRun({
        runId: book.runId,
        title: run.title,
        state: run.state,
        createdAt: run.createdAt,
        ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
        extra: { a3s: a3sRunBookExtra(book) },
      })
      .catch((error: unknown) => this.ctx.log.error(`Could not store the run list: ${errorText(error)}`));
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
    const held = this.ctx.store.state.runs.get(runKeyOf(this.ctx.connectionId, book.runId))?.lastSequence ?? 0;
    if (record.sequence + 1 <= held) {
      return undefined;
    }
    return this.journal.record(book.runId, a3sEventRecords(book.mapping, record));
  }

  /** Something the editor adds to the run (the prompt, a notice). */
  local(runId: string, event: RunEvent): Promise<void> {
    return this.quietly(runId, this.journal.event(runId, event));
  }

  /** Wire sequences [from, toExclusive) were evicted before this editor read them = model sequences (from, to]. */
  gap(runId: string, from: number, toExclusive: number): Promise<void> {
    return this.quietly(runId, this.journal.gap(runId, from, toExclusive, A3S_GAP_REASON));
  }

  saveChangeSet(runId: string, changeSet: CachedChangeSet): Promise<void> {
    return saveChangeSetCache(this.dir, runId, changeSet).catch((error: unknown) => this.ctx.log.warn(`Could not store the change set of ${runId}: ${errorText(error)}`));
  }

  /** Rebuilds every stored A3S run: its transcript, its book (cursor, mapping state, flags) and its change set. */
  async replay(hooks: A3sReplayHooks): Promise<void> {
    const runs = new Map<string, { book: A3sRunBook; extra: A3sRunExtra; state: RunState; held: number | null }>();
    await this.journal.replay({
      open: (stored) => {
        const extra = a3sExtraOf(stored.extra);
        const book = extra ? hooks.open(stored, extra) : undefined;
        if (!extra || !book) {
          return undefined;
        }
        const parsed = runStateSchema.safeParse(stored.state);
        const state = parsed.success ? parsed.data : 'lost';
        runs.set(stored.runId, { book, extra, state, held: null });
        return { title: stored.title, state, createdAt: stored.createdAt, ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}) };
      },
      legacy: () => legacyA3sDecoder(),
      record: (runId, record) => {
        const run = runs.get(runId)!;
        restoreA3sMapping(run.book.mapping, record);
        if ('e' in record && record.q !== undefined) {
          run.held = Math.max(run.held ?? -1, record.q - 1);
        }
      },
      books: {
        // The cursor moves once a record is on disk, and a checkpoint is taken when nothing is left to write: then
        // it is the highest sequence the journal holds, what `held` is after a replay.
        save: (runId) => {
          const book = hooks.book(runId);
          return book && { held: book.cursor, toolInput: [...book.mapping.toolInput], truncated: [...book.mapping.truncatedTools], sawText: book.mapping.sawText };
        },
        restore: (runId, saved) => {
          const parsed = savedBookSchema.safeParse(saved);
          const run = runs.get(runId);
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
      },
      close: async (stored) => {
        const { book, extra, state, held } = runs.get(stored.runId)!;
        runs.delete(stored.runId);
        // The journal is the truth for what is held; the index's cursor only helps when it has no records.
        book.cursor = held ?? extra.cursor;
        // Replayed events must not move the state: the stored one is the last we knew.
        this.ctx.store.dispatch({ type: 'runUpserted', connectionId: this.ctx.connectionId, runId: stored.runId, fields: { state } });
        book.terminal = isTerminalRunState(state) && !book.stranded;
        hooks.restored(book, state, await loadChangeSetCache(this.dir, stored.runId));
      },
    });
  }

  /** The wire sequences (+1) a run's journal holds, in order (tests: a reload restores what is on disk). */
  sequencesOf(runId: string): Promise<number[]> {
    return this.journal.sequencesOf(runId);
  }

  async close(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.flush();
    this.closed = true;
    await this.journal.close();
  }

  private quietly(runId: string, write: Promise<void>): Promise<void> {
    return write.catch((error: unknown) => {
      if (!this.closed) {
        this.ctx.log.error(`Could not store run ${runId}: ${errorText(error)}`);
      }
    });
  }
}
