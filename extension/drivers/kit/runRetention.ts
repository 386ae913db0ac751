/**
 * Which finished runs a connection keeps on its board (issue #25 §2): the rest are archived — their files stay,
 * they are not in the model, not replayed, and *Search Run History…* finds them by their index summary. Decided at
 * connect from the `agentSwitchboard.history.*` settings; nothing is stored about it, so raising a limit brings runs
 * back at the next connect. Only runs that may come back from a summary are ever archived (runSummaries.ts `peekColdSummary`:
 * finished, nothing waiting; read without validating every entry); a run without a summary yet is replayed and gets one when the connection closes.
 *
 * The size limit is the one that deletes: what a connection's runs take on disk (each index entry says, StoredRun.bytes)
 * is kept under `keepMegabytes` by removing the least recently active finished runs for good, as *Remove Run* does
 * (runHistoryTrim.ts). Archiving alone would free no disk.
 */
import type { StoredRun } from '../../storage/runJournal';
import { OlderStubs } from '../../storage/olderStubs';
import { peekColdSummary } from './runSummaries';

export interface HistoryRetention {
  /** Finished runs older than this many days (by their last activity) are archived; 0: no age limit. */
  readonly keepDays: number;
  /** At most this many finished runs per connection stay on the board, the newest; 0: no count limit. */
  readonly keepRuns: number;
  /**
   * The connection's stored runs take at most this many megabytes (MiB) on disk: past it the least recently active
   * finished runs are deleted; 0: no size limit.
   */
  readonly keepMegabytes: number;
}

export const DEFAULT_RETENTION: HistoryRetention = { keepDays: 30, keepRuns: 200, keepMegabytes: 1024 };

const MIB = 1024 * 1024;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Runs by id: a Set, or the archived runs as `retainedRuns` decides them. */
export interface RunIds {
  has(runId: string): boolean;
}

/** Which finished runs are archived, and the older runs the digest lists that are not (`retainedRuns`). */
export interface Retained {
  readonly archived: RunIds;
  readonly older: OlderStubs;
}

/**
 * The stored runs past the retention limits at `now`: `stored` are index entries, `stubs` the oldest finished runs as
 * the index's digest lists them, most recently active first (storage/olderStubs.ts). Every finished run is ranked by
 * its last activity (an entry before a stub of the same time); past `keepRuns`, or idle longer than `keepDays`, it is
 * archived. Along the stubs both limits hold from some line on, so that line is found by a binary search: with a
 * thousand stored runs a connect decodes a dozen of their lines, not a thousand.
 */
export function retainedRuns(stored: readonly StoredRun[], retention: HistoryRetention, now: number, stubs: OlderStubs = OlderStubs.none): Retained {
  if (retention.keepRuns <= 0 && retention.keepDays <= 0) {
    return { archived: new Set(), older: stubs }; // no limit: nothing to sort
  }
  const finished = stored
    .map((run) => ({ runId: run.runId, at: peekColdSummary(run)?.activeAt }))
    .filter((run): run is { runId: string; at: number } => run.at !== undefined)
    .sort((a, b) => b.at - a.at);
  const past = (rank: number, at: number): boolean =>
    (retention.keepRuns > 0 && rank >= retention.keepRuns) || (retention.keepDays > 0 && now - at > retention.keepDays * DAY_MS);
  // An entry's rank: the entries before it, and the stubs more recently active than it.
  const archived = new Set<string>();
  finished.forEach((run, index) => {
    if (past(index + stubs.firstWhere(([, , at]) => at <= run.at), run.at)) {
      archived.add(run.runId);
    }
  });
  // A stub's rank: the stubs before it, and the entries as recently active or more.
  const kept = stubs.firstWhere(([, , at], line) => past(line + entriesFrom(finished, at), at));
  const beyond = stubs.from(kept);
  return { archived: { has: (runId) => archived.has(runId) || (beyond.count > 0 && beyond.has(runId)) }, older: stubs.head(kept) };
}

/** How many of `finished` (most recently active first) were active at `at` or later. */
function entriesFrom(finished: ReadonlyArray<{ readonly at: number }>, at: number): number {
  let low = 0;
  let high = finished.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (finished[middle]!.at >= at) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/**
 * The ids of the finished runs to delete so that the connection's runs take at most `keepMegabytes` on disk, the
 * least recently active first. Every run counts toward the total (by its index entry's size; one without a size
 * counts nothing), but only finished runs with nothing waiting (those with a summary to come back from) are chosen.
 */
export function overSizeRunIds(stored: readonly StoredRun[], retention: HistoryRetention): string[] {
  if (retention.keepMegabytes <= 0) {
    return [];
  }
  let total = stored.reduce((sum, run) => sum + (run.bytes ?? 0), 0);
  const limit = retention.keepMegabytes * MIB;
  if (total <= limit) {
    return []; // under the limit (every connect but the one that crosses it): no summary read, nothing sorted
  }
  const oldestFirst = stored
    .map((run) => ({ runId: run.runId, bytes: run.bytes ?? 0, at: peekColdSummary(run)?.activeAt }))
    .filter((run): run is { runId: string; bytes: number; at: number } => run.at !== undefined)
    .sort((a, b) => a.at - b.at);
  const out: string[] = [];
  for (const run of oldestFirst) {
    if (total <= limit) {
      break;
    }
    out.push(run.runId);
    total -= run.bytes;
  }
  return out;
}
