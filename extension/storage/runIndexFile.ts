/**
 * The run index of one connection, `runs.json`: ONE file (the history lane loads a thousand entries in one read),
 * shared by every editor window of this machine. Each window changes only the entries of the runs it writes, so a
 * write is read-merge-write under a short lock (`runs.json.lock`, created with `link` like a writer lease,
 * runWriterLease.ts): read what is on disk now, put this window's changed entries in (or take its removed ones out),
 * write a temporary file and rename it over. Another window's entry is never lost to a whole rewrite of a stale view.
 *
 * The ids of runs removed for good are kept beside it (`removed.json`, removedRunsFile.ts) and changed in the same
 * locked step: a removal writes its id there first, then the index without its entry; an entry saved for a removed
 * run is refused, and one found in the index anyway (an older version's window wrote it) is left out on every read.
 *
 * The lock is held for one read and one write (milliseconds). A lock whose holder died, or that is older than
 * LOCK_STALE_MS (a holder that hangs must not stop every window's index for good), is broken.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mergedRemovedRuns, readRemovedRuns, writeRemovedRuns } from './removedRunsFile';
import type { RemovedRuns, RemovedRunsChanges } from './removedRunsFile';
import { pidAlive } from './runWriterLease';
import { replaceFile } from './replaceFile';
import type { ColdTest } from './runIndexDigest';
import { writeDigest } from './runIndexDigest';

/** A run's entry in the index: what the run list shows of it without its journal. */
export interface StoredRun {
  readonly runId: string;
  readonly title: string;
  readonly provider?: string;
  readonly model?: string;
  readonly state: string;
  readonly createdAt: number;
  readonly workspaceRoots?: readonly string[];
  /** Driver-specific extras (JSON-safe). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /**
   * What the board and the tree show of the run without its transcript (issue #25 §2), as the kit last saw it
   * (drivers/kit/runSummaries.ts knows its shape; here it is JSON). Absent in an index written before 0.4.
   */
  readonly summary?: unknown;
  /**
   * What the run's data took on disk (journal, checkpoint, cached change set: runFiles.ts) when its writer last saved
   * the entry: retention by size reads it here instead of measuring every run's files at each connect. Absent in an
   * index written before 0.5 (measured once, `measured` below).
   */
  readonly bytes?: number;
}

/** A lock older than this is broken (it is held for one small read and write). */
const LOCK_STALE_MS = 5_000;
/** How long a write waits for the lock before it breaks it. */
const LOCK_WAIT_MS = 2_000;

const isEntry = (entry: unknown): entry is StoredRun =>
  entry !== null && typeof entry === 'object' && typeof (entry as StoredRun).runId === 'string';

/** The index and the removed run ids as they are on disk now (entries of removed runs left out). */
export interface RunIndexState {
  readonly entries: StoredRun[];
  readonly removed: RemovedRuns;
}

/** Reads the index and the removed ids; an entry of a removed run is left out. */
export async function readRunIndexState(dir: string): Promise<RunIndexState> {
  const [entries, removed] = await Promise.all([readRunIndex(dir), readRemovedRuns(dir)]);
  return { entries: removed.size === 0 ? entries : entries.filter((entry) => !removed.has(entry.runId)), removed };
}

/** The index as it is on disk now, in its order (missing or unreadable: empty). */
export async function readRunIndex(dir: string): Promise<StoredRun[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dir, 'runs.json'), 'utf8'));
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

/** This window's changes to the index: entries it wrote, runs it removed. */
export interface RunIndexChanges {
  readonly saved: ReadonlyMap<string, StoredRun>;
  readonly removed: ReadonlySet<string>;
  /**
   * Sizes measured of entries that had none: put in only where the entry on disk still has none (a field added,
   * never another window's entry replaced by this window's view of it).
   */
  readonly measured?: ReadonlyMap<string, number>;
  /** Runs removed for good (their entries go, in `removed` or not) and runs no daemon can bring back (removedRunsFile.ts). */
  readonly removedForGood?: RemovedRunsChanges;
}

/**
 * Merges `changes` into the index on disk under the lock; resolves with the index as written and the removed ids.
 * An entry saved for a removed run is not written (another window still showing it must not put it back). With
 * `coldAt`, the connect's digest of the index is written too, under the same lock (runIndexDigest.ts).
 */
export async function mergeRunIndex(dir: string, changes: RunIndexChanges, coldAt?: ColdTest): Promise<RunIndexState> {
  await mkdir(dir, { recursive: true });
  const unlock = await lockIndex(dir);
  try {
    const onDisk = await readRemovedRuns(dir);
    const removedNow = changes.removedForGood ? mergedRemovedRuns(onDisk, changes.removedForGood) : undefined;
    const removed = removedNow ?? onDisk;
    if (removedNow) {
      // First: a crash before the index is written leaves an entry that every read leaves out.
      await writeRemovedRuns(dir, removedNow);
    }
    const merged = new Map<string, StoredRun>();
    for (const entry of await readRunIndex(dir)) {
      if (!removed.has(entry.runId)) {
        merged.set(entry.runId, entry);
      }
    }
    for (const runId of changes.removed) {
      merged.delete(runId);
    }
    for (const [runId, entry] of changes.saved) {
      if (!removed.has(runId)) {
        merged.set(runId, entry);
      }
    }
    for (const [runId, bytes] of changes.measured ?? []) {
      const entry = merged.get(runId);
      if (entry && entry.bytes === undefined) {
        merged.set(runId, { ...entry, bytes });
      }
    }
    const entries = [...merged.values()];
    await replaceFile(join(dir, 'runs.json'), JSON.stringify(entries));
    if (coldAt) {
      await writeDigest(dir, entries, coldAt);
    }
    return { entries, removed };
  } finally {
    await unlock();
  }
}

async function lockIndex(dir: string): Promise<() => Promise<void>> {
  const file = join(dir, 'runs.json.lock');
  const token = `${process.pid} ${randomBytes(6).toString('hex')}`;
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, token);
  const started = Date.now();
  try {
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        await link(tmp, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw error;
        }
      }
      if (await lockStale(file) || Date.now() - started > LOCK_WAIT_MS) {
        await rm(file, { force: true });
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    await rm(tmp, { force: true });
  }
  return async () => {
    // Only our own lock is removed (one broken as stale by another window is theirs now).
    if ((await readFile(file, 'utf8').catch(() => '')) === token) {
      await rm(file, { force: true });
    }
  };
}

async function lockStale(file: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    const pid = Number(text.split(' ')[0]);
    return !pidAlive(pid) || Date.now() - info.mtimeMs > LOCK_STALE_MS;
  } catch {
    return false; // gone meanwhile: the next link takes it
  }
}
