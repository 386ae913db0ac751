/**
 * Who changed each file of a run's change set when runs share a working tree (issue #26). A local change set is the
 * working tree's diff over the run's whole window, so it also holds what another run (or a person) changed in that
 * window: the issue saw another agent's README edit inside an ACP session's set. Where agents say what they edit
 * (ACP tool-call diffs and edit locations: `RunInfo.reportedEdits`), each file goes to the run that said so; a change
 * no run reported, in a tree another run worked in meanwhile, is marked `shared` — who made it is a guess, and the
 * view says so. A delivered change set (A3S) is the daemon's own account of the run's edits: all its files are the
 * run's. Pure; O(files × runs sharing the tree).
 */
import type { FileAuthor } from './boardRows';

/** What attribution needs of a run. */
export interface AttributionRun {
  readonly runKey: string;
  readonly title: string;
  /** The tree it works in (its local change set's repository, else its first workspace root). */
  readonly tree: string | undefined;
  /** When it started (ms). */
  readonly start: number;
  /** The last time it is known to have worked (ms); absent while it is live (its window is still open). */
  readonly end?: number;
  /** The files it said it edited, as paths inside `tree` → when it last said so. */
  readonly reported: ReadonlyMap<string, number>;
  /** Its change set was delivered by its daemon (A3S), not computed from the tree. */
  readonly delivered: boolean;
}

const SELF: FileAuthor = { kind: 'self' };
const SHARED: FileAuthor = { kind: 'shared' };

/** Whether two runs' windows overlap (an open window reaches to now). */
export function windowsOverlap(a: Pick<AttributionRun, 'start' | 'end'>, b: Pick<AttributionRun, 'start' | 'end'>): boolean {
  return a.start <= (b.end ?? Infinity) && b.start <= (a.end ?? Infinity);
}

/** The other runs that worked in `run`'s tree while it did. */
export function runsSharingTree(run: AttributionRun, others: Iterable<AttributionRun>): AttributionRun[] {
  const out: AttributionRun[] = [];
  if (run.tree === undefined) {
    return out;
  }
  for (const other of others) {
    if (other.runKey !== run.runKey && other.tree === run.tree && windowsOverlap(run, other)) {
      out.push(other);
    }
  }
  return out;
}

/**
 * Each file's author: the run itself when it reported the file, its change set is delivered, or nobody else worked
 * in the tree meanwhile; the other run that reported it within the run's window (the latest to, when several did);
 * else `shared`.
 */
export function attributeFiles(run: AttributionRun, files: Iterable<string>, sharing: readonly AttributionRun[]): Map<string, FileAuthor> {
  const out = new Map<string, FileAuthor>();
  for (const path of files) {
    out.set(path, authorOf(run, path, sharing));
  }
  return out;
}

function authorOf(run: AttributionRun, path: string, sharing: readonly AttributionRun[]): FileAuthor {
  if (run.delivered || run.reported.has(path) || sharing.length === 0) {
    return SELF;
  }
  let best: { readonly other: AttributionRun; readonly at: number } | undefined;
  for (const other of sharing) {
    const at = other.reported.get(path);
    // Reported in this run's window: an edit the other run made before this one started is in its base, not here.
    if (at !== undefined && at >= run.start && at <= (run.end ?? Infinity) && (best === undefined || at > best.at)) {
      best = { other, at };
    }
  }
  return best ? { kind: 'run', runKey: best.other.runKey, title: best.other.title } : SHARED;
}

/** `by "Fix the README"` / `shared tree` (undefined for the run's own): how views label an author. */
export function authorText(author: FileAuthor | undefined): string | undefined {
  if (author === undefined || author.kind === 'self') {
    return undefined;
  }
  return author.kind === 'run' ? `by ${author.title}` : 'shared tree';
}
