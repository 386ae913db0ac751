/**
 * A note's anchor from a selection in the native diff editor (issue #26): the right-hand document is the file after
 * the run, so its line numbers are the patch's new-side numbers already; each selected line is quoted with `+` when
 * the patch added it and ` ` when it was there before. Pure.
 */
import type { PatchFile } from './patchTypes';
import type { ReviewNoteAnchor } from '../protocol/reviewNotes';

/** The new-side line numbers the file's hunks added. */
export function addedLines(file: PatchFile): Set<number> {
  const added = new Set<number>();
  for (const hunk of file.hunks) {
    let line = hunk.newStart;
    for (const l of hunk.lines) {
      if (l.kind === 'add') {
        added.add(line++);
      } else if (l.kind === 'context') {
        line++;
      }
    }
  }
  return added;
}

/**
 * The anchor of lines `startLine..endLine` (1-based, inclusive) of the file after the run, whose texts are
 * `lineTexts` (in order, one per line).
 */
export function anchorOfAfterLines(file: PatchFile, startLine: number, endLine: number, lineTexts: readonly string[]): ReviewNoteAnchor {
  const added = addedLines(file);
  const quote = lineTexts.map((text, i) => `${added.has(startLine + i) ? '+' : ' '}${text}`);
  return { path: file.newPath, startLine, endLine, quote };
}
