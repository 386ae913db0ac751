/** A note's anchor from a selection of the native diff's right side: new-side numbers, `+` for the lines the patch added. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { addedLines, anchorOfAfterLines } from '../../../extension/changeSets/reviewNoteAnchors';
import { SAMPLE_PATCH } from './samplePatch';

const config = parseGitPatch(SAMPLE_PATCH).files[0]!;

test('the added lines of a file, by new-side number', () => {
  assert.deepEqual([...addedLines(config)].sort((a, b) => a - b), [2, 3, 12]);
});

test('the selected lines of the file after the run, quoted with their sign', () => {
  const anchor = anchorOfAfterLines(config, 1, 3, ["import { readFileSync } from 'node:fs';", 'const retries = 5;', 'const html = 1;']);
  assert.deepEqual(anchor, {
    path: 'src/config.ts',
    startLine: 1,
    endLine: 3,
    quote: [" import { readFileSync } from 'node:fs';", '+const retries = 5;', '+const html = 1;'],
  });
});
