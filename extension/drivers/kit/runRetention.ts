/**
 * Which finished runs a connection keeps on its board (issue #25 §2): the rest are archived — their files stay,
 * they are not in the model, not replayed, and *Search Run History…* finds them by their index summary. Decided at
 * connect from the `agentSwitchboard.history.*` settings; nothing is stored about it, so raising a limit brings runs
 * back at the next connect. Only runs that may come back from a summary are ever archived (runSummaries.ts: finished,
 * nothing waiting); a run without a summary yet is replayed and gets one when the connection closes.
 */
import type { StoredRun } from '../../storage/runJournal';
import { coldSummaryOf } from './runSummaries';

export interface HistoryRetention {
  /** Finished runs older than this many days (by their last activity) are archived; 0: no age limit. */
  readonly keepDays: number;
  /** At most this many finished runs per connection stay on the board, the newest; 0: no count limit. */
  readonly keepRuns: number;
}

export const DEFAULT_RETENTION: HistoryRetention = { keepDays: 30, keepRuns: 200 };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The ids of the stored runs past the retention limits, at `now`. */
export function archivedRunIds(stored: readonly StoredRun[], retention: HistoryRetention, now: number): Set<string> {
  const finished = stored
    .map((run) => ({ runId: run.runId, at: coldSummaryOf(run)?.activeAt }))
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
