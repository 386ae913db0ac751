/**
 * A run the person removed never comes back (issue #25 §2 follow-up), against the reference daemon, which like the
 * real one lists every run since it started and forgets them all when it restarts (WIRE.md 1.9): after a window
 * reload the daemon still lists the removed run, and the editor neither shows, attaches, journals nor indexes it (no
 * action of the run reaches the store: no tree row, board row or notification); a second window that showed it drops
 * it and never writes it back; after a daemon restart the daemon no longer lists it and its id is forgotten.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import type { ModelAction } from '../../../../extension/model/modelActions';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { safeFileName } from '../../../../extension/storage/runFileName';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { driverSetup, quietLog, until } from '../driverKit';
import { startDaemon } from './agencyProxyKit';
import type { DaemonFixture } from './agencyProxyKit';

const NAME = 'removal';
const connectionId = `agency-proxy:${NAME}`;

/** One editor window (a new extension host after each reload: same window id, same storage), with what it sent and dispatched. */
async function openWindow(fx: DaemonFixture, storage: string, windowId: string) {
  const frames: { type?: string; run_id?: string }[] = [];
  const told: string[] = [];
  const { store, ctx } = driverSetup({ name: NAME, protocol: 'agency-proxy', socketPath: fx.socketPath }, storage, {
    log: quietLog,
    tap: (dir, frame) => dir === 'out' && frames.push(frame as never),
  });
  const actions: ModelAction[] = [];
  const dispatch = store.dispatch.bind(store);
  store.dispatch = (action) => (actions.push(action), dispatch(action));
  const driver = new AgencyProxyDriver({ ...ctx, windowId, runRemoved: (runKey) => void told.push(runKey) });
  await driver.connect();
  await until(`${windowId} connected`, () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  const shows = (runId: string): boolean => store.state.runs.has(runKeyOf(connectionId, runId));
  /** Actions of the run that reached the store (anything the tree, the board or a notification could show). */
  const actionsOf = (runId: string) => actions.filter((a) => JSON.stringify(a).includes(runId));
  return { store, driver, frames, told, windowId, shows, actionsOf };
}
type Window = Awaited<ReturnType<typeof openWindow>>;

async function reload(fx: DaemonFixture, storage: string, w: Window): Promise<Window> {
  await w.driver.flushStorage();
  await w.driver.dispose();
  return openWindow(fx, storage, w.windowId);
}

const dirOf = (storage: string): string => path.join(storage, 'transcripts', safeFileName(connectionId));
const indexed = (storage: string): string[] => (JSON.parse(readFileSync(path.join(dirOf(storage), 'runs.json'), 'utf8')) as { runId: string }[]).map((r) => r.runId);
const removedIds = (storage: string): string[] => {
  const file = path.join(dirOf(storage), 'removed.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: [string, number][] }).runs.map(([id]) => id) : [];
};
const filesOf = (storage: string, runId: string): string[] => readdirSync(dirOf(storage)).filter((name) => name.startsWith(`${safeFileName(runId)}.`));
const listed = (fx: { daemon: ReferenceAgencyProxy }, runId: string): boolean => fx.daemon.snapshots().some((r) => r.runId === runId);

async function finishedRun(fx: DaemonFixture, w: Window, prompt = 'notools'): Promise<string> {
  const runId = await w.driver.startRun({ prompt, provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
  await until('the run completed and was acked', () => {
    const snapshot = fx.daemon.snapshots().find((r) => r.runId === runId);
    return w.store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'completed' && snapshot !== undefined && snapshot.acknowledgedSequence === snapshot.latestSequence;
  });
  await w.driver.checkpoints.settled();
  return runId;
}

test('removed, then reloaded twice while the daemon still lists it: never shown, attached, journaled or indexed again', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  let w = await openWindow(fx, storage, 'window-A');
  try {
    const gone = await finishedRun(fx, w);
    const kept = await finishedRun(fx, w);
    assert.equal(await w.driver.history.remove(gone), 'removed');
    assert.deepEqual(w.told, [runKeyOf(connectionId, gone)]);

    for (let round = 0; round < 2; round++) {
      w = await reload(fx, storage, w);
      await w.driver.refresh(); // and once more, as the view's poll does
      assert.equal(listed(fx, gone), true, `(${round}) the daemon still lists it`);
      assert.equal(w.shows(kept), true, `(${round}) the other run is back`);
      assert.equal(w.shows(gone), false, `(${round}) the removed run is not`);
      assert.deepEqual(w.actionsOf(gone), [], `(${round}) nothing of it reached the store (no row, no notification)`);
      assert.deepEqual(w.frames.filter((f) => f.run_id === gone), [], `(${round}) no frame about it was sent (no attach, no ack)`);
      assert.deepEqual(await w.driver.history.archived(), [], `(${round}) Search Run History does not offer it`);
    }
    await w.driver.flushStorage();
    assert.equal(indexed(storage).includes(gone), false, 'not in the run index');
    assert.deepEqual(filesOf(storage, gone), [], 'no file of it');
    assert.deepEqual(removedIds(storage), [gone]);

    // A new run (a different id) is shown as ever.
    const fresh = await finishedRun(fx, w);
    assert.equal(w.shows(fresh), true);
  } finally {
    await w.driver.dispose();
    await fx.cleanup();
  }
});

test('a removal in window A keeps the run out of window B: B drops it, never indexes or journals it, and neither window shows it after reloads', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  let a = await openWindow(fx, storage, 'window-A');
  let b = await openWindow(fx, storage, 'window-B');
  try {
    const runId = await finishedRun(fx, a);
    await until('B shows A\'s run, completed', () => b.store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'completed');
    assert.equal(await a.driver.history.remove(runId), 'removed');
    // No refresh: the journal directory's watch tells B, which drops it (and its editor forgets its draft and tab).
    await until('B dropped the run', () => !b.shows(runId));
    assert.deepEqual(b.told, [runKeyOf(connectionId, runId)]);
    await b.driver.refresh();
    assert.equal(b.shows(runId), false, 'the daemon\'s list does not bring it back to B');
    await Promise.all([a.driver.flushStorage(), b.driver.flushStorage()]);
    b = await reload(fx, storage, b); // B saves every run's summary as it closes
    a = await reload(fx, storage, a);
    assert.equal(indexed(storage).includes(runId), false, 'neither window put it back in the index');
    assert.deepEqual(filesOf(storage, runId), [], 'nor wrote a file of it');
    assert.equal(a.shows(runId) || b.shows(runId), false, 'neither window shows it after its reload');
    assert.deepEqual([...a.actionsOf(runId), ...b.actionsOf(runId)], []);
  } finally {
    await Promise.all([a.driver.dispose(), b.driver.dispose()]);
    await fx.cleanup();
  }
});

test('after a daemon restart the removed id is no longer listed and is forgotten; a run of the new daemon with that id is shown', async () => {
  const fx = await startDaemon();
  const storage = path.join(fx.dir, 'global');
  mkdirSync(storage);
  const w = await openWindow(fx, storage, 'window-A');
  let restarted: ReferenceAgencyProxy | undefined;
  try {
    const gone = await finishedRun(fx, w);
    assert.equal(await w.driver.history.remove(gone), 'removed');
    await w.driver.refresh();
    assert.deepEqual(removedIds(storage), [gone], 'kept while the daemon lists it');

    await fx.daemon.stop(); // a restart loses every run (WIRE.md 1.9)
    restarted = new ReferenceAgencyProxy({ socketPath: fx.socketPath, chunkDelayMs: 1 });
    await restarted.start();
    await until('reconnected to the new daemon', () => w.frames.filter((f) => f.type === 'hello').length === 2 && w.store.state.connections.get(connectionId)?.state.kind === 'connected');
    await w.driver.refresh();
    await until('the id is forgotten', () => !removedIds(storage).includes(gone));

    // Another client starts a run that happens to reuse the id on the new daemon: it is a new run, shown.
    const gui = await fx.connect();
    await gui.startRun(gone, { provider: 'claude', prompt: 'notools', permission: 'edit', approvals: false, interactive: false, workspaceRoots: [fx.workspace] });
    await w.driver.refresh();
    await until('the new run is shown', () => w.shows(gone));
  } finally {
    await w.driver.dispose();
    await restarted?.stop();
    await fx.cleanup();
  }
});
