/**
 * A live takeover when the reading window has folded events the old writer never stored (issue #25 §1): window A
 * writes a run's journal; its host stops holding the lease while window B, a reader, folds an answer A never
 * journaled; then A's lease turns out dead and B takes the run over at its next record. B's journal must then hold
 * every sequence exactly once, in order — the events only B had seen included — B's acks may cover only what it
 * stored, and B shows the run as a fresh window reading that journal does.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { leaseFileOf } from '../../../../extension/storage/runWriterLease';
import { until } from '../driverKit';
import { startDaemon } from './agencyProxyKit';
import { acked, assertOnceInOrder, connectionId, journalDir, journaledSequences, latest, openWindow, runOf } from './twoWindowsKit';
import type { AckBook, Window } from './twoWindowsKit';

/** What a window shows of the run: each item's kind and text, in order (ids and times differ between windows). */
function shown(store: RunStore, runId: string): string[] {
  return (store.transcript(runKeyOf(connectionId, runId))?.snapshot() ?? []).map((item) => `${item.kind}:${'text' in item ? item.text : ''}`);
}

test('a reader that folded events the old writer never stored takes the journal over live: every sequence once, acks through what it stored', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  const acksA: AckBook = new Map();
  const acksB: AckBook = new Map();
  const a = await openWindow(fx, storage, 'window-A', acksA);
  const b = await openWindow(fx, storage, 'window-B', acksB);
  let fresh: Window | undefined;
  try {
    const runId = await a.driver.startRun({ prompt: 'long:30 notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: true });
    await until('A answered', () => runOf(a, runId)?.state === 'idle' && runOf(a, runId)?.lastSequence === latest(fx, runId));
    await until('B follows it', () => runOf(b, runId)?.lastSequence === latest(fx, runId));
    await until('A acked what it stored', () => acked(fx, runId) === latest(fx, runId));
    await a.driver.flushStorage();
    const stored = latest(fx, runId);
    const leaseFile = leaseFileOf(journalDir(storage), runId);
    const leaseA = readFileSync(leaseFile, 'utf8');
    // A's host stops journaling but its lease still looks alive (its pid runs): B stays a reader while it folds the
    // next answer live, which A never stores.
    await a.driver.dispose();
    writeFileSync(leaseFile, leaseA);
    const from = latest(fx, runId);
    await b.driver.sendMessage(runId, 'long:30 notools while A is gone');
    await until('B folded the answer A never stored', () => latest(fx, runId) > from && runOf(b, runId)?.state === 'idle' && runOf(b, runId)?.lastSequence === latest(fx, runId));
    assert.deepEqual(journaledSequences(storage, runId).at(-1), stored, 'the journal ends where A stopped');
    const unstored = latest(fx, runId);

    // Now A's lease is a dead host's: B takes the run over at its next record, though its model is ahead of the file.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(leaseFile, JSON.stringify({ ...(JSON.parse(leaseA) as object), pid: dead, token: 'crashed' }));
    const next = latest(fx, runId);
    await b.driver.sendMessage(runId, 'long:30 notools after the takeover');
    await until('B answered', () => latest(fx, runId) > next && runOf(b, runId)?.state === 'idle' && runOf(b, runId)?.lastSequence === latest(fx, runId));
    const lease = JSON.parse(readFileSync(leaseFile, 'utf8')) as { window: string; releasedAt?: number };
    assert.equal(lease.window, 'window-B', 'B writes the run');
    assert.equal(lease.releasedAt, undefined);
    await until('B acks the run through what it stored', () => acked(fx, runId) === latest(fx, runId));
    await b.driver.flushStorage();
    assertOnceInOrder(journaledSequences(storage, runId), latest(fx, runId), 'the run (with what only B had folded)');
    assert.ok(unstored > stored);
    assert.equal(acksB.get(runId) !== undefined, true, 'B acks the run it took over');

    // What B shows is what its journal says: a fresh window (a reload of another one) reads the same run.
    fresh = await openWindow(fx, storage, 'window-C', new Map());
    await until('C shows the run', () => runOf(fresh!, runId)?.lastSequence === latest(fx, runId));
    await fresh.driver.history.load(runId);
    assert.deepEqual(shown(b.store, runId), shown(fresh.store, runId));
    assert.equal(runOf(b, runId)?.itemCount, runOf(fresh, runId)?.itemCount);
  } finally {
    await Promise.all([b.driver.dispose(), fresh?.driver.dispose()]);
    await fx.cleanup();
  }
});
