/**
 * Two editor windows of one machine on one reference AgencyProxy daemon, sharing one storage directory (issue #25
 * §1): each is a driver with its own store, window id and frame tap, in this process. Each run's journal has one
 * writer (every sequence once, in order, after several reloads of each window); only the window that owns a run
 * acks it (counted per window from what each sends); neither window shows a run's closing notice twice; the run index
 * keeps both windows' runs; a window learns of the other's new run from the journal directory without a refresh;
 * and a window takes a run's journal over from a writer whose host died (a lease with a dead pid).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { leaseFileOf } from '../../../../extension/storage/runWriterLease';
import { until } from '../driverKit';
import { startDaemon } from './agencyProxyKit';
import { acked, assertOnceInOrder, closingNotices, journalDir, journaledSequences, latest, openWindow, reload, runOf } from './twoWindowsKit';
import type { AckBook, Window } from './twoWindowsKit';

test('two windows, one journal writer per run: every sequence once after reloads of both, acks only from the owner, one closing notice, both runs indexed', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  const acksA: AckBook = new Map();
  const acksB: AckBook = new Map();
  let a = await openWindow(fx, storage, 'window-A', acksA);
  let b = await openWindow(fx, storage, 'window-B', acksB);
  try {
    const chat = await a.driver.startRun({ prompt: 'long:120 notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: true });
    await until('A: the first answer ended', () => runOf(a, chat)?.state === 'idle');
    await until('B follows A\'s run', () => runOf(b, chat)?.lastSequence === latest(fx, chat));
    const oneShot = await b.driver.startRun({ prompt: 'notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
    await until('B: its run completed', () => runOf(b, oneShot)?.state === 'completed' && closingNotices(b.store, oneShot) === 1);
    await until('A follows B\'s run', () => runOf(a, oneShot)?.state === 'completed');

    for (let round = 0; round < 3; round++) {
      a = await reload(fx, storage, a, acksA);
      await until(`A (${round}) back at the run's end`, () => runOf(a, chat)?.lastSequence === latest(fx, chat));
      await a.driver.sendMessage(chat, `long:40 notools round ${round}`);
      await until(`A (${round}) answered`, () => runOf(a, chat)?.state === 'idle' && runOf(a, chat)?.lastSequence === latest(fx, chat));
      await until(`B (${round}) followed`, () => runOf(b, chat)?.lastSequence === latest(fx, chat));
      b = await reload(fx, storage, b, acksB);
      await until(`B (${round}) back at the run's end`, () => runOf(b, chat)?.lastSequence === latest(fx, chat) && runOf(b, oneShot)?.state === 'completed');
    }
    await until('A acked its run through what it stored', () => acked(fx, chat) === latest(fx, chat));
    await Promise.all([a.driver.flushStorage(), b.driver.flushStorage()]);

    assertOnceInOrder(journaledSequences(storage, chat), latest(fx, chat), 'A\'s run');
    assertOnceInOrder(journaledSequences(storage, oneShot), latest(fx, oneShot), 'B\'s run');
    assert.equal(acksB.get(chat) ?? 0, 0, 'B never acks A\'s run');
    assert.equal(acksA.get(oneShot) ?? 0, 0, 'A never acks B\'s run');
    assert.ok((acksA.get(chat) ?? 0) > 0 && (acksB.get(oneShot) ?? 0) > 0, 'each window acks its own run');
    assert.equal(a.driver.ownsRun(chat), true);
    assert.equal(b.driver.ownsRun(chat), false);
    // The one-shot run had ended before the last reloads: each window shows it from its summary until it is opened.
    await Promise.all([a.driver.history.load(oneShot), b.driver.history.load(oneShot)]);
    assert.equal(closingNotices(a.store, oneShot), 1, 'A shows B\'s run completed once');
    assert.equal(closingNotices(b.store, oneShot), 1, 'B shows its run completed once after its reloads');
    const indexed = (JSON.parse(readFileSync(path.join(journalDir(storage), 'runs.json'), 'utf8')) as { runId: string }[]).map((r) => r.runId);
    assert.deepEqual(indexed.filter((id) => id === chat || id === oneShot).sort(), [chat, oneShot].sort(), 'the index keeps both windows\' runs');
  } finally {
    await Promise.all([a.driver.dispose(), b.driver.dispose()]);
    await fx.cleanup();
  }
});

test('a window learns of the other\'s new run from the journal directory, and loads it from that journal', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  const acks: AckBook = new Map();
  const a = await openWindow(fx, storage, 'window-A', acks);
  const b = await openWindow(fx, storage, 'window-B', acks);
  try {
    const runId = await a.driver.startRun({ prompt: 'long:60 notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
    await until('A: completed', () => runOf(a, runId)?.state === 'completed');
    // No refresh and no poll in this test: only the watch of the directory can tell B.
    await until('B shows A\'s run, completed', () => runOf(b, runId)?.state === 'completed' && runOf(b, runId)?.lastSequence === latest(fx, runId));
    await Promise.all([a.driver.flushStorage(), b.driver.flushStorage()]);
    assertOnceInOrder(journaledSequences(storage, runId), latest(fx, runId), 'A\'s run');
  } finally {
    await Promise.all([a.driver.dispose(), b.driver.dispose()]);
    await fx.cleanup();
  }
});

test('a window takes a run\'s journal over from a writer whose host died, and goes on from where the file ends', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  const acksA: AckBook = new Map();
  const acksB: AckBook = new Map();
  const a = await openWindow(fx, storage, 'window-A', acksA);
  let b = await openWindow(fx, storage, 'window-B', acksB);
  try {
    const runId = await a.driver.startRun({ prompt: 'long:30 notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: true });
    await until('A answered', () => runOf(a, runId)?.state === 'idle' && runOf(a, runId)?.lastSequence === latest(fx, runId));
    await until('B follows it', () => runOf(b, runId)?.lastSequence === latest(fx, runId));
    await a.driver.flushStorage();
    await a.driver.dispose();
    // A's extension host "crashed" holding the lease: a lease of a process that no longer runs.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(leaseFileOf(journalDir(storage), runId), JSON.stringify({ pid: dead, window: 'window-A', token: 'crashed', since: 1 }));
    const before = latest(fx, runId);

    // B asks again at its next record once it sees the lease change (or PROBE_MS later). It takes the journal over
    // live when the file ends where B's model stands; if B folded events before it asked (the file does not have
    // them), it lets the lease go and stays a reader, and its next reload replays the file and continues it.
    const leaseOf = () => JSON.parse(readFileSync(leaseFileOf(journalDir(storage), runId), 'utf8')) as { window: string; pid: number; releasedAt?: number };
    const bHolds = (): boolean => leaseOf().window === 'window-B' && leaseOf().releasedAt === undefined;
    const answer = async (text: string, w: Window): Promise<void> => {
      const from = latest(fx, runId);
      await w.driver.sendMessage(runId, text);
      await until('B answered', () => runOf(w, runId)?.state === 'idle' && latest(fx, runId) > from && runOf(w, runId)?.lastSequence === latest(fx, runId));
    };
    await answer('long:30 notools after the crash', b);
    if (!bHolds()) {
      b = await reload(fx, storage, b, acksB);
      await until('B back at the run\'s end', () => runOf(b, runId)?.lastSequence === latest(fx, runId));
    }
    await answer('long:30 notools once more', b);
    assert.ok(bHolds(), 'B writes the run');
    assert.ok(latest(fx, runId) > before);
    await until('B acks the run it took over, through what it stored', () => acked(fx, runId) === latest(fx, runId));
    await b.driver.flushStorage();
    assertOnceInOrder(journaledSequences(storage, runId), latest(fx, runId), 'the run');
    assert.equal(b.driver.ownsRun(runId), true, 'ownership moved with the journal');
    const lease = leaseOf();
    assert.deepEqual([lease.window, lease.pid], ['window-B', process.pid]);
    assert.ok(!readdirSync(journalDir(storage)).some((f) => f.endsWith('.stale')), 'the stale lease was removed');
  } finally {
    await b.driver.dispose();
    await fx.cleanup();
  }
});
