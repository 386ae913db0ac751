/**
 * A run's worktree: made from the user's files as they are (uncommitted edits and untracked files included) without
 * touching the user's index, HEAD or branches; its change set is exactly the run's while the main tree changes too;
 * removal takes the folder, git's entry, the ref and the record; after a simulated crash the orphans are found.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { diffTrees, snapshotWorkingTree } from '../../../extension/changeSets/gitTrees';
import { parseGitPatch } from '../../../extension/changeSets/patchParser';
import { RunWorktrees, worktreeRef, WorktreeUnavailable } from '../../../extension/changeSets/runWorktrees';
import { TempGitRepo } from './tempGitRepo';

const cleanups: (() => void)[] = [];
after(() => cleanups.reverse().forEach((c) => c()));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function repoWith(files: Record<string, string>): TempGitRepo {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  Object.entries(files).forEach(([path, text]) => repo.write(path, text));
  repo.commitAll();
  return repo;
}

function userState(repo: TempGitRepo): string {
  return [repo.git('rev-parse', 'HEAD'), repo.git('branch', '--list'), readFileSync(join(repo.dir, '.git', 'index')).toString('base64'), repo.git('status', '--porcelain')].join('|');
}

test('a worktree starts from the files as they are, and the user’s index, HEAD and branches stay as they were', async () => {
  const repo = repoWith({ 'a.txt': 'committed\n', 'src/b.txt': 'b\n' });
  repo.write('a.txt', 'uncommitted edit\n');
  repo.write('new.txt', 'untracked\n');
  const before = userState(repo);
  const worktrees = new RunWorktrees(tempDir('sb-wts-'));

  const worktree = await worktrees.create(join(repo.dir, 'src'));
  assert.equal(userState(repo), before);
  assert.equal(readFileSync(join(worktree.path, 'a.txt'), 'utf8'), 'uncommitted edit\n');
  assert.equal(readFileSync(join(worktree.path, 'new.txt'), 'utf8'), 'untracked\n');
  assert.equal(worktrees.workingDirectory(worktree), join(worktree.path, 'src'), 'the run works in the same sub-folder');
  assert.equal(repo.git('rev-parse', worktreeRef(worktree.id)).toString().trim(), worktree.startCommit, 'the start commit is kept by our ref');
  assert.equal(repo.git('rev-parse', `${worktree.startCommit}^`).toString().trim(), repo.git('rev-parse', 'HEAD').toString().trim(), 'HEAD is its parent');
  assert.match(repo.git('worktree', 'list', '--porcelain').toString(), new RegExp(worktree.id));
  assert.equal(worktrees.containing(join(worktree.path, 'src', 'x.ts'))?.id, worktree.id);
  assert.equal(worktrees.containing(repo.dir), undefined);
});

test('the run’s change set is exactly its own, while the main tree changes too', async () => {
  const repo = repoWith({ 'README.md': 'readme\n', 'app.ts': 'export const a = 1;\n' });
  const worktrees = new RunWorktrees(tempDir('sb-wts-'));
  const worktree = await worktrees.create(repo.dir);
  writeFileSync(join(worktree.path, 'app.ts'), 'export const a = 2;\n');
  // Another agent (or the person) edits the main tree meanwhile.
  repo.write('README.md', 'edited by someone else\n');
  repo.write('other.txt', 'also someone else\n');

  const patch = parseGitPatch((await diffTrees(repo.dir, worktree.startTree, await snapshotWorkingTree(worktree.path))).toString('utf8'));
  assert.deepEqual(patch.files.map((f) => f.newPath), ['app.ts']);
  assert.equal(readFileSync(join(repo.dir, 'app.ts'), 'utf8'), 'export const a = 1;\n', 'the main tree is untouched');
});

test('a folder that is not in a git repository gets no worktree, with the reason', async () => {
  const plain = tempDir('sb-plain-');
  const worktrees = new RunWorktrees(tempDir('sb-wts-'));
  await assert.rejects(worktrees.create(plain), (e: unknown) => e instanceof WorktreeUnavailable && /not in a git repository/.test(e.reason));
});

test('removal takes the folder, git’s entry for it, the ref and the record', async () => {
  const repo = repoWith({ 'a.txt': 'a\n' });
  const folder = tempDir('sb-wts-');
  const worktrees = new RunWorktrees(folder);
  const worktree = await worktrees.create(repo.dir);
  await worktrees.attach(worktree.id, 'acp:Ref', 'session-1');
  writeFileSync(join(worktree.path, 'a.txt'), 'changed by the run\n');

  await worktrees.remove(worktree.id);
  assert.equal(existsSync(worktree.path), false);
  assert.equal(existsSync(join(folder, `${worktree.id}.json`)), false);
  assert.doesNotMatch(repo.git('worktree', 'list', '--porcelain').toString(), new RegExp(worktree.id));
  assert.equal(repo.git('for-each-ref', 'refs/agent-switchboard/').toString(), '');
  assert.equal(worktrees.forRun('acp:Ref', 'session-1'), undefined);
  assert.equal(readFileSync(join(repo.dir, 'a.txt'), 'utf8'), 'a\n');
});

test('after a simulated crash the orphans are found (run gone, run never started, no record) and cleaned up; live runs are kept', async () => {
  const repo = repoWith({ 'a.txt': 'a\n' });
  const folder = tempDir('sb-wts-');
  const first = new RunWorktrees(folder);
  const live = await first.create(repo.dir);
  await first.attach(live.id, 'acp:Ref', 'live');
  const removedRun = await first.create(repo.dir);
  await first.attach(removedRun.id, 'acp:Ref', 'removed');
  const neverStarted = await first.create(repo.dir);
  const unknownConnection = await first.create(repo.dir);
  await first.attach(unknownConnection.id, 'scv:Gone', 'x');
  const recordless = await first.create(repo.dir);
  rmSync(join(folder, `${recordless.id}.json`)); // the crash came between the worktree and its record
  assert.deepEqual(await first.orphans(() => true), [], 'a worktree still starting in this window is no orphan');

  // The editor stops; a new window reads the same folder.
  const next = new RunWorktrees(folder);
  const known = (connectionId: string, runId: string): boolean | undefined => (connectionId === 'acp:Ref' ? runId === 'live' : undefined);
  const orphans = await next.orphans(known);
  const byId = new Map(orphans.map((o) => [o.id, o.reason]));
  assert.deepEqual([...byId.keys()].sort(), [removedRun.id, neverStarted.id, recordless.id].sort());
  assert.match(byId.get(removedRun.id)!, /run was removed/);
  assert.match(byId.get(neverStarted.id)!, /never started/);
  assert.match(byId.get(recordless.id)!, /no record/);

  for (const orphan of orphans) {
    await next.remove(orphan.id);
  }
  assert.deepEqual(await next.orphans(known), []);
  const listed = repo.git('worktree', 'list', '--porcelain').toString();
  for (const gone of [removedRun, neverStarted, recordless]) {
    assert.equal(existsSync(gone.path), false);
    assert.doesNotMatch(listed, new RegExp(gone.id));
  }
  assert.match(listed, new RegExp(live.id));
  assert.equal(existsSync(live.path), true);
  const refs = repo.git('for-each-ref', '--format=%(refname)', 'refs/agent-switchboard/').toString().trim().split('\n').sort();
  assert.deepEqual(refs, [worktreeRef(live.id), worktreeRef(unknownConnection.id)].sort());
});
