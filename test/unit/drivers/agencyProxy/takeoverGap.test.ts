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

interface Gap {
  readonly fx: Awaited<ReturnType<typeof startDaemon>>;
  readonly storage: string;
  readonly b: Window;
  readonly acksB: AckBook;
  readonly runId: string;
  /** The last sequence A stored, and the last B folded that A never stored. */
  readonly stored: number;
  readonly unstored: number;
  readonly leaseFile: string;
}

/**
 * A starts a run and stores its first answer; A's host stops journaling while its lease still looks alive, and B (a
 * reader) folds a second answer live that A never stores; then A's lease becomes a dead host's.
 */
async function readerAheadOfJournal(): Promise<Gap> {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  const acksB: AckBook = new Map();
  const a = await openWindow(fx, storage, 'window-A', new Map());
  const b = await openWindow(fx, storage, 'window-B', acksB);
  const runId = await a.driver.startRun({ prompt: 'long:30 notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: true });
  await until('A answered', () => runOf(a, runId)?.state === 'idle' && runOf(a, runId)?.lastSequence === latest(fx, runId));
  await until('B follows it', () => runOf(b, runId)?.lastSequence === latest(fx, runId));
  await until('A acked what it stored', () => acked(fx, runId) === latest(fx, runId));
  await a.driver.flushStorage();
  const stored = latest(fx, runId);
  const leaseFile = leaseFileOf(journalDir(storage), runId);
  const leaseA = readFileSync(leaseFile, 'utf8');
  await a.driver.dispose();
  writeFileSync(leaseFile, leaseA); // its pid still runs: B stays a reader
  const from = latest(fx, runId);
  await b.driver.sendMessage(runId, 'long:30 notools while A is gone');
  await until('B folded the answer A never stored', () => latest(fx, runId) > from && runOf(b, runId)?.state === 'idle' && runOf(b, runId)?.lastSequence === latest(fx, runId));
  assert.deepEqual(journaledSequences(storage, runId).at(-1), stored, 'the journal ends where A stopped');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(leaseFile, JSON.stringify({ ...(JSON.parse(leaseA) as object), pid: dead, token: 'crashed' }));
  return { fx, storage, b, acksB, runId, stored, unstored: latest(fx, runId), leaseFile };
}

const leaseOf = (g: Gap): { window: string; releasedAt?: number } => JSON.parse(readFileSync(g.leaseFile, 'utf8')) as { window: string; releasedAt?: number };

/** B writes the run, its journal holds every sequence once, B acked through it, and a fresh window shows what B shows. */
async function assertTakenOver(g: Gap): Promise<void> {
  const { fx, storage, b, runId } = g;
  // The takeover is written when B records what it folded, which may come after B's store shows the answer.
  await until('B writes the run', () => leaseOf(g).window === 'window-B');
  assert.equal(leaseOf(g).releasedAt, undefined);
  await until('B acks the run through what it stored', () => acked(fx, runId) === latest(fx, runId));
  // The last turn's file checkpoint marker is journaled when its snapshot is done, after the turn's events.
  await b.driver.checkpoints.settled();
  await b.driver.flushStorage();
  assertOnceInOrder(journaledSequences(storage, runId), latest(fx, runId), 'the run (with what only B had folded)');
  assert.ok(g.unstored > g.stored);
  assert.ok((g.acksB.get(runId) ?? 0) > 0, 'B acks the run it took over');
  const fresh = await openWindow(fx, storage, 'window-C', new Map());
  try {
    await until('C shows the run', () => runOf(fresh, runId)?.lastSequence === latest(fx, runId));
    await fresh.driver.history.load(runId);
    assert.deepEqual(shown(b.store, runId), shown(fresh.store, runId), 'B shows what its journal says');
  } finally {
    await fresh.driver.dispose();
  }
}

test('a reader that folded events the old writer never stored takes the journal over live at its next record: every sequence once, acks through what it stored', async () => {
  const g = await readerAheadOfJournal();
  try {
    // B notices its writer is gone through the directory watch (debounced, so not timed here) or its next probe
    // (every PROBE_MS): an answer streamed before either comes is folded without being written. B takes the run
    // over at its first record after noticing — so the test asks again until a record came after it noticed.
    for (let turn = 0; turn < 10 && leaseOf(g).window !== 'window-B'; turn++) {
      const next = latest(g.fx, g.runId);
      await g.b.driver.sendMessage(g.runId, `long:30 notools after the takeover (${turn})`);
      await until('B answered', () => latest(g.fx, g.runId) > next && runOf(g.b, g.runId)?.state === 'idle' && runOf(g.b, g.runId)?.lastSequence === latest(g.fx, g.runId));
    }
    await assertTakenOver(g);
  } finally {
    await g.b.driver.dispose();
    await g.fx.cleanup();
  }
});

test('adopting such a run takes its journal over the same way, once the run is read back', async () => {
  const g = await readerAheadOfJournal();
  try {
    await g.b.driver.adoptRun(g.runId);
    assert.equal(g.b.driver.ownsRun(g.runId), true);
    await until('B is back at the run\'s end', () => runOf(g.b, g.runId)?.lastSequence === latest(g.fx, g.runId));
    await assertTakenOver(g);
  } finally {
    await g.b.driver.dispose();
    await g.fx.cleanup();
  }
});
