/**
 * Per-hunk review of a change set (issue #26), pure: what a *reviewed* mark is attached to, and how the marks a run
 * has stored meet the change set it has now.
 *
 * A mark is keyed by the content of what was reviewed, not by where it is: a hunk's key is a hash of its file's path
 * and its lines (kind and text, context included), never its line numbers. So a hunk that only moved (the agent
 * edited above it) keeps its mark, and a hunk the agent changed again has another key and is unreviewed — its old
 * mark is then *dropped*: still stored under the file's path, matching nothing, and the view says so until the person
 * reviews that file again. Two identical hunks in one file are told apart by their order among identical ones.
 * A file without hunks (binary, a pure rename, a mode change, an empty file added) is one unit, keyed by its paths,
 * status and modes: a binary file the agent rewrites again keeps its mark (its content is not in the patch model).
 *
 * The store (storage/reviewMarksFile.ts) keeps a run's marks as JSON; the host is its only writer
 * (ui/changeSets/reviewMarks.ts).
 */
import { createHash } from 'node:crypto';
import type { PatchFile, PatchHunk } from './patchTypes';

/** What one review mark stands for: a hunk of a file, or a whole file that has no hunks. */
export interface ReviewUnit {
  /** Index into the change set's files. */
  readonly file: number;
  /** Index into the file's hunks; absent for a file without hunks. */
  readonly hunk?: number;
  /** The content key the mark is stored under. */
  readonly key: string;
  /** The file's path after the run (for a deleted file, the path it had). */
  readonly path: string;
}

export interface ReviewMark {
  /** The path of the file the reviewed hunk was in (to tell which file a dropped mark belonged to). */
  readonly path: string;
  /** When it was marked (ms since the epoch). */
  readonly at: number;
}

/** A run's stored marks, by content key. */
export type ReviewMarks = ReadonlyMap<string, ReviewMark>;

export const NO_MARKS: ReviewMarks = new Map();

const PREFIX = { context: ' ', add: '+', del: '-', noeol: '\\' } as const;

function digest(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** The content key of a hunk of the file at `path` (its lines, not its line numbers). */
export function hunkContentKey(path: string, hunk: PatchHunk): string {
  return digest(['hunk', path, hunk.lines.map((line) => PREFIX[line.kind] + line.text).join('\n')]);
}

/** The key of a file without hunks: what the patch says of it. */
function wholeFileKey(file: PatchFile): string {
  return digest(['file', file.oldPath, file.newPath, file.status, file.oldMode ?? '', file.newMode ?? '', file.binary]);
}

/** The review units of one file: one per hunk, or one for a file without hunks. */
export function fileReviewUnits(file: PatchFile, index: number): ReviewUnit[] {
  const path = file.newPath;
  if (file.hunks.length === 0) {
    return [{ file: index, key: wholeFileKey(file), path }];
  }
  const seen = new Map<string, number>();
  return file.hunks.map((hunk, hunkIndex) => {
    const base = hunkContentKey(path, hunk);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return { file: index, hunk: hunkIndex, key: n === 0 ? base : `${base}:${n}`, path };
  });
}

/** Every file's units, in the order of the files. */
export function reviewUnitsOf(files: readonly PatchFile[]): ReviewUnit[][] {
  return files.map(fileReviewUnits);
}

export interface FileReview {
  /** Per unit of the file (per hunk, or one for a file without hunks): reviewed or not. */
  readonly reviewed: readonly boolean[];
  /** Marks stored for this file's path that match none of its hunks now: the agent changed them after the review. */
  readonly dropped: number;
}

export interface ReviewProgress {
  readonly reviewed: number;
  readonly total: number;
  readonly files: readonly FileReview[];
}

/** How the stored marks meet the change set's units now. O(units + marks). */
export function reviewProgress(marks: ReviewMarks, units: readonly (readonly ReviewUnit[])[]): ReviewProgress {
  const current = new Set<string>();
  for (const fileUnits of units) {
    for (const unit of fileUnits) {
      current.add(unit.key);
    }
  }
  const droppedByPath = new Map<string, number>();
  for (const [key, mark] of marks) {
    if (!current.has(key)) {
      droppedByPath.set(mark.path, (droppedByPath.get(mark.path) ?? 0) + 1);
    }
  }
  let reviewed = 0;
  let total = 0;
  const files = units.map((fileUnits): FileReview => {
    const flags = fileUnits.map((unit) => marks.has(unit.key));
    reviewed += flags.filter(Boolean).length;
    total += flags.length;
    return { reviewed: flags, dropped: droppedByPath.get(fileUnits[0]?.path ?? '') ?? 0 };
  });
  return { reviewed, total, files };
}

/**
 * The marks after the person marked `units` reviewed (or not). Reviewing anything in a file also settles the marks of
 * that file the agent's later edits dropped (`fileUnits`: every current unit of the files touched): the person has
 * looked at the file again, so "changed after your review" no longer applies there.
 */
export function withReview(marks: ReviewMarks, change: { readonly units: readonly ReviewUnit[]; readonly fileUnits: readonly ReviewUnit[]; readonly reviewed: boolean; readonly now: number }): ReviewMarks {
  const next = new Map(marks);
  const paths = new Set(change.units.map((u) => u.path));
  const current = new Set(change.fileUnits.map((u) => u.key));
  for (const [key, mark] of marks) {
    if (paths.has(mark.path) && !current.has(key)) {
      next.delete(key);
    }
  }
  for (const unit of change.units) {
    if (change.reviewed) {
      next.set(unit.key, { path: unit.path, at: change.now });
    } else {
      next.delete(unit.key);
    }
  }
  return next;
}

/** `2 of 5 hunks reviewed`. */
export function reviewSummaryText(progress: Pick<ReviewProgress, 'reviewed' | 'total'>): string {
  return `${progress.reviewed} of ${progress.total} hunk${progress.total === 1 ? '' : 's'} reviewed`;
}
