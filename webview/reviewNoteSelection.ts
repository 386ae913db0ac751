/**
 * The pure part of notes to the agent in the change-set diff (issue #26): which rows a selection may span (the lines
 * of one hunk), the anchor a selection gives a note (path, new-side lines, the lines as shown), and on which row
 * each pending note is shown. No DOM.
 */
import type { DiffRow, DiffRows } from '../extension/protocol/changeSetRows';
import type { ChangeSetFileView, ReviewNote, ReviewNoteAnchor } from '../extension/protocol/webviewMessages';

/** What the notes need of the diff they decorate. */
export interface NotesDiffHost {
  rows(): DiffRows;
  files(): readonly ChangeSetFileView[];
  /** Mounts row `index` again at the next layout (its look changed). */
  refreshRow(index: number): void;
  /** Scrolls row `index` into view if it is not. */
  revealRow(index: number): void;
  /** The first row in view. */
  firstVisibleRow(): number;
  focus(): void;
}

const SIGN: Readonly<Record<string, string>> = { context: ' ', add: '+', del: '-' };

/** A row a note can be on: a line of a hunk (context, added, removed). */
export function isNotableRow(row: DiffRow | undefined): boolean {
  return row !== undefined && (row.kind === 'context' || row.kind === 'add' || row.kind === 'del');
}

/** Whether `row` belongs to a hunk's body (its lines and its no-newline markers). */
function inHunkBody(row: DiffRow | undefined): boolean {
  return isNotableRow(row) || row?.kind === 'noeol';
}

/** The rows `[start, end]` of the hunk body around row `index` (a selection stays inside them). */
export function hunkBounds(rows: DiffRows, index: number): { start: number; end: number } {
  let start = index;
  let end = index;
  while (inHunkBody(rows.row(start - 1))) {
    start--;
  }
  while (inHunkBody(rows.row(end + 1))) {
    end++;
  }
  return { start, end };
}

/** `focus` moved to stay within the hunk of `anchor`. */
export function clampToHunk(rows: DiffRows, anchor: number, focus: number): number {
  const { start, end } = hunkBounds(rows, anchor);
  return Math.max(start, Math.min(end, focus));
}

/** The next row after `from` (or before it, `step` -1) a note can be on, within `[0, rows.length)`. */
export function nextNotableRow(rows: DiffRows, from: number, step: 1 | -1): number | undefined {
  for (let i = from + step; i >= 0 && i < rows.length; i += step) {
    if (isNotableRow(rows.row(i))) {
      return i;
    }
  }
  return undefined;
}

/**
 * The anchor of the rows `[first, last]` of one hunk: the new-side line range of its unchanged and added lines (a
 * selection of removed lines only: the new-side line after them, else before them), and every selected line with
 * its sign.
 */
export function anchorOfRows(rows: DiffRows, files: readonly ChangeSetFileView[], first: number, last: number): ReviewNoteAnchor | undefined {
  const lo = Math.min(first, last);
  const hi = Math.max(first, last);
  const picked: DiffRow[] = [];
  for (let i = lo; i <= hi; i++) {
    const row = rows.row(i);
    if (row && isNotableRow(row)) {
      picked.push(row);
    }
  }
  const file = picked[0] && files[picked[0].file];
  if (!file) {
    return undefined;
  }
  const numbers = picked.filter((r) => r.newLine > 0).map((r) => r.newLine);
  let startLine = numbers.length > 0 ? Math.min(...numbers) : 0;
  let endLine = numbers.length > 0 ? Math.max(...numbers) : 0;
  if (numbers.length === 0) {
    const { start, end } = hunkBounds(rows, lo);
    const after = findNewLine(rows, hi + 1, end, 1);
    const before = findNewLine(rows, lo - 1, start, -1);
    startLine = endLine = after ?? (before !== undefined ? before : 1);
  }
  return { path: file.path, startLine, endLine, quote: picked.map((r) => `${SIGN[r.kind] ?? ' '}${r.text}`) };
}

function findNewLine(rows: DiffRows, from: number, limit: number, step: 1 | -1): number | undefined {
  for (let i = from; step > 0 ? i <= limit : i >= limit; i += step) {
    const row = rows.row(i);
    if (row && row.newLine > 0) {
      return row.newLine;
    }
  }
  return undefined;
}

/** Where the pending notes are shown: under the row of their last line; under the file's header if that line is not shown. */
export interface NotePlacement {
  readonly byRow: ReadonlyMap<number, readonly ReviewNote[]>;
  /** Notes on files this change set does not show (any more). */
  readonly elsewhere: readonly ReviewNote[];
}

/** New-side line → row, per file index; kept by the caller while the rows are the same. */
export type LineRowCache = Map<number, Map<number, number>>;

/**
 * O(notes) once each file with notes was walked (O(its rows), once per change set: `lineRows` keeps what was walked
 * for as long as the caller passes the same cache with the same rows).
 */
export function placeNotes(rows: DiffRows, files: readonly ChangeSetFileView[], notes: readonly ReviewNote[], lineRows: LineRowCache = new Map()): NotePlacement {
  const byRow = new Map<number, ReviewNote[]>();
  const elsewhere: ReviewNote[] = [];
  const fileIndex = new Map<string, number>();
  files.forEach((f, i) => {
    if (!fileIndex.has(f.path)) {
      fileIndex.set(f.path, i);
    }
  });
  for (const note of notes) {
    const f = fileIndex.get(note.path);
    if (f === undefined) {
      elsewhere.push(note);
      continue;
    }
    let lines = lineRows.get(f);
    if (!lines) {
      lines = new Map();
      const end = rows.fileStarts[f + 1] ?? rows.length;
      for (let i = rows.fileStarts[f] ?? end; i < end; i++) {
        const row = rows.row(i);
        if (row && row.newLine > 0) {
          lines.set(row.newLine, i);
        }
      }
      lineRows.set(f, lines);
    }
    const at = lines.get(note.endLine) ?? rows.fileStarts[f] ?? 0;
    const list = byRow.get(at) ?? [];
    list.push(note);
    byRow.set(at, list);
  }
  return { byRow, elsewhere };
}
