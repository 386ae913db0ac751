/** Diff sides of a change-set file: from git trees when the repository has them, else from the patch. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseGitPatch } from '../../../../extension/changeSets/patchParser';
import { diffTrees, snapshotWorkingTree } from '../../../../extension/changeSets/gitTrees';
import { availableTrees, fileSides } from '../../../../extension/ui/changeSets/changeSetSides';
import { TempGitRepo } from '../../changeSets/tempGitRepo';

const repo = new TempGitRepo();
after(() => repo.dispose());

test('sides come from git when the trees are there, else from the patch', async () => {
  const lines = Array.from({ length: 20 }, (_, i) => `row ${i + 1}`);
  repo.write('f.txt', `${lines.join('\n')}\n`);
  repo.write('old.txt', 'x\n');
  const base = await snapshotWorkingTree(repo.dir);
  const changed = [...lines];
  changed[14] = 'row 15 edited';
  repo.write('f.txt', `${changed.join('\n')}\n`);
  repo.write('new.txt', 'n\n');
  repo.remove('old.txt');
  const result = await snapshotWorkingTree(repo.dir);
  const files = parseGitPatch((await diffTrees(repo.dir, base, result)).toString('utf8')).files;
  const f = files.find((x) => x.newPath === 'f.txt')!;

  const trees = await availableTrees({ repo: repo.dir, baseTree: base, resultTree: result });
  assert.deepEqual(trees, { base, result });
  const fromGit = await fileSides(f, repo.dir, trees);
  assert.deepEqual([fromGit.leftFrom, fromGit.rightFrom], ['git', 'git']);
  assert.equal(fromGit.left, `${lines.join('\n')}\n`);
  assert.equal(fromGit.right, `${changed.join('\n')}\n`);

  // Only the base tree known: the right side is the base with the hunks applied.
  const applied = await fileSides(f, repo.dir, { base });
  assert.equal(applied.right, fromGit.right);

  // No repository (a daemon's trees elsewhere): the patch context, unknown lines as "⋯".
  const fromPatch = await fileSides(f, undefined, {});
  assert.deepEqual([fromPatch.leftFrom, fromPatch.rightFrom], ['patch', 'patch']);
  assert.match(fromPatch.left, /^(⋯\n){11}row 12\n/);
  assert.match(fromPatch.right, /row 15 edited\n/);
  assert.equal(fromPatch.left.split('\n').length, fromPatch.right.split('\n').length);
  assert.deepEqual(await availableTrees({ repo: repo.dir, baseTree: `git-tree:${'1'.repeat(40)}` }), {});

  const added = await fileSides(files.find((x) => x.newPath === 'new.txt')!, undefined, {});
  assert.deepEqual([added.left, added.right, added.leftFrom], ['', 'n\n', 'none']);
  const deleted = await fileSides(files.find((x) => x.oldPath === 'old.txt')!, repo.dir, trees);
  assert.deepEqual([deleted.left, deleted.right], ['x\n', '']);
});
