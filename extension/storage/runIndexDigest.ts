/**
 * What a connect reads of the run index (issue #25 §2): `runs.head.json`, a digest of `runs.json` written beside it
 * whenever the index is merged (under the index lock: runIndexFile.ts), so that opening a connection with a thousand
 * stored runs reads a few dozen entries, not a thousand. It holds every entry whole except the finished runs older than
 * the newest HEAD_COLD (which a connect leaves out of the model: drivers/kit/olderRuns.ts): of those only the id, the
 * creation time and the last activity (what paging and retention sort by), and the sizes of all as one sum.
 *
 * `runs.json` stays the one truth, the digest a cache of it: it names the file it was made from (inode, size,
 * modification time), and a digest that does not match (an older version of the extension wrote the index, a crash
 * between the two renames, a copy) is not used — the connect reads the index whole, and writes the digest again.
 * Which entries are "finished" is the kit's call (`ColdTest`): this module knows JSON, not summaries.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from './replaceFile';
import type { StoredRun } from './runIndexFile';

/** Finished runs kept whole in the digest, the newest by creation: more than a connect's page, so one "older…" row needs no index read. */
export const HEAD_COLD = 40;

/** When an entry's run may stay out of the model at connect: when it was last active (ms); undefined: it is loaded. */
export type ColdTest = (entry: StoredRun) => number | undefined;

/** A finished run the digest keeps only the order of: its id, when it was created and last active. */
export type OlderStub = readonly [runId: string, createdAt: number, activeAt: number];

/** The index as a connect reads it. */
export interface ConnectIndex {
  /** Every entry but the older finished runs' (the index's order). */
  readonly runs: StoredRun[];
  /** The older finished runs (newest first), their entries in `runs.json` only. */
  readonly older: readonly OlderStub[];
  /** What every run's data takes on disk, summed (StoredRun.bytes); `unmeasured`: entries without a size. */
  readonly bytes: number;
  readonly unmeasured: number;
}

interface Stamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

interface DigestFile extends ConnectIndex {
  readonly v: 1;
  readonly of: Stamp;
}

const INDEX = 'runs.json';
const DIGEST = 'runs.head.json';

/** The connect's view of `entries` (the whole index, in its order). */
export function connectIndexOf(entries: readonly StoredRun[], coldAt: ColdTest): ConnectIndex {
  const cold: Array<{ readonly entry: StoredRun; readonly activeAt: number }> = [];
  let bytes = 0;
  let unmeasured = 0;
  for (const entry of entries) {
    const activeAt = coldAt(entry);
    if (activeAt !== undefined) {
      cold.push({ entry, activeAt });
    }
    if (entry.bytes === undefined) {
      unmeasured += 1;
    } else {
      bytes += entry.bytes;
    }
  }
  cold.sort((a, b) => b.entry.createdAt - a.entry.createdAt || (a.entry.runId < b.entry.runId ? -1 : 1));
  const older = cold.slice(HEAD_COLD);
  const left = new Set(older.map((c) => c.entry));
  return {
    runs: entries.filter((entry) => !left.has(entry)),
    older: older.map((c): OlderStub => [c.entry.runId, c.entry.createdAt, c.activeAt]),
    bytes,
    unmeasured,
  };
}

/** Writes the digest of `entries`, which are what `runs.json` holds now (the caller just wrote or read it). */
export async function writeDigest(dir: string, entries: readonly StoredRun[], coldAt: ColdTest, of?: Stamp): Promise<void> {
  const stamp = of ?? (await stampOf(dir));
  if (!stamp) {
    return;
  }
  const digest: DigestFile = { v: 1, of: stamp, ...connectIndexOf(entries, coldAt) };
  await replaceFile(join(dir, DIGEST), JSON.stringify(digest));
}

/** The digest, when it was made from `runs.json` as it is now; undefined: read the index whole. */
export async function readDigest(dir: string): Promise<ConnectIndex | undefined> {
  try {
    const [text, stamp] = await Promise.all([readFile(join(dir, DIGEST), 'utf8'), stampOf(dir)]);
    const digest = JSON.parse(text) as Partial<DigestFile> | null;
    if (!stamp || !isDigest(digest) || !sameStamp(digest.of, stamp)) {
      return undefined;
    }
    return { runs: digest.runs, older: digest.older, bytes: digest.bytes, unmeasured: digest.unmeasured };
  } catch {
    return undefined; // none yet, or unreadable: the index is read whole
  }
}

/** The stamp of `runs.json` now (undefined: there is none). */
export async function stampOf(dir: string): Promise<Stamp | undefined> {
  try {
    const info = await stat(join(dir, INDEX));
    return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function isDigest(value: Partial<DigestFile> | null): value is DigestFile {
  return (
    value !== null && typeof value === 'object' && value.v === 1 && typeof value.of === 'object' && value.of !== null
    && Array.isArray(value.runs) && value.runs.every((entry) => entry !== null && typeof entry === 'object' && typeof entry.runId === 'string')
    && Array.isArray(value.older) && value.older.every((stub) => Array.isArray(stub) && typeof stub[0] === 'string' && typeof stub[1] === 'number' && typeof stub[2] === 'number')
    && typeof value.bytes === 'number' && typeof value.unmeasured === 'number'
  );
}

/** The connect's view less the runs in `removed`. */
export function withoutRuns(index: ConnectIndex, removed: ReadonlyMap<string, number>): ConnectIndex {
  return { ...index, runs: index.runs.filter((run) => !removed.has(run.runId)), older: index.older.filter(([runId]) => !removed.has(runId)) };
}
