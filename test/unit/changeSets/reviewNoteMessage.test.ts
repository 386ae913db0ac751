/** The one message a run's notes are sent as: `path:line-line`, the lines as the diff showed them, the note. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notePlace, reviewMessage } from '../../../extension/changeSets/reviewNoteMessage';
import type { ReviewNote } from '../../../extension/protocol/reviewNotes';

const note = (over: Partial<ReviewNote>): ReviewNote => ({ id: 'n', path: 'src/config.ts', startLine: 2, endLine: 3, quote: ['+const retries = 5;', ' return x;'], text: 'Keep 3 retries.', ...over });

test('a note is named path:start-end, or path:line for one line', () => {
  assert.equal(notePlace(note({})), 'src/config.ts:2-3');
  assert.equal(notePlace(note({ startLine: 7, endLine: 7 })), 'src/config.ts:7');
});

test('the message: a heading, then per note its place, its lines in a diff block and the note, in order', () => {
  const text = reviewMessage([note({}), note({ path: 'README.md', startLine: 1, endLine: 1, quote: ['-old title'], text: 'Why remove it?\nIt is linked.' })]);
  assert.equal(
    text,
    [
      '2 review notes on your changes:',
      '',
      'src/config.ts:2-3',
      '```diff',
      '+const retries = 5;',
      ' return x;',
      '```',
      'Keep 3 retries.',
      '',
      'README.md:1',
      '```diff',
      '-old title',
      '```',
      'Why remove it?\nIt is linked.',
    ].join('\n'),
  );
  assert.match(reviewMessage([note({})]), /^A review note on your changes:\n\n/);
});

test('quoted lines cannot close the fence early (agent output with backticks), and cut lines are counted', () => {
  const text = reviewMessage([note({ quote: ['+```', '+x = ````y````'], omittedLines: 2 })]);
  assert.ok(text.includes('\n`````diff\n+```\n+x = ````y````\n… 2 more lines\n`````\n'), text);
});

test('a note without quoted lines has no block', () => {
  assert.equal(reviewMessage([note({ quote: [] })]), 'A review note on your changes:\n\nsrc/config.ts:2-3\nKeep 3 retries.');
});
