/**
 * Chaos: the A3S harness goes away (its address stops answering, live requests are cut) and comes back, three times
 * at seeded points of a streaming run. Each time paging must resume from the last held sequence, and at the end
 * the transcript holds every event exactly once with no gap. Replay a failure with FUZZ_SEED=<seed>.
 *
 * Every step waits for a state, never for time: the harness runs with zero latency and is parked at seeded event
 * counts (`holdEventsAt`), so "mid-run" and "events produced while the editor was away" are facts the test sets up,
 * not races against the harness's clock that a busy machine loses. (The earlier version let the harness emit on a
 * 12 ms timer and picked its next target from the driver's progress; on a loaded machine the run had nearly ended by
 * outage 3 and the target lay past its last event: "timed out: outage 3: events up to 179" of 177.)
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { A3sDriver } from '../../../extension/drivers/a3s/a3sDriver';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { safeFileName } from '../../../extension/storage/runJournal';
import { A3sHarness } from '../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { removeWhenQuiet } from '../drivers/a3s/a3sDriverKit';
import { driverSetup, quietLog, until } from '../drivers/driverKit';
import { Random, suiteSeed } from '../fuzz/fuzzKit';
import { FlakyProxy } from './flakyProxy';

const SEED = suiteSeed(0xa3);
const OUTAGES = 3;

interface Traced {
  readonly dir: 'in' | 'out';
  readonly path?: string;
  readonly frame: unknown;
}

/** Per outage: the event count the harness is parked at when the editor loses it, and the count it reaches while away. */
function outagePlan(random: Random): { readonly before: number; readonly during: number }[] {
  const plan: { before: number; during: number }[] = [];
  let at = 0;
  for (let i = 0; i < OUTAGES; i++) {
    const before = at + random.int(5, 20);
    const during = before + random.int(5, 20);
    plan.push({ before, during });
    at = during;
  }
  // A `many` run has 177 events; every point stays well before its end (at most 120 here).
  return plan;
}

/**
 * The resume cursor the driver has recorded in its run index: it moves once an event is durably journaled (after
 * fsync), and the index is written coalesced. Reading it proves the driver's cursor has got at least that far.
 */
function indexedCursor(storage: string, connectionId: string, runId: string): number | null | undefined {
  const file = join(storage, 'transcripts', safeFileName(connectionId), 'runs.json');
  if (!existsSync(file)) {
    return undefined; // written by rename, so never seen half-written
  }
  const runs = JSON.parse(readFileSync(file, 'utf8')) as { runId: string; extra?: { a3s?: { cursor?: number | null } } }[];
  return runs.find((r) => r.runId === runId)?.extra?.a3s?.cursor;
}

test(`the A3S harness goes away and back ${OUTAGES} times mid-run: paging resumes after the last held event, nothing doubled (seed ${SEED})`, { timeout: 60_000 }, async () => {
  const random = new Random(SEED);
  const plan = outagePlan(random);
  const base = mkdtempSync(join(tmpdir(), 'a3sc-'));
  const workspace = mkdtempSync(join(base, 'ws-'));
  const storage = join(base, 'storage');
  const harness = new A3sHarness({ workspace, gitInit: true, zeroLatency: true });
  await harness.start();
  const upstream = new URL(harness.url);
  const proxy = new FlakyProxy({ host: '127.0.0.1', port: 0 }, { host: '127.0.0.1', port: Number(upstream.port) });
  await proxy.comeBack();
  const traced: Traced[] = [];
  const { store, connectionId, ctx } = driverSetup(
    { name: 'chaos', protocol: 'a3s', url: `http://127.0.0.1:${proxy.port}`, releaseIdentity: DEFAULT_RELEASE },
    storage,
    { log: quietLog, tap: (dir, frame, http) => traced.push({ dir, frame, ...(http ? { path: http.path } : {}) }) },
  );
  const driver = new A3sDriver(ctx, { healthIntervalMs: 50, pollActiveMs: 5, pollMaxMs: 40, reconnectBaseMs: 20, changeSetInitialDelayMs: 20, changeSetMaxDelayMs: 80 });
  const connection = () => store.state.connections.get(connectionId)?.state;
  try {
    await driver.connect();
    await until('connected', () => connection()?.kind === 'connected');
    harness.holdEventsAt(plan[0]!.before);
    const runId = await driver.startRun({ prompt: 'many chunks', workspaceRoots: [] });
    const key = runKeyOf(connectionId, runId);
    const held = (): number => store.state.runs.get(key)?.lastSequence ?? 0;
    const harnessEvents = (): number => harness.getRun(runId)?.events.length ?? 0;
    for (const [i, { before, during }] of plan.entries()) {
      const outage = i + 1;
      await until(`outage ${outage}: the editor holds the ${before} events the harness is parked at`, () => held() === before);
      await proxy.goAway();
      await until(`outage ${outage}: the driver notices`, () => connection()?.kind !== 'connected');
      // While the editor cannot reach it the harness moves on: these events must be paged after the return.
      harness.holdEventsAt(during);
      await until(`outage ${outage}: the harness reaches ${during} events meanwhile`, () => harnessEvents() === during);
      // The outage lasts some failed reconnect attempts (a count, not a span of wall time).
      const attempts = random.int(2, 4);
      await until(`outage ${outage}: ${attempts - 1} reconnect attempt(s) fail`, () => {
        const s = connection();
        return s?.kind === 'reconnecting' && s.attempt >= attempts;
      });
      const heldAtReturn = held();
      assert.equal(heldAtReturn, before, `outage ${outage}: nothing was read while away`);
      // Paging resumes from the last *durably* journaled event (a reload must not skip what was never stored), so
      // "after the last held event" holds once the driver's cursor has reached it: wait for that, not for fsync.
      await until(`outage ${outage}: the driver's cursor reaches the last held event`, () => indexedCursor(storage, connectionId, runId) === heldAtReturn - 1);
      const mark = traced.length;
      await proxy.comeBack();
      await until(`outage ${outage}: reconnected`, () => connection()?.kind === 'connected');
      const firstPage = await until(`outage ${outage}: paging resumes`, () =>
        traced.slice(mark).find((t) => t.dir === 'out' && t.path === '/v1/agent/events:page'));
      assert.equal(
        (firstPage.frame as { after_event_sequence: number | null }).after_event_sequence,
        heldAtReturn - 1,
        `outage ${outage}: paging resumes after the last held event (model sequence ${heldAtReturn} = wire ${heldAtReturn - 1})`,
      );
      await until(`outage ${outage}: the events produced meanwhile arrive`, () => held() === during);
      harness.holdEventsAt(plan[i + 1]?.before);
    }
    await until('the run completes', () => store.state.runs.get(key)?.state === 'completed');
    const items = store.transcript(key)!.snapshot();
    const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
    for (let i = 0; i < 150; i++) {
      assert.equal(text.split(`chunk ${i} `).length, 2, `chunk ${i} exactly once`);
    }
    assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'no gap');
    assert.equal(items.filter((i) => i.kind === 'user').length, 1, 'the prompt once');
    assert.equal(held(), harnessEvents(), 'every harness event, once');
    assert.ok(proxy.accepted > OUTAGES, 'the driver came back through the proxy');
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await proxy.goAway();
    await harness.stop();
    await removeWhenQuiet(base);
  }
});
