/**
 * Chaos, daemon alive: a fault-injecting proxy sits between the driver and the reference AgencyProxy daemon. At
 * seeded byte offsets it splits the daemon's stream into tiny pieces, delays it, stalls it, and cuts it (often
 * inside a frame); it also splits and delays what the driver sends; and at seeded transcript positions it drops the
 * connection outright. The daemon never restarts, so every run survives: when the run ends, the transcript must be
 * exactly what the daemon published (its record): same text, reasoning, tool calls and last sequence; no gap,
 * nothing doubled. Every step waits for a state. Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { journalSummary, modelSummary } from '../drivers/agencyProxy/agencyProxyTranscriptCheck';
import { driverSetup, quietLog, until } from '../drivers/driverKit';
import { Random, suiteSeed } from '../fuzz/fuzzKit';
import { FlakyProxy, SeededFaults } from './flakyProxy';

const SEED = suiteSeed(0x5eed0c);
const DROPS = 8;

test(`connection cuts with the daemon alive (split, delay, stall, cut, ${DROPS} drops): transcript = daemon record (seed ${SEED})`, { timeout: 150_000 }, async () => {
  const random = new Random(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'apc-'));
  const daemonPath = join(dir, 'd.sock');
  const recordDir = join(dir, 'record');
  const daemon = new ReferenceAgencyProxy({ socketPath: daemonPath, recordDir, workspace: dir, chunkDelayMs: 2 });
  await daemon.start();
  const faults = new SeededFaults(random, { down: ['split', 'delay', 'stall', 'cut'], up: ['split', 'delay'] }, [500, 6000]);
  const proxy = new FlakyProxy({ path: join(dir, 'p.sock') }, { path: daemonPath }, faults);
  await proxy.comeBack();
  const { store, connectionId, ctx } = driverSetup({ name: 'cuts', protocol: 'agency-proxy', socketPath: join(dir, 'p.sock') }, join(dir, 'storage'), { log: quietLog });
  const driver = new AgencyProxyDriver(ctx);
  const connected = (): boolean => store.state.connections.get(connectionId)?.state.kind === 'connected';
  try {
    await driver.connect();
    await until('connected', connected);
    // A long one-shot run (reasoning, a Read tool call, 2500 text chunks): it outlasts every fault.
    const runId = await driver.startRun({ prompt: 'long:2500', provider: 'claude', workspaceRoots: [dir], approvals: false, interactive: false });
    const key = runKeyOf(connectionId, runId);
    const held = (): number => store.state.runs.get(key)?.lastSequence ?? 0;
    // Drop points fixed up front, inside the run (about 2,510 events): picked from the driver's progress instead, a
    // slow reconnect on a busy machine let the run near its end and the next target lay past its last event ("timed
    // out: drop 7: events up to 2527"). A point the run has already passed drops at once.
    const targets = Array.from({ length: DROPS }, () => random.int(100, 2_300)).sort((a, b) => a - b);
    faults.enabled = true;
    for (let drop = 1; drop <= DROPS; drop++) {
      const target = targets[drop - 1]!;
      await until(`drop ${drop}: events up to ${target}`, () => held() >= target, 60_000);
      const acceptedBefore = proxy.accepted;
      proxy.drop();
      await until(`drop ${drop}: reconnected through the proxy`, () => proxy.accepted > acceptedBefore && connected(), 30_000);
    }
    // The snapshot says `completed` as soon as a reconnect lists the run; the replay after it is what must finish.
    const latest = (): number | undefined => daemon.snapshots().find((r) => r.runId === runId)?.latestSequence;
    await until('the run completes and is folded to its end', () => store.state.runs.get(key)?.state === 'completed' && held() === latest(), 120_000);
    assert.deepEqual(modelSummary(store, key), journalSummary(recordDir, runId));
    const items = store.transcript(key)!.snapshot();
    assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'no gap');
    assert.equal(items.filter((i) => i.kind === 'user').length, 1, 'the prompt once');
    assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'unique item ids');
    // The faults really happened (a quiet proxy would make this test prove nothing).
    for (const kind of ['split', 'delay', 'stall', 'cut'] as const) {
      assert.ok(faults.counts[kind] > 0, `${kind} happened (${JSON.stringify(faults.counts)}, seed ${SEED})`);
    }
    assert.ok(proxy.accepted > DROPS, `reconnected after every drop and cut (${proxy.accepted} connections)`);
    assert.equal(daemon.connectionCount > 0, true, 'the daemon stayed up throughout');
  } finally {
    await driver.dispose();
    await proxy.goAway();
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});
