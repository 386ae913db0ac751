/** A run's notes file: beside its journal with the run's prefix (so Remove Run deletes it), replaced whole, deleted when empty. */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readReviewNoteFile, reviewNoteFileOf, writeReviewNoteFile } from '../../../extension/storage/reviewNoteFile';
import { safeFileName } from '../../../extension/storage/runFileName';
import { removeRunFiles, runFileNames } from '../../../extension/storage/runFiles';

const dir = mkdtempSync(join(tmpdir(), 'sb-notes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('written whole and read back; named <run>.notes.json', async () => {
  await writeReviewNoteFile(dir, 'run/1', { v: 1, notes: [{ id: 'a' }] });
  assert.equal(reviewNoteFileOf(dir, 'run/1'), join(dir, `${safeFileName('run/1')}.notes.json`));
  assert.deepEqual(await readReviewNoteFile(dir, 'run/1'), { v: 1, notes: [{ id: 'a' }] });
  assert.deepEqual(readdirSync(dir), [`${safeFileName('run/1')}.notes.json`], 'no temporary file left');
});

test('none, or damaged: undefined, never a throw; undefined deletes the file', async () => {
  assert.equal(await readReviewNoteFile(dir, 'other'), undefined);
  writeFileSync(reviewNoteFileOf(dir, 'broken'), '{not json');
  assert.equal(await readReviewNoteFile(dir, 'broken'), undefined);
  await writeReviewNoteFile(dir, 'broken', undefined);
  assert.equal(readdirSync(dir).includes(`${safeFileName('broken')}.notes.json`), false);
});

test('Remove Run deletes the notes with the run\u2019s other files', async () => {
  await writeReviewNoteFile(dir, 'gone', { v: 1, notes: [] });
  writeFileSync(join(dir, `${safeFileName('gone')}.jsonl`), '');
  assert.deepEqual((await runFileNames(dir, 'gone')).sort(), [`${safeFileName('gone')}.jsonl`, `${safeFileName('gone')}.notes.json`]);
  await removeRunFiles(dir, 'gone');
  assert.deepEqual(await runFileNames(dir, 'gone'), []);
  assert.deepEqual(await readReviewNoteFile(dir, 'run/1'), { v: 1, notes: [{ id: 'a' }] }, 'another run\u2019s notes stay');
});
