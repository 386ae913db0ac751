/**
 * A reload reproduces a finished AgencyProxy run exactly: the restored run has the model the daemon named and the
 * transcript the first window showed, closing "Run completed" line included — whether or not the daemon is there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { driverSetup, loudLog, until } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'apr-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

function makeDriver(socketPath: string, storageDir: string) {
  const { store, connectionId, ctx } = driverSetup({ name: 'replay', protocol: 'agency-proxy', socketPath }, storageDir, { log: loudLog });
  return { store, driver: new AgencyProxyDriver(ctx), connectionId };
}

/** What a user sees of a run: its fields and its transcript items without their ids. */
function seen(store: RunStore, key: string) {
  const run = store.state.runs.get(key)!;
  const items = store.transcript(key)!.snapshot().map(({ id: _id, ...rest }) => rest);
  return { title: run.title, provider: run.provider, model: run.model, state: run.state, items };
}

for (const daemonAfterReload of [true, false]) {
  test(`a finished run comes back with its model and its whole transcript (daemon ${daemonAfterReload ? 'still there' : 'gone'})`, async () => {
    const dir = mkdtempSync(join(base, 'r'));
    const socketPath = join(dir, 'ap.sock');
    const storage = join(dir, 'storage');
    const daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir });
    await daemon.start();
    const first = makeDriver(socketPath, storage);
    let second: ReturnType<typeof makeDriver> | undefined;
    try {
      await first.driver.connect();
      await until('connected', () => first.store.state.connections.get(first.connectionId)?.state.kind === 'connected');
      const runId = await first.driver.startRun({ prompt: 'say hello notools', provider: 'claude', model: '', workspaceRoots: [dir], approvals: false, interactive: false });
      const key = runKeyOf(first.connectionId, runId);
      await until('completed', () => first.store.state.runs.get(key)?.state === 'completed');
      await until('the closing line', () => first.store.transcript(key)!.snapshot().some((i) => i.kind === 'notice' && i.state === 'completed'));
      await first.driver.checkpoints.settled(); // the terminal event's file checkpoint marker
      const before = seen(first.store, key);
      assert.ok(before.model, 'the daemon named the model');
      await first.driver.dispose();
      if (!daemonAfterReload) {
        await daemon.stop();
      }
      second = makeDriver(socketPath, storage);
      void second.driver.connect();
      const restored = await until('restored', () => second!.store.state.runs.get(key));
      // A finished run comes back from its summary (issue #25 §2; with the daemon still there, its news may load it
      // first); opening it replays its transcript, whole once the closing line is back.
      await second.driver.history.load(runId);
      await until('the closing line restored', () => second!.store.transcript(key)?.snapshot().some((i) => i.kind === 'notice' && i.state === 'completed'));
      if (daemonAfterReload) {
        await until('connected again', () => second!.store.state.connections.get(second!.connectionId)?.state.kind === 'connected');
      }
      // The state shown is the one the index keeps, set once the replay closed the run.
      await until('the stored state restored', () => second!.store.state.runs.get(key)?.state === before.state);
      await second.driver.flushStorage();
      assert.ok(restored);
      assert.deepEqual(seen(second.store, key), before);
    } finally {
      await first.driver.dispose();
      await second?.driver.dispose();
      await daemon.stop().catch(() => undefined);
    }
  });
}

test('a long interactive run comes back from its checkpoint as a whole replay brings it back, and re-attaches', async () => {
  const dir = mkdtempSync(join(base, 'c'));
  const socketPath = join(dir, 'ap.sock');
  const storage = join(dir, 'storage');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir, chunkDelayMs: 0 });
  await daemon.start();
  const warnings: string[] = [];
  const make = () => {
    const { store, connectionId, ctx } = driverSetup({ name: 'replay', protocol: 'agency-proxy', socketPath }, storage, { log: { ...loudLog, warn: (m) => warnings.push(m) } });
    return { store, driver: new AgencyProxyDriver(ctx), connectionId };
  };
  const drivers: ReturnType<typeof make>[] = [];
  try {
    const first = make();
    drivers.push(first);
    await first.driver.connect();
    await until('connected', () => first.store.state.connections.get(first.connectionId)?.state.kind === 'connected');
    // 1,500 steps: over 3,000 journal records (the kit checkpoints runs of 2,000 and more).
    const runId = await first.driver.startRun({ prompt: 'long steps:1500 notools', provider: 'claude', model: '', workspaceRoots: [dir], approvals: false, interactive: true });
    const key = runKeyOf(first.connectionId, runId);
    await until('answered', () => first.store.state.runs.get(key)?.state === 'idle' && first.store.state.runs.get(key)!.itemCount >= 1500);
    await first.driver.checkpoints.settled(); // the message boundary's file checkpoint marker
    const before = seen(first.store, key);
    await first.driver.dispose(); // a window reload closes every connection: the checkpoint is written then
    const checkpoints = () => readdirSync(join(storage, 'transcripts'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ckpt'));
    assert.equal(checkpoints().length, 1);

    for (const whole of [false, true]) {
      if (whole) {
        checkpoints().forEach((f) => rmSync(join(storage, 'transcripts', f)));
      }
      const next = make();
      drivers.push(next);
      let patches = 0;
      next.store.onDidPatch((event) => (patches += event.runKey === key ? 1 : 0));
      void next.driver.connect();
      await until('re-attached', () => next.store.state.connections.get(next.connectionId)?.state.kind === 'connected' && next.store.state.runs.get(key)?.state === 'idle');
      await next.driver.flushStorage();
      // From its checkpoint an idle run of this window comes back without its transcript (kit/quietRuns.ts): opened.
      assert.equal(next.store.state.runs.get(key)!.unloaded === undefined, whole);
      await next.driver.history.load(runId);
      assert.deepEqual(seen(next.store, key), before, whole ? 'a whole replay' : 'from the checkpoint');
      assert.equal(next.store.state.runs.get(key)!.lastSequence, first.store.state.runs.get(key)!.lastSequence);
      // Restored whole from the checkpoint (no patch per item), or item by item.
      assert.ok(whole ? patches > 1500 : patches < 10, `${patches} patches`);
      await next.driver.dispose();
    }
    assert.deepEqual(warnings.filter((w) => /checkpoint/.test(w)), []);
  } finally {
    for (const d of drivers) {
      await d.driver.dispose();
    }
    await daemon.stop().catch(() => undefined);
  }
});
