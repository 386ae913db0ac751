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
import type { OlderStub } from '../../storage/runIndexDigest';
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

/**
 * The ids of the stored runs past the retention limits, at `now` (`stubs`: the oldest finished runs as the index's
 * digest lists them, id and last activity: storage/runIndexDigest.ts).
 */
export function archivedRunIds(stored: readonly StoredRun[], retention: HistoryRetention, now: number, stubs: readonly OlderStub[] = []): Set<string> {
  if (retention.keepRuns <= 0 && retention.keepDays <= 0) {
    return new Set(); // no limit: nothing to sort
  }
  const finished = [...stored.map((run) => ({ runId: run.runId, at: peekColdSummary(run)?.activeAt })), ...stubs.map(([runId, , at]) => ({ runId, at }))]
    .filter((run): run is { runId: string; at: number } => run.at !== undefined)
    .sort((a, b) => b.at - a.at);
  const archived = new Set<string>();
  finished.forEach((run, index) => {
    const tooMany = retention.keepRuns > 0 && index >= retention.keepRuns;
    const tooOld = retention.keepDays > 0 && now - run.at > retention.keepDays * DAY_MS;
    if (tooMany || tooOld) {
      archived.add(run.runId);
    }
  });
  return archived;
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
