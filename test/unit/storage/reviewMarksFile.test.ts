/**
 * A run's review marks on disk (storage/reviewMarksFile.ts): they survive a fresh read (a reload), each change is a
 * read-modify-write of the file as it is (a second writer's marks are kept), concurrent changes are all applied, a
 * damaged file is no marks, and Remove Run deletes the file with the run's others.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ReviewMarks } from '../../../extension/changeSets/reviewState';
import { readReviewMarks, reviewMarksFileOf, updateReviewMarks } from '../../../extension/storage/reviewMarksFile';
import { safeFileName } from '../../../extension/storage/runFileName';
import { removeRunFiles } from '../../../extension/storage/runFiles';

const base = mkdtempSync(join(tmpdir(), 'review-marks-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

const add = (key: string, path = 'a.txt') => (marks: ReviewMarks): ReviewMarks => new Map([...marks, [key, { path, at: 1 }]]);

test('marks survive a fresh read, and the file is named after the run beside its journal', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await updateReviewMarks(dir, 'run/1', add('k1'));
  await updateReviewMarks(dir, 'run/1', add('k2', 'b.txt'));
  assert.equal(reviewMarksFileOf(dir, 'run/1'), join(dir, `${safeFileName('run/1')}.review.json`));
  const read = await readReviewMarks(dir, 'run/1');
  assert.deepEqual([...read.entries()], [['k1', { path: 'a.txt', at: 1 }], ['k2', { path: 'b.txt', at: 1 }]]);
  assert.deepEqual(readdirSync(dir), [`${safeFileName('run/1')}.review.json`], 'no temporary file is left');
});

test('changes asked at once are all applied, in order', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await Promise.all(Array.from({ length: 20 }, (_, i) => updateReviewMarks(dir, 'r', add(`k${i}`))));
  assert.equal((await readReviewMarks(dir, 'r')).size, 20);
});

test('a change keeps what another writer stored meanwhile', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await updateReviewMarks(dir, 'r', add('mine'));
  // Another window writes the file (its own marks plus ours).
  writeFileSync(reviewMarksFileOf(dir, 'r'), JSON.stringify({ version: 1, marks: { mine: { path: 'a.txt', at: 1 }, theirs: { path: 'c.txt', at: 2 } } }));
  await updateReviewMarks(dir, 'r', add('mine too'));
  assert.deepEqual([...(await readReviewMarks(dir, 'r')).keys()].sort(), ['mine', 'mine too', 'theirs']);
});

test('a damaged or foreign file reads as no marks; no marks left removes the file', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  writeFileSync(reviewMarksFileOf(dir, 'r'), '{"version":1,"marks":{"k":{"path":5}}');
  assert.equal((await readReviewMarks(dir, 'r')).size, 0);
  writeFileSync(reviewMarksFileOf(dir, 'r'), JSON.stringify({ version: 2, marks: {} }));
  assert.equal((await readReviewMarks(dir, 'r')).size, 0);
  await updateReviewMarks(dir, 'r', add('k'));
  assert.equal((await readReviewMarks(dir, 'r')).size, 1, 'the next change replaces it');
  await updateReviewMarks(dir, 'r', () => new Map());
  assert.deepEqual(readdirSync(dir), []);
});

test('Remove Run deletes the marks with the run', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await updateReviewMarks(dir, 'r', add('k'));
  await updateReviewMarks(dir, 'r2', add('k'));
  writeFileSync(join(dir, `${safeFileName('r')}.jsonl`), '');
  await removeRunFiles(dir, 'r');
  assert.deepEqual(readdirSync(dir), [`${safeFileName('r2')}.review.json`]);
});
