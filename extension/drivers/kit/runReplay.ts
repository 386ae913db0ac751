/**
 * Replaying a connection's journal after a window reload — the same way for every driver (record format:
 * journalRecords.ts). For every run in the index, `open` says what the run starts from, then each line is read,
 * validated and dispatched (`runEvent` with `restored: true` and its sequence, `runUpserted`, `runGap`, `runPanels`)
 * as it is read — nothing is collected, so a journal is never held in memory. A line in one of 0.1.0's formats goes
 * through the driver's legacy decoder (which yields v2 records: old journals are read, never rewritten). A line that
 * fits neither is skipped and counted; a torn last line (crash mid-append) is ignored. The recorder (runRecorder.ts)
 * owns the journal and the checkpoints this reads through.
 */
import type * as z from 'zod/mini';
import type { RunFields, RunSummaryCounts, SummarizedRun } from '../../model/modelActions';
import { runKeyOf } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { RunJournal, StoredRun } from '../../storage/runJournal';
import type { JournalRecord, RunInput } from './journalRecords';
import { diskRecordOf, isCurrentRecord, runInputOf } from './journalRecords';
import type { CheckpointBooks, RunCheckpoints } from './runCheckpoints';
import { newestFirst, OLDER_PAGE } from './olderRuns';
import type { ConnectIndex } from '../../storage/runIndexDigest';
import type { OlderStubs } from '../../storage/olderStubs';
import { restoreQuietRun } from './quietRuns';
import type { StoredSummary } from './runSummaries';

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
   * Whether a stored run may come back from its summary, read cheaply — the entry is not validated (runSummaries.ts
   * `peekColdSummary`): `'archived'` (past the retention setting: left out), `'cold'` (finished: from its summary, or
   * not in the model at all when older than the connect's page), undefined: replayed now. Without it every run is.
   */
  cold?(stored: StoredRun): 'archived' | 'cold' | undefined;
  /**
   * What a cold run in the connect's page shows without its transcript (its summary validated now): the replay shows
   * it (`runsSummarized`) and reads nothing else of it, and none of the handlers above run for it until `replayRun`
   * loads it. Undefined: replayed now.
   */
  summarized?(stored: StoredRun): { readonly fields: RunFields; readonly counts: RunSummaryCounts } | undefined;
  /**
   * The cold runs past the connect's page (kit/olderRuns.ts), newest first: not in the model, their entries not read
   * further. Called once per full replay (not for `onlyNew`), before the page is shown.
   */
  paged?(older: readonly StoredRun[], stubs: OlderStubs | undefined): void;
  /** A run an `onlyNew` replay leaves alone though the model does not hold it (listed older, or archived). */
  skip?(stored: StoredRun): boolean;
  /**
   * Whether a run replayed now may come back from its checkpoint's head instead, its transcript when opened
   * (quietRuns.ts): its index summary then, undefined: replayed. Opens its index entry as `summarized` does.
   */
  quiet?(stored: StoredRun): StoredSummary | undefined;
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
  /** Finished runs past the connect's page: counted in the model, not in it (kit/olderRuns.ts). */
  readonly older: number;
  /** Live runs put back from their checkpoint's head, their transcript not read (quietRuns.ts; in `checkpoints` too). */
  readonly quiet: number;
}

/**
 * Runs shown from their summaries by one action at connect (a history larger than this goes in several, a turn of
 * the event loop between them, so that no one pass of the reducer and the views stalls the host).
 */
const SUMMARIES_PER_ACTION = 2_000;
/** Index entries peeked (runSummaries.ts `peekColdSummary`, about a microsecond each) between two turns of the event loop. */
const ENTRIES_PER_TURN = 5_000;

export type MutableStats = { -readonly [K in keyof ReplayStats]: ReplayStats[K] };

export function noStats(): MutableStats {
  return { runs: 0, records: 0, invalid: 0, torn: 0, checkpoints: 0, summarized: 0, archived: 0, older: 0, quiet: 0 };
}

/** What a replay reads through and writes into: the recorder's journal, checkpoints and store. */
export interface ReplaySource<C> {
  readonly store: Pick<RunStore, 'dispatch'> & Partial<Pick<RunStore, 'state'>>;
  readonly connectionId: string;
  readonly journal: Pick<RunJournal, 'loadRuns' | 'readLines'>;
  readonly schema: z.ZodMiniType<JournalRecord<C>>;
  readonly checkpoints: RunCheckpoints | undefined;
  readonly warn?: ((message: string) => void) | undefined;
  /** Folds one replayed input into the store. */
  dispatch(runId: string, input: RunInput<C>): void;
  /** The run's file was read up to `bytes` (where a reader, or a writer taking over, goes on reading it from). */
  readTo(runId: string, bytes: number): void;
}

/**
 * Replays every stored run (`onlyNew`: only those the store does not show yet). `index`: the connect's view of the
 * run index (storage/runIndexDigest.ts: the oldest finished runs only as ids, listed older as they are); without it
 * the index is read whole.
 */
export async function replayStoredRuns<C>(source: ReplaySource<C>, handlers: ReplayHandlers<C>, onlyNew: boolean, index?: ConnectIndex): Promise<ReplayStats> {
  const stats = noStats();
  if (!handlers.record || handlers.books) {
    source.checkpoints?.enable(handlers.books);
  }
  // Runs shown from their summaries go into the model together: one action, one reducer pass, one notification of
  // the views, whatever the number (one action and one notification per run cost 50 µs a run at 1,000 runs).
  let summarized: SummarizedRun[] = [];
  /** The number of runs listed older, until an action carried it to the model. */
  let olderRuns: number | undefined;
  const showSummarized = async (): Promise<void> => {
    if (summarized.length > 0 || olderRuns !== undefined) {
      source.store.dispatch({ type: 'runsSummarized', connectionId: source.connectionId, runs: summarized, ...(olderRuns !== undefined ? { olderRuns } : {}) });
      summarized = [];
      olderRuns = undefined;
      await new Promise<void>((resolve) => setImmediate(resolve)); // a history of many thousands is not one stall
    }
  };
  // Which stored runs come back how: peeked in the index's order (nothing validated yet), then the newest page of the
  // cold ones shown from their summaries, the older cold ones handed to the door (not in the model), the rest replayed.
  const cold: StoredRun[] = [];
  const kinds = new Map<StoredRun, 'cold' | 'replay'>();
  let examined = 0;
  for (const stored of index ? index.runs : await source.journal.loadRuns()) {
    if (onlyNew && (source.store.state?.runs.has(runKeyOf(source.connectionId, stored.runId)) || handlers.skip?.(stored))) {
      continue; // shown already (live, or replayed before), or listed older
    }
    if (++examined % ENTRIES_PER_TURN === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve)); // reading many thousand entries is not one stall
    }
    const kind = handlers.cold?.(stored);
    if (kind === 'archived') {
      stats.archived += 1;
    } else if (kind === 'cold' && handlers.summarized) {
      cold.push(stored);
      kinds.set(stored, 'cold');
    } else {
      kinds.set(stored, 'replay');
    }
  }
  if (!onlyNew && handlers.paged) {
    // Another window's new runs (`onlyNew`) are few and new: they all go in. A connect keeps the newest page.
    const older = [...cold].sort(newestFirst).slice(OLDER_PAGE);
    older.forEach((stored) => kinds.delete(stored));
    const stubs = index?.older;
    stats.older = older.length + (stubs?.count ?? 0);
    olderRuns = stats.older;
    handlers.paged(older, stubs);
  }
  for (const [stored, kind] of kinds) {
    const summary = kind === 'cold' ? handlers.summarized?.(stored) : undefined;
    if (summary !== undefined) {
      // Its journal is not read now: opening the run replays it (replayRun).
      summarized.push({ runId: stored.runId, fields: summary.fields, summary: summary.counts });
      stats.summarized += 1;
      if (summarized.length >= SUMMARIES_PER_ACTION) {
        await showSummarized();
      }
      continue;
    }
    await showSummarized(); // the runs before it first: the model keeps the index's order
    const quiet = handlers.quiet?.(stored);
    if (quiet === undefined || !(await restoreQuietRun(source, stored, handlers, quiet, stats))) {
      await replayStoredRun(source, stored, handlers, stats);
    }
  }
  await showSummarized();
  return stats;
}

/** Replays one stored run: from its checkpoint and the lines after it, or from the start. */
export async function replayStoredRun<C>(source: ReplaySource<C>, stored: StoredRun, handlers: ReplayHandlers<C>, stats: MutableStats): Promise<void> {
  const fields = handlers.open(stored);
  if (fields === undefined) {
    return;
  }
  stats.runs += 1;
  const from = (await source.checkpoints?.restore(stored.runId)) ?? 0;
  if (from > 0) {
    stats.checkpoints += 1;
  } else {
    source.store.dispatch({ type: 'runUpserted', connectionId: source.connectionId, runId: stored.runId, fields });
  }
  const legacy = handlers.legacy?.(stored);
  let invalid = 0;
  let records = 0;
  const end = await source.journal.readLines(stored.runId, (line) => {
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
      const parsed = source.schema.safeParse(candidate);
      if (!parsed.success) {
        invalid += 1;
        continue;
      }
      records += 1;
      const input = runInputOf(parsed.data);
      source.dispatch(stored.runId, input);
      handlers.record?.(stored.runId, input);
    }
  }, from);
  stats.records += records;
  source.readTo(stored.runId, end);
  source.checkpoints?.note(stored.runId, records, true);
  if (invalid > 0) {
    stats.invalid += invalid;
    source.warn?.(`Skipped ${invalid} unreadable journal line${invalid === 1 ? '' : 's'} of run ${stored.runId}.`);
  }
  await handlers.close?.(stored);
}
