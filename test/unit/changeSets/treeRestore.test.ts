/** Restoring paths from a tree: the plan per path, and what a restore refuses to do (through links, over folders). */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { snapshotScope } from '../../../extension/changeSets/snapshotScope';
import { restoreEntries, restorePlan } from '../../../extension/changeSets/treeRestore';
import { TempGitRepo } from './tempGitRepo';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));

function repoWith(files: Record<string, string>): TempGitRepo {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  Object.entries(files).forEach(([path, text]) => repo.write(path, text));
  repo.commitAll();
  return repo;
}

test('a deletion is refused when a parent folder became a symbolic link between the plan and the restore', async () => {
  const repo = repoWith({ 'keep.txt': 'k\n' });
  const scope = { top: repo.dir };
  const target = await snapshotScope(scope);
  repo.write('sub/x.txt', 'added later\n');
  const now = await snapshotScope(scope);
  const plan = await restorePlan(scope, now, target);
  assert.deepEqual(plan.map((e) => [e.path, e.change]), [['sub/x.txt', 'delete']]);

  const outside = mkdtempSync(join(tmpdir(), 'sb-outside-'));
  cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(join(outside, 'x.txt'), 'not the repository’s\n');
  rmSync(join(repo.dir, 'sub'), { recursive: true });
  symlinkSync(outside, join(repo.dir, 'sub'));

  const failures = await restoreEntries(scope, target, plan);
  assert.equal(failures.length, 1);
  assert.match(failures[0]!.reason, /not a plain folder/);
  assert.equal(readFileSync(join(outside, 'x.txt'), 'utf8'), 'not the repository’s\n');
});

test('a folder where a file goes is left as it is and reported; the other paths are restored', async () => {
  const repo = repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const scope = { top: repo.dir };
  const target = await snapshotScope(scope);
  repo.write('a.txt', 'changed\n');
  repo.write('b.txt', 'changed\n');
  const now = await snapshotScope(scope);
  const plan = await restorePlan(scope, now, target);
  // Between the plan and the restore, b.txt becomes a folder holding an ignored-looking file.
  rmSync(join(repo.dir, 'b.txt'));
  mkdirSync(join(repo.dir, 'b.txt'));
  writeFileSync(join(repo.dir, 'b.txt', 'inner'), 'must survive\n');

  const failures = await restoreEntries(scope, target, plan);
  assert.deepEqual(failures.map((f) => f.path), ['b.txt']);
  assert.equal(readFileSync(join(repo.dir, 'a.txt'), 'utf8'), 'a\n');
  assert.equal(readFileSync(join(repo.dir, 'b.txt', 'inner'), 'utf8'), 'must survive\n');
});

test('submodules are reported and never touched', async () => {
  const inner = repoWith({ 'in.txt': 'inner\n' });
  const repo = repoWith({ 'top.txt': 'top\n' });
  const scope = { top: repo.dir };
  const target = await snapshotScope(scope);
  repo.git('-c', 'protocol.file.allow=always', 'clone', '-q', inner.dir, 'vendored');
  const now = await snapshotScope(scope);
  const plan = await restorePlan(scope, now, target);
  assert.deepEqual(plan.map((e) => [e.path, e.change, e.nowMode]), [['vendored', 'delete', '160000']]);
  const failures = await restoreEntries(scope, target, plan);
  assert.match(failures[0]!.reason, /submodule/);
  assert.equal(readFileSync(join(repo.dir, 'vendored', 'in.txt'), 'utf8'), 'inner\n');
});
