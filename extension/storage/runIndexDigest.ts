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
 *
 * The file is one JSON line (everything but the older runs, and their number) followed by the older runs' lines
 * (olderStubs.ts), which a connect keeps as text: it reads a few dozen entries whatever the history. It also names
 * `removed.json` as it was when the digest was made: the digest leaves out every run removed by then, so while that
 * file is unchanged a connect need not look for removed runs in it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from './replaceFile';
import type { StoredRun } from './runIndexFile';
import { MIN_LINE_CHARS, OlderStubs } from './olderStubs';
import type { OlderStub } from './olderStubs';
import { REMOVED_RUNS_FILE } from './removedRunsFile';

export type { OlderStub } from './olderStubs';

/** Finished runs kept whole in the digest, the newest by creation: more than a connect's page, so one "older…" row needs no index read. */
export const HEAD_COLD = 40;

/** When an entry's run may stay out of the model at connect: when it was last active (ms); undefined: it is loaded. */
export type ColdTest = (entry: StoredRun) => number | undefined;

/** The index as a connect reads it. */
export interface ConnectIndex {
  /** Every entry but the older finished runs' (the index's order). */
  readonly runs: StoredRun[];
  /** The older finished runs (the most recently active first), their entries in `runs.json` only. */
  readonly older: OlderStubs;
  /** What every run's data takes on disk, summed (StoredRun.bytes); `unmeasured`: entries without a size. */
  readonly bytes: number;
  readonly unmeasured: number;
}

export interface Stamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** The digest's first line. */
interface DigestHead {
  readonly v: 2;
  /** The `runs.json` it was made from. */
  readonly of: Stamp;
  /** `removed.json` then (null: there was none). */
  readonly removedOf: Stamp | null;
  readonly runs: StoredRun[];
  readonly bytes: number;
  readonly unmeasured: number;
  /** The older runs' lines after it: how many, and their length. */
  readonly older: number;
  readonly olderChars: number;
}

/** The digest as a connect reads it: the index's view, and whether it may still hold runs removed since. */
export interface ReadDigest extends ConnectIndex {
  readonly removedOf: Stamp | undefined;
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
    older: OlderStubs.of(older.map((c): OlderStub => [c.entry.runId, c.entry.createdAt, c.activeAt])),
    bytes,
    unmeasured,
  };
}

/**
 * Writes the digest of `entries`, which are what `runs.json` holds now (the caller just wrote or read it), none of
 * them removed as `removed.json` says now (`removedOf`: its stamp then, taken before the entries were read).
 */
export async function writeDigest(dir: string, entries: readonly StoredRun[], coldAt: ColdTest, of?: Stamp, removedOf?: Stamp | null): Promise<void> {
  const [stamp, removedStamp] = await Promise.all([of ?? stampOf(dir), removedOf !== undefined ? removedOf : stampOf(dir, REMOVED_RUNS_FILE)]);
  if (!stamp) {
    return;
  }
  const view = connectIndexOf(entries, coldAt);
  const head: DigestHead = {
    v: 2, of: stamp, removedOf: removedStamp ?? null, runs: view.runs, bytes: view.bytes, unmeasured: view.unmeasured,
    older: view.older.count, olderChars: view.older.text.length,
  };
  await replaceFile(join(dir, DIGEST), `${JSON.stringify(head)}\n${view.older.text}`);
}

/** The digest, when it was made from `runs.json` as it is now; undefined: read the index whole. */
export async function readDigest(dir: string): Promise<ReadDigest | undefined> {
  try {
    const [bytes, stamp] = await Promise.all([readFile(join(dir, DIGEST)), stampOf(dir)]);
    // Decoded in two parts: one non-ASCII character in the entries (a title, a last line) puts all the text after it
    // on V8's slow path, which tripled the read of a thousand runs' lines. A newline byte is never inside a character.
    const newline = bytes.indexOf(0x0a);
    const head = JSON.parse(bytes.toString('utf8', 0, newline < 0 ? bytes.length : newline)) as Partial<DigestHead> | null;
    const older = newline < 0 ? '' : bytes.toString('utf8', newline + 1);
    // A count its lines cannot add up to is a damaged digest (OlderStubs allocates an index per line).
    if (!stamp || !isDigestHead(head) || !sameStamp(head.of, stamp) || head.olderChars !== older.length || head.older * MIN_LINE_CHARS > older.length) {
      return undefined;
    }
    return {
      runs: head.runs, older: new OlderStubs(older, head.older), bytes: head.bytes, unmeasured: head.unmeasured,
      removedOf: head.removedOf ?? undefined,
    };
  } catch {
    return undefined; // none yet, or unreadable: the index is read whole
  }
}

/** The stamp of `runs.json` (or of `file`) now (undefined: there is none). */
export async function stampOf(dir: string, file = INDEX): Promise<Stamp | undefined> {
  try {
    const info = await stat(join(dir, file));
    return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function isDigestHead(value: Partial<DigestHead> | null): value is DigestHead {
  return (
    value !== null && typeof value === 'object' && value.v === 2 && isStamp(value.of) && (value.removedOf === null || isStamp(value.removedOf))
    && Array.isArray(value.runs) && value.runs.every((entry) => entry !== null && typeof entry === 'object' && typeof entry.runId === 'string')
    && typeof value.bytes === 'number' && typeof value.unmeasured === 'number'
    && Number.isSafeInteger(value.older) && value.older! >= 0 && typeof value.olderChars === 'number'
  );
}

function isStamp(value: unknown): value is Stamp {
  const stamp = value as Partial<Stamp> | null | undefined;
  return typeof stamp === 'object' && stamp !== null && typeof stamp.ino === 'number' && typeof stamp.size === 'number' && typeof stamp.mtimeMs === 'number';
}

/**
 * The digest's view less the removed runs (`removed`: as this window knows them; `onDisk`: `removed.json` now, whose
 * stamp is `removedNow`). A crash between writing the removed ids and the index leaves a removed run's entry in both.
 * While `removed.json` is the file the digest was made with, the digest has none of its runs: only removals this
 * window has not written yet are looked for among the older runs (which are then decoded).
 */
export function digestView(digest: ReadDigest, removed: ReadonlyMap<string, number>, onDisk: ReadonlyMap<string, number>, removedNow: Stamp | undefined): ConnectIndex {
  const index: ConnectIndex = { runs: digest.runs, older: digest.older, bytes: digest.bytes, unmeasured: digest.unmeasured };
  if (removed.size === 0) {
    return index;
  }
  const same = digest.removedOf === undefined || removedNow === undefined ? digest.removedOf === removedNow : sameStamp(digest.removedOf, removedNow);
  const notInDigest = same ? new Map([...removed].filter(([runId]) => !onDisk.has(runId))) : removed;
  const runs = index.runs.filter((run) => !removed.has(run.runId));
  return { ...index, runs, older: notInDigest.size === 0 ? index.older : index.older.without(notInDigest) };
}
