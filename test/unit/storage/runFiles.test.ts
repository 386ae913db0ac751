/**
 * A run's files (storage/runFiles.ts) and what the journal keeps of their size (issue #25 §2): removal leaves
 * nothing of the run in its directory — journal, checkpoint, lease, takeover lock, a driver's cache, temporary files —
 * and touches no other run's files, not even one whose id starts the same; every index entry a journal writes
 * carries the run's size on disk, and entries written before sizes were kept are measured once and stored.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { safeFileName } from '../../../extension/storage/runFileName';
import { removeRunFiles, runDataBytes, runFileNames } from '../../../extension/storage/runFiles';
import { RunJournal } from '../../../extension/storage/runJournal';

const base = mkdtempSync(join(tmpdir(), 'runfiles-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

/** Every kind of file a run has had beside its journal, with `bytes` bytes each. */
function filesOf(dir: string, runId: string, bytes = 10): string[] {
  const name = safeFileName(runId);
  const names = [`${name}.jsonl`, `${name}.ckpt`, `${name}.lease`, `${name}.lease.takeover`, `${name}.changes.json`, `${name}.ckpt.123.tmp`, `${name}.changes.json.123.tmp`, `${name}.lease.123.ab12cd34.tmp`];
  names.forEach((file) => writeFileSync(join(dir, file), 'x'.repeat(bytes)));
  return names;
}

test('removing a run deletes every file of it and nothing else', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  filesOf(dir, 'r1');
  const others = [...filesOf(dir, 'r10'), ...filesOf(dir, 'r1 '), 'runs.json'];
  writeFileSync(join(dir, 'runs.json'), '[]');
  assert.equal((await runFileNames(dir, 'r1')).length, 8);
  await removeRunFiles(dir, 'r1');
  assert.deepEqual(readdirSync(dir).sort(), others.sort(), 'only the other runs\' files (and the index) are left');
  await removeRunFiles(join(dir, 'missing'), 'r1'); // no directory: nothing to do, no error
});

test('a run\'s size is its journal, checkpoint and cached change set, not its lease or temporary files', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  filesOf(dir, 'r', 100);
  assert.equal(await runDataBytes(dir, 'r'), 300);
  assert.equal(await runDataBytes(dir, 'r', 7), 207, 'a journal length the caller knows is taken as it is');
  assert.equal(await runDataBytes(dir, 'none'), 0);
});

test('every entry a journal saves carries the run\'s size; older entries are measured once, their fields kept', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  const journal = new RunJournal(dir);
  await journal.append('a', { q: 1, text: 'hello' });
  await journal.saveRun({ runId: 'a', title: 'A', state: 'completed', createdAt: 1 });
  const written = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { runId: string; bytes?: number }[];
  const size = readFileSync(join(dir, `${safeFileName('a')}.jsonl`)).length;
  assert.ok(size > 0);
  assert.equal(written[0]!.bytes, size);
  await journal.close();

  // An index of before sizes were kept, with a run that has a checkpoint too.
  writeFileSync(join(dir, 'runs.json'), JSON.stringify([{ runId: 'a', title: 'A', state: 'completed', createdAt: 1, extra: { k: 1 } }, { runId: 'b', title: 'B', state: 'completed', createdAt: 2, bytes: 5 }]));
  writeFileSync(join(dir, `${safeFileName('a')}.ckpt`), 'c'.repeat(50));
  const later = new RunJournal(dir);
  const measured = await later.measuredRuns();
  assert.deepEqual(measured.map((run) => [run.runId, run.bytes]), [['a', size + 50], ['b', 5]], 'a measured, b as its entry says');
  const onDisk = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { runId: string; bytes?: number; extra?: unknown }[];
  assert.deepEqual(onDisk.map((run) => [run.runId, run.bytes]), [['a', size + 50], ['b', 5]], 'and stored');
  assert.deepEqual(onDisk[0]!.extra, { k: 1 }, 'the entry\'s other fields are kept');
  await later.close();
});

test('a run another window writes is not removed, and the refusal names that window', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  const a = new RunJournal(dir, { pid: process.pid, window: 'wa', token: 'a', name: 'my-project' });
  const b = new RunJournal(dir, { pid: process.pid, window: 'wb', token: 'b', name: 'other' });
  await a.takeLease('r');
  await a.append('r', { q: 1 });
  const refused = await b.removeRun('r');
  assert.equal(refused.kind, 'held elsewhere');
  assert.equal(refused.kind === 'held elsewhere' ? refused.holder.name : undefined, 'my-project');
  assert.ok(readdirSync(dir).some((name) => name.endsWith('.jsonl')), 'its journal is still there');
  await Promise.all([a.close(), b.close()]);
});
