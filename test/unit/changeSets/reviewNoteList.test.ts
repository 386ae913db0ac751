/** A run's pending notes as a value: add (bounded, in reading order), edit, remove, what a send leaves, the stored read. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReviewNotes } from '../../../extension/changeSets/reviewNoteList';
import { addNote, editNote, readStoredNotes, removeNote, ReviewNoteError, storedNotes, withoutSent } from '../../../extension/changeSets/reviewNoteList';
import { MAX_NOTES_PER_RUN, MAX_QUOTED_LINE_CHARS, MAX_QUOTED_LINES } from '../../../extension/protocol/reviewNotes';
import type { ReviewNoteAnchor } from '../../../extension/protocol/reviewNotes';

const at = (path: string, startLine: number, endLine = startLine): ReviewNoteAnchor => ({ path, startLine, endLine, quote: [`+line ${startLine}`] });

test('notes are kept in reading order (path, then line) whatever order they were added in', () => {
  let notes = addNote([], at('src/b.ts', 3), 'b3', 'n1');
  notes = addNote(notes, at('src/a.ts', 9), 'a9', 'n2');
  notes = addNote(notes, at('src/a.ts', 2, 4), 'a2', 'n3');
  assert.deepEqual(notes.map((n) => n.id), ['n3', 'n2', 'n1']);
  assert.deepEqual(notes[0], { path: 'src/a.ts', startLine: 2, endLine: 4, quote: ['+line 2'], id: 'n3', text: 'a2' });
});

test('a note is trimmed, needs text, and its lines come in order; its quote is bounded and what was cut is counted', () => {
  const [note] = addNote([], { path: 'a', startLine: 9, endLine: 4, quote: Array.from({ length: MAX_QUOTED_LINES + 5 }, (_, i) => `+${'x'.repeat(i === 0 ? MAX_QUOTED_LINE_CHARS + 10 : 1)}`) }, '  fix this \n', 'n');
  assert.equal(note!.text, 'fix this');
  assert.equal([note!.startLine, note!.endLine].join('-'), '4-9');
  assert.equal(note!.quote.length, MAX_QUOTED_LINES);
  assert.equal(note!.omittedLines, 5);
  assert.ok(note!.quote[0]!.endsWith(' …') && note!.quote[0]!.length === MAX_QUOTED_LINE_CHARS + 2);
  assert.throws(() => addNote([], at('a', 1), '   ', 'x'), ReviewNoteError);
  assert.throws(() => addNote([], at('a', 0), 'text', 'x'), /lines from 1/);
  assert.throws(() => addNote([], at('', 1), 'text', 'x'), /needs a file/);
});

test('a run holds a bounded number of notes; ids are unique', () => {
  let many: ReviewNotes = [];
  for (let i = 0; i < MAX_NOTES_PER_RUN; i++) {
    many = addNote(many, at('a', i + 1), 't', `n${i}`);
  }
  assert.equal(many.length, MAX_NOTES_PER_RUN);
  assert.throws(() => addNote(many, at('a', 1), 't', 'one more'), /at most/);
  assert.throws(() => addNote(addNote([], at('a', 1), 't', 'same'), at('a', 2), 't', 'same'), /taken/);
});

test('edit changes the text of one note; editing a note that went says so; remove drops it', () => {
  const notes = addNote(addNote([], at('a', 1), 'one', 'n1'), at('a', 2), 'two', 'n2');
  const edited = editNote(notes, 'n2', ' TWO ');
  assert.deepEqual(edited.map((n) => n.text), ['one', 'TWO']);
  assert.throws(() => editNote(notes, 'gone', 'x'), /gone/);
  assert.throws(() => editNote(notes, 'n1', ''), /needs some text/);
  assert.deepEqual(removeNote(notes, 'n1').map((n) => n.id), ['n2']);
});

test('after a send, the notes that were sent go and one added meanwhile stays', () => {
  const sent = addNote(addNote([], at('a', 1), 'one', 'n1'), at('a', 2), 'two', 'n2');
  const now = addNote(sent, at('a', 3), 'three', 'n3');
  assert.deepEqual(withoutSent(now, sent).map((n) => n.id), ['n3']);
});

test('the stored read is lenient: malformed notes, duplicates and damaged files are dropped, never thrown', () => {
  const good = addNote([], at('a', 1), 'one', 'n1');
  assert.deepEqual(readStoredNotes(JSON.parse(JSON.stringify(storedNotes(good)))), good);
  assert.deepEqual(readStoredNotes(undefined), []);
  assert.deepEqual(readStoredNotes({ v: 2, notes: [] }), []);
  assert.deepEqual(readStoredNotes({ v: 1, notes: 'no' }), []);
  const mixed = readStoredNotes({ v: 1, notes: [good[0], good[0], { id: 'x' }, { ...good[0], id: 'n2', startLine: -1 }, { ...good[0], id: 'n3', text: ' ' }, 42] });
  assert.deepEqual(mixed.map((n) => n.id), ['n1']);
});
