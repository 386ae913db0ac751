/**
 * The one message a run's notes are sent as (issue #26): a short review, note by note in reading order —
 * `path:start-end`, the lines as the diff showed them in a fenced `diff` block, then the note. Pure.
 *
 * The fence is longer than any run of backticks in the quoted lines (agent output may hold fences of its own), so
 * the quote can never close it early.
 */
import type { ReviewNote } from '../protocol/reviewNotes';

/** `src/a.ts:12` or `src/a.ts:12-14`. */
export function notePlace(note: Pick<ReviewNote, 'path' | 'startLine' | 'endLine'>): string {
  return note.startLine === note.endLine ? `${note.path}:${note.startLine}` : `${note.path}:${note.startLine}-${note.endLine}`;
}

function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) {
    for (const run of line.match(/`+/g) ?? []) {
      longest = Math.max(longest, run.length);
    }
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

function noteSection(note: ReviewNote): string {
  const parts = [`${notePlace(note)}`];
  if (note.quote.length > 0) {
    const fence = fenceFor(note.quote);
    const more = note.omittedLines ? [`… ${note.omittedLines} more line${note.omittedLines === 1 ? '' : 's'}`] : [];
    parts.push([`${fence}diff`, ...note.quote, ...more, fence].join('\n'));
  }
  parts.push(note.text);
  return parts.join('\n');
}

/** The message: a heading line, then one section per note, separated by blank lines. */
export function reviewMessage(notes: readonly ReviewNote[]): string {
  const heading = notes.length === 1 ? 'A review note on your changes:' : `${notes.length} review notes on your changes:`;
  return [heading, ...notes.map(noteSection)].join('\n\n');
}
