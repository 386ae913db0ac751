/**
 * Chaos: the A3S harness goes away (its address stops answering, live requests are cut) and comes back, three times
 * at seeded moments of a streaming run. Each time paging must resume from the last held sequence, and at the end
 * the transcript holds every event exactly once with no gap. Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { A3sDriver } from '../../../extension/drivers/a3s/a3sDriver';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { A3sHarness } from '../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { driverSetup, quietLog, until } from '../drivers/driverTestKit';
import { Random, suiteSeed } from '../fuzz/fuzzKit';
import { FlakyProxy } from './flakyProxy';

const SEED = suiteSeed(0xa3);
const OUTAGES = 3;

interface Traced {
  readonly dir: 'in' | 'out';
  readonly path?: string;
  readonly frame: unknown;
}

test(`the A3S harness goes away and back ${OUTAGES} times mid-run: paging resumes after the last held event, nothing doubled (seed ${SEED})`, { timeout: 60_000 }, async () => {
  const random = new Random(SEED);
  const base = mkdtempSync(join(tmpdir(), 'a3sc-'));
  const workspace = mkdtempSync(join(base, 'ws-'));
  const harness = new A3sHarness({ workspace, gitInit: true, stepMs: 12, captureMs: 30 });
  await harness.start();
  const upstream = new URL(harness.url);
  const proxy = new FlakyProxy({ host: '127.0.0.1', port: 0 }, { host: '127.0.0.1', port: Number(upstream.port) });
  await proxy.comeBack();
  const traced: Traced[] = [];
  const { store, connectionId, ctx } = driverSetup(
    { name: 'chaos', protocol: 'a3s', url: `http://127.0.0.1:${proxy.port}`, releaseIdentity: DEFAULT_RELEASE },
    join(base, 'storage'),
    { log: quietLog, tap: (dir, frame, http) => traced.push({ dir, frame, ...(http ? { path: http.path } : {}) }) },
  );
  const driver = new A3sDriver(ctx, { healthIntervalMs: 50, pollActiveMs: 5, pollMaxMs: 40, reconnectBaseMs: 20, changeSetInitialDelayMs: 20, changeSetMaxDelayMs: 80 });
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    const runId = await driver.startRun({ prompt: 'many chunks', workspaceRoots: [] });
    const key = runKeyOf(connectionId, runId);
    const held = (): number => store.state.runs.get(key)?.lastSequence ?? 0;
    for (let outage = 1; outage <= OUTAGES; outage++) {
      const target = held() + random.int(5, 30);
      await until(`outage ${outage}: events up to ${target}`, () => held() >= target, 20_000);
      await proxy.goAway();
      await until(`outage ${outage}: the driver notices`, () => store.state.connections.get(connectionId)?.state.kind !== 'connected', 5_000);
      await new Promise((r) => setTimeout(r, random.int(150, 600)));
      const heldAtReturn = held();
      const mark = traced.length;
      await proxy.comeBack();
      await until(`outage ${outage}: reconnected`, () => store.state.connections.get(connectionId)?.state.kind === 'connected', 10_000);
      const firstPage = await until(`outage ${outage}: paging resumes`, () =>
        traced.slice(mark).find((t) => t.dir === 'out' && t.path === '/v1/agent/events:page'));
      assert.equal(
        (firstPage.frame as { after_event_sequence: number | null }).after_event_sequence,
        heldAtReturn - 1,
        `outage ${outage}: paging resumes after the last held event (model sequence ${heldAtReturn} = wire ${heldAtReturn - 1})`,
      );
    }
    await until('the run completes', () => store.state.runs.get(key)?.state === 'completed', 30_000);
    const items = store.transcript(key)!.snapshot();
    const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
    for (let i = 0; i < 150; i++) {
      assert.equal(text.split(`chunk ${i} `).length, 2, `chunk ${i} exactly once`);
    }
    assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'no gap');
    assert.equal(items.filter((i) => i.kind === 'user').length, 1, 'the prompt once');
    assert.equal(held(), harness.getRun(runId)!.events.length, 'every harness event, once');
    assert.ok(proxy.accepted > OUTAGES, 'the driver came back through the proxy');
  } finally {
    await driver.disconnect();
    driver.dispose();
    await proxy.goAway();
    await harness.stop();
    rmSync(base, { recursive: true, force: true });
  }
});
