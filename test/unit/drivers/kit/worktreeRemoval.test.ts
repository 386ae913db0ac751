/**
 * Removing a run for good takes its worktree with it (issue #26): the editor's `runRemoval` (DriverContext) is
 * registered with the run history, so Remove Run and the history size limit both remove the worktree (folder, git's
 * entry, ref, record) once the run's files are gone — and another run's worktree stays.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { RunWorktrees } from '../../../../extension/changeSets/runWorktrees';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { Journaling } from '../../../../extension/drivers/kit/runJournaling';
import { RunStore } from '../../../../extension/model/runStore';
import { TempGitRepo } from '../../changeSets/tempGitRepo';
import { quietLog } from '../driverKit';

const cleanups: (() => void)[] = [];
after(() => cleanups.reverse().forEach((c) => c()));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
const C = 'acp:ref';

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('Remove Run removes the run’s worktree, and only that run’s', async () => {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  repo.write('a.txt', 'a\n');
  repo.commitAll();
  const worktrees = new RunWorktrees(tempDir('wt-remove-'));
  const mine = await worktrees.create(repo.dir);
  await worktrees.attach(mine.id, C, 'r');
  const other = await worktrees.create(repo.dir);
  await worktrees.attach(other.id, C, 'other');

  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'acp' } });
  const runRemoval = async (runId: string): Promise<() => Promise<void>> => {
    const worktree = worktrees.forRun(C, runId);
    return async () => {
      if (worktree) {
        await worktrees.remove(worktree.id);
      }
    };
  };
  const runs = new DriverRuns({ store, connectionId: C, storageDir: tempDir('wt-remove-store-'), log: quietLog, windowId: 'wa', runRemoval }, () => journaled);
  await runs.fields('r', { title: 'R', state: 'completed', createdAt: 1 });
  await runs.saveRun('r');

  assert.equal(await runs.history.remove('r'), 'removed');
  assert.equal(existsSync(mine.path), false, 'the run’s worktree folder is gone');
  assert.equal(worktrees.forRun(C, 'r'), undefined);
  assert.doesNotMatch(repo.git('worktree', 'list', '--porcelain').toString(), new RegExp(mine.id));
  assert.equal(existsSync(other.path), true, 'another run’s worktree stays');
  assert.equal(worktrees.forRun(C, 'other')?.id, other.id);
  await runs.close();
});
