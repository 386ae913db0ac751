/**
 * The runs a person removed from a connection — *Remove Run*, *Clear Finished Runs…*, the history size limit — kept
 * in `removed.json` beside its run index (`runs.json`, runIndexFile.ts), so that a daemon still listing a removed run
 * (AgencyProxy's `list_runs` names every run since the daemon started) does not bring it back after a window reload,
 * and another window of this machine that still shows it does not put it back in the index. Shared by every window
 * like the index, and written the same way: under the index's lock, through a temporary file renamed over, in the
 * same locked step as the index entries it takes out (runIndexFile.ts `mergeRunIndex`).
 *
 * Bounded two ways. A daemon that lists runs forgets them when it restarts (WIRE.md 1.9: its runs live in its memory
 * only): an id it no longer lists in a list asked for after the removal can never come back from it, and is dropped
 * (`RunIndex.releaseRemoved`). A daemon that lists nothing (SCV, A3S) can bring nothing back; only a window still
 * showing the run could, so its ids are kept up to MAX_REMOVED_RUNS per connection, the oldest dropped first: the file
 * is read with each read of the index, and that many is more runs than one daemon lists between restarts.
 *
 * The file is `{"v":1,"runs":[[runId, removedAtMs], …]}`: pairs, not an object keyed by the ids, because ids come
 * from daemons (an id such as `__proto__` is just a string here).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from './replaceFile';

/** Removed run ids kept per connection at most (the oldest removals are dropped past it). */
export const MAX_REMOVED_RUNS = 10_000;

export const REMOVED_RUNS_FILE = 'removed.json';

/** run id → when it was removed (ms since the epoch, this machine's clock). */
export type RemovedRuns = ReadonlyMap<string, number>;

/** The removed run ids on disk now (missing or unreadable: none). */
export async function readRemovedRuns(dir: string): Promise<Map<string, number>> {
  let text: string;
  try {
    text = await readFile(join(dir, REMOVED_RUNS_FILE), 'utf8');
  } catch {
    return new Map();
  }
  const out = new Map<string, number>();
  try {
    const parsed: unknown = JSON.parse(text);
    const runs = parsed !== null && typeof parsed === 'object' ? (parsed as { runs?: unknown }).runs : undefined;
    for (const pair of Array.isArray(runs) ? runs : []) {
      if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number' && Number.isFinite(pair[1])) {
        out.set(pair[0], pair[1]);
      }
    }
  } catch {
    // Unreadable (a hand edit; the rename makes a torn write impossible): as if none, rewritten at the next removal.
  }
  return out;
}

/** What one locked step changes in the removed ids. */
export interface RemovedRunsChanges {
  /** Runs removed now, with when. */
  readonly added?: RemovedRuns;
  /** Runs no daemon can bring back any more (their daemon stopped listing them). */
  readonly dropped?: ReadonlySet<string>;
}

/** `onDisk` with `changes` applied and the cap kept; undefined when nothing changes. */
export function mergedRemovedRuns(onDisk: RemovedRuns, changes: RemovedRunsChanges): Map<string, number> | undefined {
  const merged = new Map(onDisk);
  let changed = false;
  for (const runId of changes.dropped ?? []) {
    changed = merged.delete(runId) || changed;
  }
  for (const [runId, at] of changes.added ?? []) {
    if (merged.get(runId) !== at) {
      merged.set(runId, at);
      changed = true;
    }
  }
  if (merged.size > MAX_REMOVED_RUNS) {
    const newestFirst = [...merged].sort((a, b) => b[1] - a[1]);
    return new Map(newestFirst.slice(0, MAX_REMOVED_RUNS));
  }
  return changed ? merged : undefined;
}

/** Writes the removed ids (the caller holds the index lock): a temporary file renamed over, never a torn file. */
export async function writeRemovedRuns(dir: string, runs: RemovedRuns): Promise<void> {
  await replaceFile(join(dir, REMOVED_RUNS_FILE), JSON.stringify({ v: 1, runs: [...runs] }));
}
