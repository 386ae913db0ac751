/**
 * Issue #25 §2 for AgencyProxy: after a window reload a finished run comes back from its index summary — no
 * transcript, no approvals in memory — and is replayed when it is opened; what acting on it needs comes back at
 * connect from its index entry all the same: it is continued in a new run (its provider session) without being
 * opened, and adopting a run another client started loads it first, so its acks cover exactly what its journal holds.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { driverSetup, quietLog, until } from '../driverKit';
import { collectUntil, startDaemon } from './agencyProxyKit';
import type { DaemonFixture } from './agencyProxyKit';

/** One editor window on the daemon, with the frames it sent. */
async function openWindow(fx: DaemonFixture) {
  const frames: { type?: string; run_id?: string; through_sequence?: number; request?: { resumeSessionId?: string | null } }[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'lazy', protocol: 'agency-proxy', socketPath: fx.socketPath }, path.join(fx.dir, 'storage'), {
    log: quietLog,
    tap: (dir, frame) => dir === 'out' && frames.push(frame as never),
  });
  const driver = new AgencyProxyDriver({ ...ctx, windowId: 'window-A' });
  await driver.connect();
  await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  const run = (runId: string) => store.state.runs.get(runKeyOf(connectionId, runId));
  const acks = (runId: string) => frames.filter((f) => f.type === 'ack_events' && f.run_id === runId);
  return { store, connectionId, driver, frames, run, acks };
}
type Window = Awaited<ReturnType<typeof openWindow>>;

async function reload(fx: DaemonFixture, w: Window): Promise<Window> {
  await w.driver.flushStorage();
  await w.driver.dispose();
  return openWindow(fx);
}

/** What the user sees of a run's transcript (item ids are per window). */
function items(store: RunStore, connectionId: string, runId: string) {
  return store.transcript(runKeyOf(connectionId, runId))?.snapshot().map(({ id: _id, ...rest }) => rest);
}

const latest = (fx: DaemonFixture, runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)?.latestSequence ?? -1;
const acked = (fx: DaemonFixture, runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)?.acknowledgedSequence ?? -1;

test('a finished run comes back from its summary; opening replays the transcript it had (once), releasing drops it; it is continued unopened', async () => {
  const fx = await startDaemon();
  let w = await openWindow(fx);
  try {
    const done = await w.driver.startRun({ prompt: 'notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
    const chat = await w.driver.startRun({ prompt: 'chat notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: true });
    await until('the one-shot run completed', () => w.run(done)?.state === 'completed' && acked(fx, done) === latest(fx, done));
    await until('the chat answered', () => w.run(chat)?.state === 'idle');
    const before = items(w.store, w.connectionId, done);
    const lastSequence = w.run(done)!.lastSequence;
    assert.ok(before && before.length > 1);

    w = await reload(fx, w);
    const summarized = w.run(done)!;
    assert.equal(summarized.state, 'completed');
    assert.notEqual(summarized.unloaded, undefined, 'shown from its summary');
    assert.equal(w.store.transcript(summarized.key), undefined, 'no transcript in memory');
    assert.deepEqual([summarized.itemCount, summarized.lastSequence], [before.length, lastSequence], 'the summary counts what the transcript held');
    assert.equal(w.run(chat)?.unloaded, undefined, 'a run still going is loaded whole at connect');
    assert.ok(items(w.store, w.connectionId, chat)!.length > 0);

    await Promise.all([w.driver.history!.load(done), w.driver.history!.load(done)]);
    assert.deepEqual(items(w.store, w.connectionId, done), before, 'opened: the transcript it had');
    assert.equal(w.run(done)!.lastSequence, lastSequence);
    assert.equal(await w.driver.history!.release(done), true);
    assert.equal(w.store.transcript(summarized.key), undefined, 'released: the transcript left memory');
    assert.notEqual(w.run(done)!.unloaded, undefined);
    assert.equal(await w.driver.history!.release(chat), false, 'a run still going is never released');

    // Continued without being opened: its provider session came back from the index entry.
    const next = await w.driver.continueInNewRun(done, { prompt: 'go on notools', interactive: false });
    const start = w.frames.find((f) => f.type === 'start_run');
    assert.equal(start?.request?.resumeSessionId, `sess-${done}`);
    await until('the continuation completed', () => w.run(next)?.state === 'completed');
    assert.notEqual(w.run(done)!.unloaded, undefined, 'continuing it did not load it');
  } finally {
    await w.driver.dispose();
    await fx.cleanup();
  }
});

test('a finished run of another client comes back from its summary unacked; adopting it loads it and acks what its journal holds', async () => {
  const fx = await startDaemon();
  let w = await openWindow(fx);
  try {
    const gui = await fx.connect();
    const finished = collectUntil(gui, 'gui-run', (e) => e.event.type === 'finished');
    await gui.startRun('gui-run', { provider: 'claude', prompt: 'notools', permission: 'edit', approvals: false, interactive: false, workspaceRoots: [fx.workspace] });
    await gui.attachRun('gui-run', 0);
    await finished;
    await w.driver.refresh(); // the editor learns of another client's run from the daemon's run list
    await until('the editor followed it to its end', () => w.run('gui-run')?.state === 'completed' && w.run('gui-run')?.lastSequence === latest(fx, 'gui-run'));
    await w.driver.checkpoints.settled(); // the terminal event's file checkpoint marker is part of the transcript too
    const before = items(w.store, w.connectionId, 'gui-run');

    w = await reload(fx, w);
    assert.notEqual(w.run('gui-run')?.unloaded, undefined, 'shown from its summary');
    assert.equal(w.driver.ownsRun('gui-run'), false, 'observed: its owner came back from the index entry');
    await w.driver.refresh();
    assert.deepEqual([w.acks('gui-run').length, acked(fx, 'gui-run')], [0, 0], 'an observed run is never acked');

    await w.driver.adoptRun('gui-run');
    assert.deepEqual(items(w.store, w.connectionId, 'gui-run'), before, 'adopting loaded it first');
    await until('acked through what its journal holds', () => acked(fx, 'gui-run') === latest(fx, 'gui-run'));
    assert.ok(w.acks('gui-run').every((f) => (f.through_sequence ?? 0) <= latest(fx, 'gui-run')));

    w = await reload(fx, w);
    assert.equal(w.driver.ownsRun('gui-run'), true, 'the adoption came back from the index entry');
    assert.notEqual(w.run('gui-run')?.unloaded, undefined);
  } finally {
    await w.driver.dispose();
    await fx.cleanup();
  }
});

test('a removed run stays removed while the daemon still lists it, and the driver forgets what it kept of it', async () => {
  const fx = await startDaemon();
  const w = await openWindow(fx);
  try {
    const done = await w.driver.startRun({ prompt: 'notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
    await until('completed and acked', () => w.run(done)?.state === 'completed' && acked(fx, done) === latest(fx, done));
    assert.equal(w.driver.ownsRun(done), true);
    const attachesBefore = w.frames.filter((f) => f.type === 'attach_run' && f.run_id === done).length;

    assert.equal(await w.driver.history!.remove(done), 'removed');
    assert.equal(w.run(done), undefined);
    assert.equal(w.driver.ownsRun(done), false, 'its owner is forgotten');
    // The daemon still lists the finished run: the next sync neither shows it again nor attaches or journals it.
    await w.driver.refresh();
    assert.equal(w.run(done), undefined, 'not brought back by the run list');
    assert.equal(w.frames.filter((f) => f.type === 'attach_run' && f.run_id === done).length, attachesBefore, 'not attached again');
    assert.equal(await w.driver.history!.load(done), undefined);
    await w.driver.flushStorage();
    assert.deepEqual((await w.driver.history!.archived()).map((stored) => stored.runId), [], 'nothing of it in the index');
  } finally {
    await w.driver.dispose();
    await fx.cleanup();
  }
});
