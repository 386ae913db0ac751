/**
 * Writer leases and the merged run index (storage/runWriterLease.ts, runIndexFile.ts; issue #25 §1): one journal
 * per run appends, another is refused; a released lease is its window's again at once and another window's only
 * after the grace; a lease of a dead pid is taken over; two journals saving runs in one directory keep each other's
 * entries; removeRun deletes the run's files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RunJournal } from '../../../extension/storage/runJournal';
import { leaseFileOf, readLease } from '../../../extension/storage/runWriterLease';

const id = (window: string, token: string) => ({ pid: process.pid, window, token });

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'lease-'));
}

test('one journal per run appends; the other is refused until the lease is released, then waits out the grace unless it is the same window', async () => {
  const dir = tempDir();
  try {
    const a = new RunJournal(dir, id('A', 'a1'));
    const b = new RunJournal(dir, id('B', 'b1'));
    assert.equal((await a.takeLease('r')).kind, 'taken');
    assert.equal((await b.takeLease('r')).kind, 'held elsewhere');
    await a.append('r', { q: 1 });
    await assert.rejects(b.append('r', { q: 2 }), /another window/);
    await a.close();
    assert.equal(typeof (await readLease(dir, 'r'))?.releasedAt, 'number', 'released, not deleted');
    assert.equal((await b.takeLease('r', 60_000)).kind, 'held elsewhere', 'another window waits out the grace');
    const a2 = new RunJournal(dir, id('A', 'a2'));
    const taken = await a2.takeLease('r', 60_000);
    assert.equal(taken.kind, 'taken', 'the same window (its reload) takes its lease back at once');
    assert.equal(taken.kind === 'taken' ? taken.previous?.token : undefined, 'a1');
    await a2.append('r', { q: 2 });
    await a2.close();
    assert.equal((await b.takeLease('r', 0)).kind, 'taken', 'after the grace, anyone');
    await b.append('r', { q: 3 });
    await b.close();
    const lines = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!), 'utf8').trim().split('\n');
    assert.deepEqual(lines.map((l) => (JSON.parse(l) as { q: number }).q), [1, 2, 3]);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('a lease whose process died is taken over at once; a closed journal takes no lease back', async () => {
  const dir = tempDir();
  try {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(leaseFileOf(dir, 'r'), JSON.stringify({ pid: dead, window: 'A', token: 'gone', since: 1 }));
    const b = new RunJournal(dir, id('B', 'b1'));
    const taken = await b.takeLease('r', 60_000);
    assert.equal(taken.kind, 'taken');
    assert.equal(taken.kind === 'taken' ? taken.previous?.pid : undefined, dead);
    assert.deepEqual(readdirSync(dir).filter((f) => !f.endsWith('.lease')), [], 'nothing left aside');
    await b.close();
    await assert.rejects(b.takeLease('other'), /closed/);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});

test('two windows saving runs into one index keep each other\'s entries; removeRun deletes the run\'s files', async () => {
  const dir = tempDir();
  try {
    const a = new RunJournal(dir, id('A', 'a'));
    const b = new RunJournal(dir, id('B', 'b'));
    await Promise.all([a.loadRuns(), b.loadRuns()]); // both read the (empty) index before either writes
    await Promise.all(Array.from({ length: 20 }, (_, i) => [
      a.saveRun({ runId: `a${i}`, title: 'A', state: 'running', createdAt: i }),
      b.saveRun({ runId: `b${i}`, title: 'B', state: 'running', createdAt: i }),
    ]).flat());
    const onDisk = (JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { runId: string }[]).map((r) => r.runId).sort();
    assert.equal(onDisk.length, 40);
    assert.deepEqual((await new RunJournal(dir).loadRuns()).length, 40);
    assert.equal((await b.reloadRuns()).length, 40, 'a window sees the other\'s runs once it reads the index again');

    await a.takeLease('a0');
    await a.append('a0', { q: 1 });
    const refused = await b.removeRun('a0');
    assert.equal(refused.kind, 'held elsewhere', 'not while another window writes it');
    assert.equal(refused.kind === 'held elsewhere' ? refused.holder.window : undefined, 'A', 'and it says which window does');
    assert.equal((await a.removeRun('a0')).kind, 'removed');
    assert.ok(!existsSync(leaseFileOf(dir, 'a0')));
    assert.ok(!readdirSync(dir).some((f) => f.endsWith('.jsonl')), 'its journal is gone');
    assert.ok(!(await b.reloadRuns()).some((r) => r.runId === 'a0'));
    await Promise.all([a.close(), b.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});
