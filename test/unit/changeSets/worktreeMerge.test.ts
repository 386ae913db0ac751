/**
 * Merging a run's worktree into the main tree: clean files (and additions, deletions) written, a file both changed
 * merged by git when the hunks do not overlap, a conflict left for the person (its marked text kept), per-file
 * resolution, protected paths held back, and *Undo Merge* restoring exactly what the merge replaced.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { RunWorktrees } from '../../../extension/changeSets/runWorktrees';
import { mergeWorktree, resolveConflict, undoMerge } from '../../../extension/changeSets/worktreeMerge';
import type { RunWorktree } from '../../../extension/changeSets/worktreeRecords';
import { TempGitRepo } from './tempGitRepo';

const cleanups: (() => void)[] = [];
after(() => cleanups.reverse().forEach((c) => c()));

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join('');

async function setUp(files: Record<string, string>): Promise<{ repo: TempGitRepo; worktree: RunWorktree; inRun: (path: string, text: string) => void; main: (path: string) => string }> {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  Object.entries(files).forEach(([path, text]) => repo.write(path, text));
  repo.commitAll();
  const folder = mkdtempSync(join(tmpdir(), 'sb-wts-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const worktree = await new RunWorktrees(folder).create(repo.dir);
  const inRun = (path: string, text: string): void => {
    mkdirSync(join(worktree.path, path, '..'), { recursive: true });
    writeFileSync(join(worktree.path, path), text);
  };
  return { repo, worktree, inRun, main: (path) => readFileSync(join(repo.dir, path), 'utf8') };
}

test('a clean merge writes the run’s changes (edit, addition, deletion) and leaves the workspace’s own edits', async () => {
  const { repo, worktree, inRun, main } = await setUp({ 'app.ts': 'one\n', 'gone.txt': 'x\n', 'mine.txt': 'm\n' });
  inRun('app.ts', 'two\n');
  inRun('src/new.ts', 'added by the run\n');
  rmSync(join(worktree.path, 'gone.txt'));
  repo.write('mine.txt', 'edited in the workspace\n');
  const indexBefore = readFileSync(join(repo.dir, '.git', 'index'));

  const outcome = await mergeWorktree(worktree, 5);
  assert.deepEqual(outcome.conflicts, []);
  assert.deepEqual(outcome.failures, []);
  assert.deepEqual(outcome.record.paths.map((p) => p.path).sort(), ['app.ts', 'gone.txt', 'src/new.ts']);
  assert.equal(main('app.ts'), 'two\n');
  assert.equal(main('src/new.ts'), 'added by the run\n');
  assert.equal(existsSync(join(repo.dir, 'gone.txt')), false);
  assert.equal(main('mine.txt'), 'edited in the workspace\n');
  assert.deepEqual(readFileSync(join(repo.dir, '.git', 'index')), indexBefore, 'the user’s index is untouched');

  // Merging again finds everything already there.
  const again = await mergeWorktree(worktree);
  assert.deepEqual(again.record.paths, []);
  assert.equal(again.alreadyThere, 3);
});

test('both changed one file in different places: git merges it; in the same place: a conflict, nothing written until decided', async () => {
  const { repo, worktree, inRun, main } = await setUp({ 'far.txt': LINES, 'near.txt': LINES });
  inRun('far.txt', LINES.replace('line 2\n', 'line 2 by the run\n'));
  repo.write('far.txt', LINES.replace('line 11\n', 'line 11 by you\n'));
  inRun('near.txt', LINES.replace('line 5\n', 'line 5 by the run\n'));
  repo.write('near.txt', LINES.replace('line 5\n', 'line 5 by you\n'));

  const outcome = await mergeWorktree(worktree);
  assert.deepEqual(outcome.record.paths.map((p) => p.path), ['far.txt']);
  assert.equal(main('far.txt'), LINES.replace('line 2\n', 'line 2 by the run\n').replace('line 11\n', 'line 11 by you\n'));
  assert.equal(outcome.conflicts.length, 1);
  const conflict = outcome.conflicts[0]!;
  assert.equal(conflict.path, 'near.txt');
  assert.match(conflict.reason, /1 conflicting hunk/);
  assert.equal(main('near.txt'), LINES.replace('line 5\n', 'line 5 by you\n'), 'a conflict is not written');
  assert.match(repo.git('cat-file', 'blob', conflict.marked!.blob).toString(), /<<<<<<< workspace\nline 5 by you\n=======\nline 5 by the run\n>>>>>>> run\n/);

  const markers = await resolveConflict(worktree, conflict, 'markers');
  assert.equal(markers.status, 'written');
  assert.match(main('near.txt'), /<<<<<<< workspace/);
  // Written once, the conflict's "ours" no longer matches: a second resolution is refused.
  assert.equal((await resolveConflict(worktree, conflict, 'run')).status, 'changed since');
});

test('a conflict resolved with the run’s version, then the whole merge undone; a file edited since the merge is kept', async () => {
  const { repo, worktree, inRun, main } = await setUp({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': LINES });
  inRun('a.txt', 'a by the run\n');
  inRun('b.txt', 'b by the run\n');
  inRun('c.txt', LINES.replace('line 3\n', 'run\n'));
  repo.write('c.txt', LINES.replace('line 3\n', 'you\n'));
  repo.write('d.txt', 'untracked, untouched\n');

  const outcome = await mergeWorktree(worktree);
  const resolved = await resolveConflict(worktree, outcome.conflicts[0]!, 'run');
  assert.equal(resolved.status, 'written');
  assert.equal(main('c.txt'), LINES.replace('line 3\n', 'run\n'));
  const record = { ...outcome.record, paths: [...outcome.record.paths, ...(resolved.status === 'written' ? [resolved.path] : [])] };
  repo.write('b.txt', 'edited again after the merge\n');

  const undone = await undoMerge(worktree, record);
  assert.deepEqual([...undone.restored].sort(), ['a.txt', 'c.txt']);
  assert.deepEqual(undone.kept, ['b.txt']);
  assert.equal(main('a.txt'), 'a\n');
  assert.equal(main('c.txt'), LINES.replace('line 3\n', 'you\n'), 'the workspace’s version is back');
  assert.equal(main('b.txt'), 'edited again after the merge\n');
  assert.equal(main('d.txt'), 'untracked, untouched\n');
});

test('a protected path and a file deleted on one side and changed on the other are conflicts, never written by the merge', async () => {
  const { repo, worktree, inRun, main } = await setUp({ '.vscode/settings.json': '{}\n', 'del.txt': 'd\n' });
  inRun('.vscode/settings.json', '{"task.allowAutomaticTasks": "on"}\n');
  inRun('del.txt', 'changed by the run\n');
  repo.remove('del.txt');

  const outcome = await mergeWorktree(worktree);
  assert.deepEqual(outcome.record.paths, []);
  const reasons = new Map(outcome.conflicts.map((c) => [c.path, c.reason]));
  assert.match(reasons.get('.vscode/settings.json')!, /protected path/);
  assert.match(reasons.get('del.txt')!, /deleted in the workspace, changed by the run/);
  assert.equal(main('.vscode/settings.json'), '{}\n');
  assert.equal(existsSync(join(repo.dir, 'del.txt')), false);
});
