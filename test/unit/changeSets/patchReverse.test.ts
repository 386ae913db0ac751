/** Reverting an agent's edits from the run's change set: the reversed patch takes "after" back to "before". */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyHunks } from '../../../extension/changeSets/hunkApply';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { reversePatchFile } from '../../../extension/changeSets/patchReverse';
import type { PatchFile } from '../../../extension/changeSets/patchTypes';

const BEFORE = `${Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
/** Three regions edited at once: near the top, in the middle (a line replaced by two), near the end (one removed). */
const AFTER = BEFORE.replace('line 10\n', 'line 10 edited\n').replace('line 100\n', 'line 100 edited\nline 100b added\n').replace('line 190\n', '');

/** What git itself writes for two texts (no hand-made patch: the reverse must work on the real thing). */
function gitPatch(before: string | undefined, after: string | undefined): PatchFile {
  const dir = mkdtempSync(join(tmpdir(), 'reverse-'));
  try {
    const a = join(dir, 'a.txt');
    const b = join(dir, 'b.txt');
    if (before !== undefined) {writeFileSync(a, before);}
    if (after !== undefined) {writeFileSync(b, after);}
    let out = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', before === undefined ? '/dev/null' : 'a.txt', after === undefined ? '/dev/null' : 'b.txt'], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      out = (error as { stdout: string }).stdout; // exit code 1: the files differ
    }
    const [file] = parseGitPatch(out).files;
    assert.ok(file, out);
    return file;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function applied(text: string, file: PatchFile, hunks?: readonly number[]): string {
  const result = applyHunks(text, file, hunks);
  assert.ok(result.ok, JSON.stringify(result));
  return result.text;
}

test('several regions of a 200-line file: the reverse of the whole file restores it; of one hunk, only that region', () => {
  const forward = gitPatch(BEFORE, AFTER);
  assert.equal(forward.hunks.length, 3);
  assert.equal(applied(BEFORE, forward), AFTER, 'the patch is what git wrote');
  const reverse = reversePatchFile(forward)!;
  assert.deepEqual([reverse.additions, reverse.deletions], [forward.deletions, forward.additions]);
  assert.equal(applied(AFTER, reverse), BEFORE);
  const middleOnly = applied(AFTER, reverse, [1]);
  assert.equal(middleOnly, AFTER.replace('line 100 edited\nline 100b added\n', 'line 100\n'), 'the other two regions keep the agent\'s edit');
  assert.equal(applied(middleOnly, reverse, [0, 2]), BEFORE, 'the rest reverts after it');
  assert.equal(reverse.hunks[1]!.header, '@@ -97,8 +97,7 @@ line 96', 'ranges swapped, the section git named kept');
});

test('an added file reverses to a deletion and a deleted one to an addition; a missing final newline stays right', () => {
  const added = reversePatchFile(gitPatch(undefined, 'new\nfile'))!;
  assert.equal(added.status, 'deleted');
  assert.equal(applied('new\nfile', added), '');
  const deleted = reversePatchFile(gitPatch('gone\n', undefined))!;
  assert.equal(deleted.status, 'added');
  assert.equal(applied('', deleted), 'gone\n');
  const noeol = gitPatch('a\nb', 'a\nb\nc');
  assert.equal(applied('a\nb\nc', reversePatchFile(noeol)!), 'a\nb');
});

test('a rename swaps its paths and modes; a copy has no reverse', () => {
  const file: PatchFile = { oldPath: 'old.ts', newPath: 'new.ts', status: 'renamed', oldMode: '100644', newMode: '100755', binary: false, similarity: 90, hunks: [], additions: 0, deletions: 0 };
  assert.deepEqual(reversePatchFile(file), { oldPath: 'new.ts', newPath: 'old.ts', status: 'renamed', oldMode: '100755', newMode: '100644', binary: false, similarity: 90, hunks: [], additions: 0, deletions: 0 });
  assert.equal(reversePatchFile({ ...file, status: 'copied' }), undefined);
});
