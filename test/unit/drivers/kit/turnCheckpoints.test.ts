/**
 * The kit's seam for file checkpoints: the run's writer window records, every other window records nothing, a run
 * without a folder has no checkpoint, and a failure is a warning, never an exception in the driver.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { TurnCheckpoints } from '../../../../extension/drivers/kit/turnCheckpoints';
import { journalDirOf } from '../../../../extension/drivers/kit/runJournaling';
import { fileCheckpointFileOf } from '../../../../extension/storage/fileCheckpointLedger';
import { TempGitRepo } from '../../changeSets/tempGitRepo';

const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((c) => c()));

function seam(writes: (runId: string) => boolean): { checkpoints: TurnCheckpoints; storage: string; warnings: string[] } {
  const storage = mkdtempSync(join(tmpdir(), 'turn-ckpt-'));
  cleanups.push(() => rmSync(storage, { recursive: true, force: true }));
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
  return { checkpoints: new TurnCheckpoints({ storageDir: storage, connectionId: 'acp:ref', log }, { writes, claim: (runId) => Promise.resolve(writes(runId)) }), storage, warnings };
}

test('the writer window numbers turns from 0 and tells its listeners; another window records nothing', async () => {
  const repo = new TempGitRepo();
  cleanups.push(() => repo.dispose());
  repo.write('a.txt', 'a\n');
  repo.commitAll();
  const { checkpoints, storage } = seam((runId) => runId === 'mine');
  const heard: string[] = [];
  checkpoints.onRecorded((r) => heard.push(`${r.runId}:${r.checkpoint.turn}`));
  void checkpoints.boundary('mine', [repo.dir]);
  void checkpoints.boundary('mine', [repo.dir, undefined]);
  assert.equal(await checkpoints.boundary('theirs', [repo.dir]), undefined);
  await checkpoints.settled();
  assert.deepEqual(heard, ['mine:0', 'mine:1']);
  assert.equal(existsSync(fileCheckpointFileOf(journalDirOf({ storageDir: storage, connectionId: 'acp:ref' }), 'mine')), true, 'beside the journal');
  assert.equal(repo.git('for-each-ref', 'refs/agent-switchboard/').toString().trim().split('\n').length, 2);

  await checkpoints.removeRun('mine');
  assert.equal(repo.git('for-each-ref', 'refs/agent-switchboard/').toString(), '');
});

test('no folder: no checkpoint; a root that cannot be snapshotted: a warning and a checkpoint saying why', async () => {
  const { checkpoints, warnings } = seam(() => true);
  assert.equal(await checkpoints.boundary('r', [undefined, '']), undefined);
  const missing = join(tmpdir(), 'sb-no-such-folder-for-turn-checkpoints');
  const checkpoint = await checkpoints.boundary('r', [missing]);
  assert.deepEqual(checkpoint?.trees, []);
  assert.equal(checkpoint?.unavailable[0]?.root, missing);
  assert.match(warnings.join('\n'), /No checkpoint of .*sb-no-such-folder-for-turn-checkpoints for r: .*not a folder/);
});
