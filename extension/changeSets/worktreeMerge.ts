/**
 * *Merge into workspace* for a run that worked in its own worktree (runWorktrees.ts), per file, three ways: base is
 * the start tree (the user's files when the run started), theirs the worktree now, ours the main tree now.
 *
 * - The main tree still has the start version (or already has the run's): the run's version is taken (or nothing
 *   happens) — including additions, deletions and mode changes.
 * - Both changed a text file: `git merge-file`; a clean result is written, one with conflicts is *not*: it becomes a
 *   conflict, with the marked text kept as a blob, for the person to decide per file (take the run's version, write
 *   the markers) or per hunk (the UI's diff of the run's version against the file).
 * - Anything else both changed (binary, deleted on one side, links, submodules), and any protected path
 *   (`.vscode/`, agent settings: protocol/protectedPaths.ts) is a conflict: nothing is written without a decision.
 *
 * Files are written by treeRestore.ts (git checks them out from a private index; no write through a linked folder),
 * and every path written is recorded with its entry before and after, so *Undo Merge* puts back exactly what the
 * merge replaced — leaving (and naming) a file changed again since. The user's index and HEAD are never touched.
 * Pure Node, no `vscode`.
 */
import { protectedPathOf } from '../protocol/protectedPaths';
import { snapshotWorkingTree } from './gitTrees';
import { restoreEntries, restorePlan } from './treeRestore';
import type { RestoreFailure } from './treeRestore';
import type { MergedPath, MergeRecord, RunWorktree, TreeEntry } from './worktreeRecords';
import { looksBinary, mergeText, readBlob, sameEntry, treeChanges, treeWith, writeBlob } from './worktreeTrees';

/** A path both sides changed (or a protected one): left as it is in the main tree until the person decides. */
export interface MergeConflict {
  readonly path: string;
  readonly reason: string;
  /** The main tree's entry when the merge looked (absent: no such file there). */
  readonly ours?: TreeEntry;
  /** The run's entry (absent: the run deleted it). */
  readonly theirs?: TreeEntry;
  /** The text with git's conflict markers, when both sides are text. */
  readonly marked?: TreeEntry;
}

export interface MergeOutcome {
  /** What was written (kept as the worktree's merge record for *Undo Merge*). */
  readonly record: MergeRecord;
  readonly conflicts: readonly MergeConflict[];
  readonly failures: readonly RestoreFailure[];
  /** Paths where the main tree already had the run's version. */
  readonly alreadyThere: number;
}

const REGULAR = new Set(['100644', '100755']);
const LABELS: readonly [string, string, string] = ['workspace', 'run start', 'run'];

type Decision = { readonly kind: 'take'; readonly entry?: TreeEntry } | { readonly kind: 'same' } | { readonly kind: 'conflict'; readonly conflict: MergeConflict };

function conflictReason(ours: TreeEntry | undefined, theirs: TreeEntry | undefined): string {
  if (ours === undefined) {
    return 'deleted in the workspace, changed by the run';
  }
  if (theirs === undefined) {
    return 'changed in the workspace, deleted by the run';
  }
  return REGULAR.has(ours.mode) && REGULAR.has(theirs.mode) ? 'a binary file changed in both' : 'a link or submodule changed in both';
}

/** What to do with one path the run changed. */
async function decide(repo: string, path: string, base: TreeEntry | undefined, ours: TreeEntry | undefined, theirs: TreeEntry | undefined): Promise<Decision> {
  if (sameEntry(ours, theirs)) {
    return { kind: 'same' };
  }
  const guarded = protectedPathOf(path);
  if (guarded) {
    return { kind: 'conflict', conflict: { path, reason: `a protected path (${guarded.reason}): merged only when you decide`, ...(ours ? { ours } : {}), ...(theirs ? { theirs } : {}) } };
  }
  if (sameEntry(ours, base)) {
    return { kind: 'take', ...(theirs ? { entry: theirs } : {}) };
  }
  const sides = { ...(ours ? { ours } : {}), ...(theirs ? { theirs } : {}) };
  if (ours === undefined || theirs === undefined || !REGULAR.has(ours.mode) || !REGULAR.has(theirs.mode) || (base !== undefined && !REGULAR.has(base.mode))) {
    return { kind: 'conflict', conflict: { path, reason: conflictReason(ours, theirs), ...sides } };
  }
  const [oursText, baseText, theirsText] = await Promise.all([readBlob(repo, ours.blob), base ? readBlob(repo, base.blob) : Promise.resolve(Buffer.alloc(0)), readBlob(repo, theirs.blob)]);
  if ([oursText, baseText, theirsText].some(looksBinary)) {
    return { kind: 'conflict', conflict: { path, reason: conflictReason(ours, theirs), ...sides } };
  }
  const result = await mergeText(oursText, baseText, theirsText, LABELS);
  // The run's mode change wins; otherwise the workspace's stays.
  const mode = base !== undefined && theirs.mode !== base.mode ? theirs.mode : ours.mode;
  const blob = await writeBlob(repo, result.merged);
  if (result.conflicts === 0) {
    return { kind: 'take', entry: { mode, blob } };
  }
  const hunks = result.conflicts === 1 ? '1 conflicting hunk' : `${result.conflicts} conflicting hunks`;
  return { kind: 'conflict', conflict: { path, reason: `changed in the workspace and by the run (${hunks})`, ...sides, marked: { mode, blob } } };
}

/** Writes `changes` into the main tree (from a snapshot `now`); resolves with what was written and what failed. */
async function writeInto(repo: string, now: string, changes: readonly { readonly path: string; readonly before?: TreeEntry; readonly entry?: TreeEntry }[]): Promise<{ written: MergedPath[]; failures: RestoreFailure[] }> {
  if (changes.length === 0) {
    return { written: [], failures: [] };
  }
  const scope = { top: repo };
  const target = await treeWith(repo, now, changes);
  const failures = await restoreEntries(scope, target, await restorePlan(scope, now, target));
  const failed = new Set(failures.map((f) => f.path));
  const written = changes
    .filter((c) => !failed.has(c.path))
    .map((c) => ({ path: c.path, ...(c.before ? { before: c.before } : {}), ...(c.entry ? { after: c.entry } : {}) }));
  return { written, failures };
}

/** Merges the run's changes (start tree → worktree now) into the main tree; conflicts are returned, not written. */
export async function mergeWorktree(worktree: RunWorktree, now: number = Date.now()): Promise<MergeOutcome> {
  const { repo } = worktree;
  const [runTree, mainTree] = await Promise.all([snapshotWorkingTree(worktree.path), snapshotWorkingTree(repo)]);
  const [runChanges, mainChanges] = await Promise.all([treeChanges(repo, worktree.startTree, runTree), treeChanges(repo, worktree.startTree, mainTree)]);
  const mainByPath = new Map(mainChanges.map((c) => [c.path, c]));
  const takes: { path: string; before?: TreeEntry; entry?: TreeEntry }[] = [];
  const conflicts: MergeConflict[] = [];
  let alreadyThere = 0;
  for (const change of runChanges) {
    const main = mainByPath.get(change.path);
    const ours = main ? main.to : change.from;
    const decision = await decide(repo, change.path, change.from, ours, change.to);
    if (decision.kind === 'same') {
      alreadyThere += 1;
    } else if (decision.kind === 'conflict') {
      conflicts.push(decision.conflict);
    } else {
      takes.push({ path: change.path, ...(ours ? { before: ours } : {}), ...(decision.entry ? { entry: decision.entry } : {}) });
    }
  }
  const { written, failures } = await writeInto(repo, mainTree, takes);
  return { record: { at: now, paths: written }, conflicts, failures, alreadyThere };
}

/** How a person settled one conflict: the run's version of the file, or the text with conflict markers. */
export type ConflictChoice = 'run' | 'markers';

export type ResolveOutcome =
  | { readonly status: 'written'; readonly path: MergedPath }
  | { readonly status: 'changed since'; readonly path: string }
  | { readonly status: 'failed'; readonly failure: RestoreFailure };

/** Whether the main tree snapshot `now` holds `entry` at `path`. */
async function holds(repo: string, now: string, path: string, entry: TreeEntry | undefined): Promise<boolean> {
  return (await treeChanges(repo, now, await treeWith(repo, now, [{ path, ...(entry ? { entry } : {}) }]))).length === 0;
}

/** Writes the person's choice for one conflict — refused when the file changed since the merge looked at it. */
export async function resolveConflict(worktree: RunWorktree, conflict: MergeConflict, choice: ConflictChoice): Promise<ResolveOutcome> {
  const { repo } = worktree;
  const now = await snapshotWorkingTree(repo);
  if (!(await holds(repo, now, conflict.path, conflict.ours))) {
    return { status: 'changed since', path: conflict.path };
  }
  const entry = choice === 'run' ? conflict.theirs : (conflict.marked ?? conflict.theirs);
  const { written, failures } = await writeInto(repo, now, [{ path: conflict.path, ...(conflict.ours ? { before: conflict.ours } : {}), ...(entry ? { entry } : {}) }]);
  return written[0] ? { status: 'written', path: written[0] } : { status: 'failed', failure: failures[0] ?? { path: conflict.path, reason: 'not written' } };
}

export interface UndoOutcome {
  readonly restored: readonly string[];
  /** Paths changed again since the merge wrote them: left as they are. */
  readonly kept: readonly string[];
  readonly failures: readonly RestoreFailure[];
}

/** Puts back what a merge replaced, path by path, where the file is still as the merge left it. */
export async function undoMerge(worktree: RunWorktree, record: MergeRecord): Promise<UndoOutcome> {
  const { repo } = worktree;
  const now = await snapshotWorkingTree(repo);
  const asMerged = await treeWith(repo, now, record.paths.map((p) => ({ path: p.path, ...(p.after ? { entry: p.after } : {}) })));
  const changedSince = new Set((await treeChanges(repo, now, asMerged)).map((c) => c.path));
  const undoable = record.paths.filter((p) => !changedSince.has(p.path));
  const { written, failures } = await writeInto(repo, now, undoable.map((p) => ({ path: p.path, ...(p.before ? { entry: p.before } : {}) })));
  return { restored: written.map((w) => w.path), kept: record.paths.filter((p) => changedSince.has(p.path)).map((p) => p.path), failures };
}
