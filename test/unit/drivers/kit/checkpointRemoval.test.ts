/**
 * Removing a run for good takes its file checkpoints with it (issue #26 beside #25 §2): the refs that pin its
 * snapshots in the user's repository and its checkpoint list go once the run's other files went — and a removal
 * that is refused (another window records the run) leaves them all in place.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { Journaling } from '../../../../extension/drivers/kit/runJournaling';
import { journalDirOf } from '../../../../extension/drivers/kit/runJournaling';
import { TurnCheckpoints } from '../../../../extension/drivers/kit/turnCheckpoints';
import { RunStore } from '../../../../extension/model/runStore';
import { fileCheckpointFileOf } from '../../../../extension/storage/fileCheckpointLedger';
import { TempGitRepo } from '../../changeSets/tempGitRepo';
import { quietLog } from '../driverKit';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
const C = 'acp:ref';

function store(): RunStore {
  const s = new RunStore(() => 1000);
  s.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'acp' } });
  return s;
}

function repoWithFile(): TempGitRepo {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  repo.write('a.txt', 'a\n');
  repo.commitAll();
  return repo;
}

function pins(repo: TempGitRepo): string[] {
  return repo.git('for-each-ref', '--format=%(refname)', 'refs/agent-switchboard/').toString().split('\n').filter((line) => line !== '');
}

async function finishedRunWithCheckpoints(runs: DriverRuns<never>, checkpoints: TurnCheckpoints, repo: TempGitRepo): Promise<void> {
  await runs.fields('r', { title: 'R', state: 'running', createdAt: 1 });
  await checkpoints.boundary('r', [repo.dir]);
  repo.write('a.txt', 'b\n');
  await checkpoints.boundary('r', [repo.dir]);
  await runs.fields('r', { state: 'completed' });
  await runs.saveRun('r');
}

test('Remove Run unpins the run’s snapshots and deletes its checkpoint list', async () => {
  const repo = repoWithFile();
  const storageDir = mkdtempSync(join(tmpdir(), 'ckpt-remove-'));
  cleanups.push(() => rmSync(storageDir, { recursive: true, force: true }));
  const runs = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wa' }, () => journaled);
  const checkpoints = new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, runs);
  await finishedRunWithCheckpoints(runs, checkpoints, repo);
  const list = fileCheckpointFileOf(journalDirOf({ storageDir, connectionId: C }), 'r');
  assert.equal(pins(repo).length, 2, 'two checkpoints pinned');
  assert.ok(existsSync(list));

  assert.equal(await runs.history.remove('r'), 'removed');
  assert.deepEqual(pins(repo), [], 'no ref of the run is left in the repository');
  assert.equal(existsSync(list), false);
  assert.equal(repo.git('status', '--porcelain').toString(), ' M a.txt\n', 'the work tree is as it was');
  await runs.close();
});

test('a refused removal (another window records the run) keeps its checkpoints', async () => {
  const repo = repoWithFile();
  const storageDir = mkdtempSync(join(tmpdir(), 'ckpt-remove-'));
  cleanups.push(() => rmSync(storageDir, { recursive: true, force: true }));
  const a = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wa', windowName: 'first' }, () => journaled);
  await finishedRunWithCheckpoints(a, new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, a), repo);
  const b = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wb', windowName: 'second' }, () => journaled);
  new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, b);
  await b.replay({ open: () => true, state: 'as replayed' });

  const outcome = await b.history.remove('r');
  assert.equal(typeof outcome, 'object', 'refused');
  assert.equal(pins(repo).length, 2);
  assert.ok(existsSync(fileCheckpointFileOf(journalDirOf({ storageDir, connectionId: C }), 'r')));
  await Promise.all([a.close(), b.close()]);
});

test('the history size limit removes a run the same way: its snapshots are unpinned too', async () => {
  const repo = repoWithFile();
  const storageDir = mkdtempSync(join(tmpdir(), 'ckpt-remove-'));
  cleanups.push(() => rmSync(storageDir, { recursive: true, force: true }));
  const a = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wa' }, () => journaled);
  await finishedRunWithCheckpoints(a, new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, a), repo);
  await a.close();
  assert.equal(pins(repo).length, 2);

  // The same window after a reload, with a limit every finished run is over.
  const retention = { keepDays: 0, keepRuns: 0, keepMegabytes: 1e-9 };
  const b = new DriverRuns({ store: store(), connectionId: C, storageDir, log: quietLog, windowId: 'wa', retention: () => retention }, () => journaled);
  new TurnCheckpoints({ storageDir, connectionId: C, log: quietLog }, b);
  await b.replay({ open: () => true, state: 'as replayed' });
  assert.deepEqual(pins(repo), [], 'no ref of the removed run is left');
  assert.equal(existsSync(fileCheckpointFileOf(journalDirOf({ storageDir, connectionId: C }), 'r')), false);
  await b.close();
});
