/**
 * Review marks (changeSets/reviewState.ts) on real git patches: a mark is keyed by the hunk's content, so a hunk
 * that only moved keeps it, a hunk the agent changed again loses it (and the file says one mark was dropped), two
 * identical hunks are two marks, a file without hunks is one unit; reviewing a file again settles its dropped marks.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import type { PatchFile } from '../../../extension/changeSets/patchTypes';
import { NO_MARKS, reviewProgress, reviewSummaryText, reviewUnitsOf, withReview } from '../../../extension/changeSets/reviewState';
import type { ReviewMarks } from '../../../extension/changeSets/reviewState';
import { TempGitRepo } from './tempGitRepo';

const repo = new TempGitRepo();
after(() => repo.dispose());

/** Thirty numbered lines. */
const BASE = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);

/** The patch of `lines` over the committed base, as the local change sets compute it. */
function patchOf(lines: readonly string[]): PatchFile[] {
  repo.write('src/a.txt', `${lines.join('\n')}\n`);
  const files = parseGitPatch(repo.stagedPatch()).files;
  repo.git('reset', '-q');
  return [...files];
}

repo.write('src/a.txt', `${BASE.join('\n')}\n`);
repo.commitAll();

const edited = (edits: Readonly<Record<number, string>>, insertTop: readonly string[] = []): string[] => [...insertTop, ...BASE.map((line, i) => edits[i + 1] ?? line)];

function mark(marks: ReviewMarks, files: readonly PatchFile[], file: number, hunk: number | undefined, reviewed = true): ReviewMarks {
  const units = reviewUnitsOf(files);
  const fileUnits = units[file]!;
  const chosen = hunk === undefined ? fileUnits : fileUnits.filter((u) => u.hunk === hunk);
  return withReview(marks, { units: chosen, fileUnits, reviewed, now: 1000 });
}

test('two hunks: marking one counts one of two', () => {
  const files = patchOf(edited({ 3: 'line three', 25: 'line twenty-five' }));
  assert.equal(files[0]!.hunks.length, 2);
  const marks = mark(NO_MARKS, files, 0, 0);
  const progress = reviewProgress(marks, reviewUnitsOf(files));
  assert.deepEqual(progress.files[0], { reviewed: [true, false], dropped: 0 });
  assert.equal(reviewSummaryText(progress), '1 of 2 hunks reviewed');
  const unmarked = mark(marks, files, 0, 0, false);
  assert.equal(reviewProgress(unmarked, reviewUnitsOf(files)).reviewed, 0);
});

test('a hunk that moved keeps its mark (its line numbers are not part of its key)', () => {
  const before = patchOf(edited({ 3: 'line three', 25: 'line twenty-five' }));
  const marks = mark(mark(NO_MARKS, before, 0, 0), before, 0, 1);
  // The agent then adds lines at the top: a new first hunk, and the two reviewed hunks further down.
  const after = patchOf(edited({ 3: 'line three', 25: 'line twenty-five' }, ['header 1', 'header 2', 'header 3', 'header 4', 'header 5', 'header 6', 'header 7', 'header 8', 'header 9', 'header 10']));
  assert.equal(after[0]!.hunks.length, 2, 'the top insert merges with the line-3 hunk');
  // Line 25's hunk moved by ten lines and is unchanged in content.
  assert.notEqual(after[0]!.hunks[1]!.newStart, before[0]!.hunks[1]!.newStart);
  const progress = reviewProgress(marks, reviewUnitsOf(after));
  assert.deepEqual(progress.files[0]!.reviewed, [false, true]);
  assert.equal(progress.files[0]!.dropped, 1, 'the merged hunk changed: its mark is dropped');
});

test('a hunk far from the edit keeps its mark; the one the agent re-edited loses it and is reported dropped', () => {
  const before = patchOf(edited({ 3: 'line three', 25: 'line twenty-five' }));
  const marks = mark(NO_MARKS, before, 0, undefined);
  assert.equal(reviewProgress(marks, reviewUnitsOf(before)).reviewed, 2);
  const reEdited = patchOf(edited({ 3: 'line THREE, again', 25: 'line twenty-five' }));
  const progress = reviewProgress(marks, reviewUnitsOf(reEdited));
  assert.deepEqual(progress.files[0], { reviewed: [false, true], dropped: 1 });
  assert.equal(reviewSummaryText(progress), '1 of 2 hunks reviewed');
  // Reviewing the file's new hunk settles the dropped mark: the person looked again.
  const again = mark(marks, reEdited, 0, 0);
  assert.deepEqual(reviewProgress(again, reviewUnitsOf(reEdited)).files[0], { reviewed: [true, true], dropped: 0 });
  assert.equal(again.size, 2, 'the stale mark is gone from the store');
});

test('the key is the path and the lines: the same hunk in another file is not reviewed', () => {
  const files = parseGitPatch(
    [
      'diff --git a/x.txt b/x.txt', '--- a/x.txt', '+++ b/x.txt', '@@ -1 +1 @@', '-a', '+b',
      'diff --git a/y.txt b/y.txt', '--- a/y.txt', '+++ b/y.txt', '@@ -1 +1 @@', '-a', '+b',
      'diff --git a/z.png b/z.png', 'index 1..2 100644', 'Binary files a/z.png and b/z.png differ',
      '',
    ].join('\n'),
  ).files;
  const units = reviewUnitsOf(files);
  assert.notEqual(units[0]![0]!.key, units[1]![0]!.key);
  assert.deepEqual(units[2], [{ file: 2, key: units[2]![0]!.key, path: 'z.png' }], 'a binary file is one unit without a hunk');
  const marks = mark(NO_MARKS, files, 2, undefined);
  assert.deepEqual(reviewProgress(marks, units).files.map((f) => f.reviewed), [[false], [false], [true]]);
});

test('identical hunks in one file are two marks', () => {
  const text = ['x', ...Array.from({ length: 10 }, (_, i) => `gap ${i}`), 'x', ''].join('\n');
  repo.write('dup.txt', text);
  repo.commitAll();
  repo.write('dup.txt', text.replace(/^x$/gm, 'y'));
  const files = parseGitPatch(repo.stagedPatch()).files.filter((f) => f.newPath === 'dup.txt');
  repo.git('reset', '-q');
  assert.equal(files[0]!.hunks.length, 2);
  const units = reviewUnitsOf(files);
  assert.notEqual(units[0]![0]!.key, units[0]![1]!.key);
  const marks = mark(NO_MARKS, files, 0, 1);
  assert.deepEqual(reviewProgress(marks, units).files[0]!.reviewed, [false, true]);
});
