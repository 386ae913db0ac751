/** The per-run checkpoint list: written whole, read leniently, and only by the window holding the run's lease. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FileCheckpointLedger, fileCheckpointFileOf } from '../../../extension/storage/fileCheckpointLedger';
import { releaseLease, takeLease } from '../../../extension/storage/runWriterLease';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-ledger-'));
  dirs.push(dir);
  return dir;
}

const me = { pid: process.pid, window: 'window-a', token: 'journal-a' };
const other = { pid: process.pid, window: 'window-b', token: 'journal-b' };

test('only the holder of the run’s writer lease may write its checkpoints', async () => {
  const dir = tempDir();
  const mine = new FileCheckpointLedger(dir, me);
  const theirs = new FileCheckpointLedger(dir, other);
  assert.equal(await mine.mayWrite('run/1'), false, 'no lease yet: nobody writes');
  assert.equal((await takeLease(dir, 'run/1', me, Date.now())).kind, 'taken');
  assert.equal(await mine.mayWrite('run/1'), true);
  assert.equal(await theirs.mayWrite('run/1'), false);
  await mine.write('run/1', { version: 1, checkpoints: [] });
  await assert.rejects(theirs.write('run/1', { version: 1, checkpoints: ['x'] }), /another window/);
  assert.deepEqual(await theirs.read('run/1'), { version: 1, checkpoints: [] }, 'every window reads');
  await releaseLease(dir, 'run/1', me, Date.now());
  assert.equal(await mine.mayWrite('run/1'), false, 'a released lease writes nothing');
});

test('a damaged list reads as none, and removal deletes the file', async () => {
  const dir = tempDir();
  const ledger = new FileCheckpointLedger(dir);
  writeFileSync(fileCheckpointFileOf(dir, 'r'), '{"version":1,"checkp');
  assert.equal(await ledger.read('r'), undefined);
  await ledger.write('r', { version: 1, checkpoints: [] });
  assert.deepEqual(await ledger.read('r'), { version: 1, checkpoints: [] });
  await ledger.remove('r');
  assert.equal(await ledger.read('r'), undefined);
});
