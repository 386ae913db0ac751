/**
 * Issue #25 for live runs: after a window reload, an idle AgencyProxy run this window owns comes back from its
 * checkpoint's head — fields, counts, sequence and the driver's books, no transcript — and is attached after the
 * sequence it holds; opening it restores the transcript it had, and news for it (the user writes) restores it first,
 * then folds and acknowledges what comes. Anything else is replayed whole, as before: another window's run, a
 * summary of another moment, a journal with news after its checkpoint, a damaged checkpoint.
 */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { driverSetup, markWritersDead, quietLog, until } from '../driverKit';
import { startDaemon } from './agencyProxyKit';
import type { DaemonFixture } from './agencyProxyKit';

/** One editor window on the daemon (`windowId`: who it is across its reloads), with the frames it sent. */
async function openWindow(fx: DaemonFixture, windowId = 'window-A', storage = path.join(fx.dir, 'storage')) {
  const frames: { type?: string; run_id?: string; through_sequence?: number; after_sequence?: number }[] = [];
  const warnings: string[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'quiet', protocol: 'agency-proxy', socketPath: fx.socketPath }, storage, {
    log: { ...quietLog, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) },
    tap: (dir, frame) => dir === 'out' && frames.push(frame as never),
  });
  const driver = new AgencyProxyDriver({ ...ctx, windowId });
  await driver.connect();
  await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  const run = (runId: string) => store.state.runs.get(runKeyOf(connectionId, runId));
  const sent = (type: string, runId: string) => frames.filter((f) => f.type === type && f.run_id === runId);
  return { store, connectionId, driver, frames, warnings, run, sent };
}
type Window = Awaited<ReturnType<typeof openWindow>>;

async function reload(fx: DaemonFixture, w: Window, windowId = 'window-A'): Promise<Window> {
  await w.driver.flushStorage();
  await w.driver.dispose();
  return openWindow(fx, windowId);
}

/** What the user sees of a run's transcript (item ids are per window). */
function items(store: RunStore, connectionId: string, runId: string) {
  return store.transcript(runKeyOf(connectionId, runId))?.snapshot().map(({ id: _id, ...rest }) => rest);
}

const latest = (fx: DaemonFixture, runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)?.latestSequence ?? -1;
const acked = (fx: DaemonFixture, runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)?.acknowledgedSequence ?? -1;

/** A long interactive run (over the kit's 2,000 records, so it has a checkpoint) that answered and waits. */
async function idleLongRun(fx: DaemonFixture, w: Window): Promise<string> {
  const runId = await w.driver.startRun({ prompt: 'long steps:1500 notools', provider: 'claude', model: '', workspaceRoots: [fx.workspace], approvals: false, interactive: true });
  await until('answered and acked', () => w.run(runId)?.state === 'idle' && (w.run(runId)?.itemCount ?? 0) >= 1500 && acked(fx, runId) === latest(fx, runId));
  await w.driver.checkpoints.settled();
  return runId;
}

/** The run's files in the window's storage (journal, checkpoint). */
function fileOf(fx: DaemonFixture, runId: string, ext: string): string {
  const dir = path.join(fx.dir, 'storage', 'transcripts');
  const found = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((f) => f.includes(runId) && f.endsWith(ext));
  assert.ok(found, `no ${ext} file of ${runId}`);
  return path.join(dir, found);
}

test('an idle run this window owns comes back without its transcript, attached after what it holds; opening it or writing to it restores it first', { timeout: 120_000 }, async () => {
  const fx = await startDaemon({ chunkDelayMs: 0 });
  let w = await openWindow(fx);
  try {
    const runId = await idleLongRun(fx, w);
    const before = items(w.store, w.connectionId, runId)!;
    const { lastSequence, itemCount } = w.run(runId)!;

    w = await reload(fx, w);
    await until('re-attached', () => w.sent('attach_run', runId).length > 0);
    const quiet = w.run(runId)!;
    assert.equal(quiet.state, 'idle', 'waits for the next message, as before the reload');
    assert.notEqual(quiet.unloaded, undefined, 'shown from its checkpoint head');
    assert.equal(w.store.transcript(quiet.key), undefined, 'no transcript in memory');
    assert.deepEqual([quiet.itemCount, quiet.lastSequence], [itemCount, lastSequence]);
    assert.ok(quiet.unloaded?.lastLine, 'the board has its last line');
    assert.deepEqual(w.sent('attach_run', runId).map((f) => f.after_sequence), [lastSequence], 'attached after what it holds');
    assert.equal(await w.driver.history!.release(runId), false, 'a live run is never released');

    // A second reload, the run never opened (the first one journaled the daemon's restated fields): quiet again.
    w = await reload(fx, w);
    await until('re-attached again', () => w.sent('attach_run', runId).length > 0);
    assert.notEqual(w.run(runId)?.unloaded, undefined, 'still shown without its transcript');
    assert.equal(w.run(runId)?.state, 'idle');

    await w.driver.history!.load(runId);
    assert.deepEqual(items(w.store, w.connectionId, runId), before, 'opened: the transcript it had');
    assert.equal(w.run(runId)?.unloaded, undefined);
    assert.equal(w.run(runId)?.state, 'idle', 'opened, it still waits (its index entry says running: AgencyProxy infers idle)');

    // Written to without being opened (a third reload first): the news waits for the transcript, then folds after it.
    w = await reload(fx, w);
    await until('re-attached a third time', () => w.sent('attach_run', runId).length > 0 && w.run(runId)?.unloaded !== undefined);
    await w.driver.sendMessage(runId, 'And once more notools');
    await until('answered again', () => w.run(runId)?.state === 'idle' && (w.run(runId)?.lastSequence ?? 0) > lastSequence && acked(fx, runId) === latest(fx, runId));
    const after = items(w.store, w.connectionId, runId)!;
    assert.deepEqual(after.slice(0, before.length), before, 'the transcript it had, then the new turn');
    assert.ok(after.length > before.length);
    assert.equal(w.run(runId)?.lastSequence, latest(fx, runId));
    assert.ok(w.sent('ack_events', runId).every((f) => (f.through_sequence ?? 0) > lastSequence), 'only the new events acknowledged');
    assert.deepEqual(w.warnings.filter((m) => /checkpoint|unreadable/.test(m)), []);
  } finally {
    await w.driver.dispose();
    await fx.cleanup();
  }
});

test('an idle run comes back whole when it cannot come back quiet: a summary of another moment, news after its checkpoint, a damaged checkpoint, another window', { timeout: 180_000 }, async () => {
  const fx = await startDaemon({ chunkDelayMs: 0 });
  let w = await openWindow(fx);
  try {
    const runId = await idleLongRun(fx, w);
    const before = items(w.store, w.connectionId, runId)!;
    const restored = (): Promise<unknown> => until('restored', () => w.run(runId)?.state === 'idle' && w.sent('attach_run', runId).length > 0);
    /** Each case is checked against a plain reload first: quiet, so what the case changes is what loads it whole. */
    const quietAfterReload = async (): Promise<void> => {
      w = await reload(fx, w);
      await restored();
      assert.notEqual(w.run(runId)?.unloaded, undefined, 'a plain reload brings it back quiet');
      await w.driver.flushStorage();
      await w.driver.dispose();
    };
    const loadedWhole = async (why: string, windowId = 'window-A'): Promise<void> => {
      w = await openWindow(fx, windowId);
      await restored();
      assert.equal(w.run(runId)?.unloaded, undefined, why);
      assert.deepEqual(items(w.store, w.connectionId, runId), before, why);
    };
    const transcripts = path.join(fx.dir, 'storage', 'transcripts');
    const indexFile = (name: string): string => path.join(path.dirname(fileOf(fx, runId, '.ckpt')), name);

    // A summary of another moment (a window that did not close cleanly): the checkpoint's head is not trusted with it.
    await quietAfterReload();
    const index = readFileSync(indexFile('runs.json'), 'utf8');
    writeFileSync(indexFile('runs.json'), index.replace(/"lastSequence":(\d+)/, (_, n: string) => `"lastSequence":${Number(n) - 1}`));
    rmSync(indexFile('runs.head.json'), { force: true }); // the digest of the index: made again from it
    await loadedWhole('a summary of another moment');

    // News after the checkpoint (its last event line again: overlap, dropped by its sequence).
    await quietAfterReload();
    const journal = fileOf(fx, runId, '.jsonl');
    const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
    appendFileSync(journal, `${[...lines].reverse().find((l) => l.includes('"event"'))!}\n`);
    await loadedWhole('news after the checkpoint');

    // A damaged checkpoint: said so, and the journal replayed whole.
    await quietAfterReload();
    const checkpoint = fileOf(fx, runId, '.ckpt');
    const bytes = readFileSync(checkpoint);
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    writeFileSync(checkpoint, bytes);
    await loadedWhole('a damaged checkpoint');
    assert.ok(w.warnings.some((m) => /checkpoint was not used/.test(m)), w.warnings.join('\n'));

    // Another editor window of this machine does not own the run: it follows it whole, as before.
    await quietAfterReload();
    await loadedWhole('another window', 'window-B');
    assert.ok(readdirSync(transcripts).length > 0);
  } finally {
    await w.driver.dispose();
    await fx.cleanup();
  }
});

test('a window killed before it closed leaves its idle run\'s checkpoint and summary of one moment: the next window brings it back quiet', { timeout: 120_000 }, async () => {
  const fx = await startDaemon({ chunkDelayMs: 0 });
  const w = await openWindow(fx);
  let next: Window | undefined;
  try {
    const runId = await idleLongRun(fx, w);
    const before = items(w.store, w.connectionId, runId)!;
    const { lastSequence } = w.run(runId)!;
    // The checkpoint is taken once the run is quiet (2 s); its summary is saved with it, not only when the window closes.
    const summaryOnDisk = (): number | undefined => {
      const file = path.join(path.dirname(fileOf(fx, runId, '.jsonl')), 'runs.json');
      const entry = (JSON.parse(readFileSync(file, 'utf8')) as { runId: string; summary?: { lastSequence?: number } }[]).find((r) => r.runId === runId);
      return entry?.summary?.lastSequence;
    };
    const transcripts = path.join(fx.dir, 'storage', 'transcripts');
    const checkpointed = (): boolean => readdirSync(transcripts, { recursive: true, encoding: 'utf8' }).some((f) => f.includes(runId) && f.endsWith('.ckpt'));
    await until('the run checkpoint and its summary on disk', () => checkpointed() && summaryOnDisk() === lastSequence, 20_000);
    await w.driver.flushStorage();
    // The extension host dies here: its files as they are now, its leases left behind.
    const copy = path.join(fx.dir, 'after-crash');
    cpSync(path.join(fx.dir, 'storage'), copy, { recursive: true });
    markWritersDead(copy);
    next = await openWindow(fx, 'window-A', copy);
    await until('re-attached', () => next!.sent('attach_run', runId).length > 0 && next!.run(runId)?.state === 'idle');
    assert.notEqual(next.run(runId)?.unloaded, undefined, 'back from its checkpoint head');
    await next.driver.history!.load(runId);
    assert.deepEqual(items(next.store, next.connectionId, runId), before);
  } finally {
    await next?.driver.dispose();
    await w.driver.dispose();
    await fx.cleanup();
  }
});
