/**
 * Chaos, daemon restarts: the reference AgencyProxy daemon (a real child process) is SIGKILLed at seeded points of a
 * streaming run and restarted each time. Like the real daemon it keeps runs in memory only, so the restarted daemon
 * knows no runs (WIRE.md 1.9). The driver must reconnect within 2 s of each restart (measured from the new daemon
 * listening to the connection state `connected`), mark the run lost with its transcript kept exactly as far as it
 * got (equal to the daemon's record up to there; no gap, nothing doubled), and continue it in a new run that resumes
 * the same provider session (`resumeSessionId`); that run is killed in turn, and the last one streams to its end.
 * Connection cuts with the daemon alive are agencyProxyCuts.test.ts. Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { driverSetup, quietLog, until } from '../drivers/driverKit';
import { Random, suiteSeed } from '../fuzz/fuzzKit';
import { killHard, spawnAgencyProxy } from './agencyProxyProcess';
import type { DaemonProcess } from './agencyProxyProcess';
import { journalSummary, modelSummary } from '../drivers/agencyProxy/agencyProxyTranscriptCheck';
import { readRecordedHistory } from '../../fixtures/agencyProxy/runStore';

const SEED = suiteSeed(0x5eed01);
const KILLS = 6;
const RECONNECT_BUDGET_MS = 2_000;

/** The record's summary of a run's first `through` events: what a client that got that far must show. */
function recordPrefix(recordDir: string, runId: string, through: number): ReturnType<typeof journalSummary> {
  const history = readRecordedHistory(recordDir, runId).slice(0, through);
  const of = (type: string): string => history.filter((e) => e.type === type).map((e) => String(e.payload)).join('');
  return { text: of('text'), reasoning: of('reasoning'), tools: history.filter((e) => e.type === 'tool_call').length, events: history.length };
}

test(`SIGKILL at ${KILLS} seeded points: reconnect within 2 s, the run is lost with its transcript kept, and continues in a new run on the same provider session (seed ${SEED})`, { timeout: 150_000 }, async () => {
  const random = new Random(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'apk-'));
  const socketPath = join(dir, 'd.sock');
  const recordDir = join(dir, 'record');
  // The runs' folder of their own: not the one holding the journals and the daemon's records (its file checkpoints
  // would snapshot those, growing, at every start).
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const args = ['--socket', socketPath, '--record-dir', recordDir, '--workspace', workspace, '--chunk-ms', '5'];
  let daemon: DaemonProcess = await spawnAgencyProxy(args);
  const starts: { resumeSessionId?: string | null }[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'chaos', protocol: 'agency-proxy', socketPath }, join(dir, 'storage'), {
    log: quietLog,
    tap: (direction, frame) => {
      const f = frame as { type?: string; request?: { resumeSessionId?: string | null } };
      if (direction === 'out' && f.type === 'start_run') {
        starts.push({ resumeSessionId: f.request?.resumeSessionId });
      }
    },
  });
  // When the connection last became `connected` (performance.now()).
  let connectedAt = 0;
  let wasConnected = false;
  store.onDidChange((state) => {
    const connected = state.connections.get(connectionId)?.state.kind === 'connected';
    if (connected && !wasConnected) {
      connectedAt = performance.now();
    }
    wasConnected = connected;
  });
  const driver = new AgencyProxyDriver(ctx);
  const reconnects: number[] = [];
  try {
    await daemon.listening;
    await driver.connect();
    await until('connected', () => wasConnected);
    let runId = await driver.startRun({ prompt: 'long:2000', provider: 'claude', workspaceRoots: [workspace], approvals: false, interactive: false });
    const firstRunId = runId;
    for (let kill = 1; kill <= KILLS; kill++) {
      const key = runKeyOf(connectionId, runId);
      const held = (): number => store.state.runs.get(key)?.lastSequence ?? 0;
      const target = held() + random.int(3, 40);
      await until(`kill ${kill}: events up to ${target}`, () => held() >= target, 30_000);
      // A few ms more so some kills land mid-write (a torn frame, a torn record line).
      await new Promise((r) => setTimeout(r, random.int(0, 6)));
      await killHard(daemon);
      const killedAt = performance.now();
      await until(`kill ${kill}: the driver notices`, () => !wasConnected, 10_000);
      const reached = held();
      daemon = await spawnAgencyProxy(args);
      const up = await daemon.listening;
      await until(`kill ${kill}: reconnected`, () => wasConnected && connectedAt > killedAt, 15_000);
      reconnects.push(Math.max(0, connectedAt - up));
      await until(`kill ${kill}: the run is marked lost`, () => store.state.runs.get(key)?.state === 'lost', 15_000);
      assert.equal(held(), reached, 'nothing arrives for a run the daemon forgot');
      assert.deepEqual(modelSummary(store, key), recordPrefix(recordDir, runId, reached), `kill ${kill}: the transcript is kept as far as it got`);
      const items = store.transcript(key)!.snapshot();
      assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'no gap');
      assert.equal(items.filter((i) => i.kind === 'user').length, 1, 'the prompt once');
      assert.ok(items.some((i) => i.kind === 'notice' && i.state === 'lost'), 'the transcript says why');
      runId = await driver.continueInNewRun(runId, { prompt: 'long:2000', approvals: false, interactive: false });
      if (process.env.CHAOS_VERBOSE) {
        console.log(`# kill ${kill} at ${reached}: restart took ${(up - killedAt).toFixed(0)} ms, reconnect ${reconnects.at(-1)!.toFixed(0)} ms`);
      }
    }
    // Every continuation resumed the provider session the first run opened (the fixture keeps a resumed id).
    assert.deepEqual(starts.map((s) => s.resumeSessionId ?? null), [null, ...Array.from({ length: KILLS }, () => `sess-${firstRunId}`)]);
    const key = runKeyOf(connectionId, runId);
    const latest = (): number => readRecordedHistory(recordDir, runId).length;
    await until('the last continuation completes and is folded to its end', () =>
      store.state.runs.get(key)?.state === 'completed' && store.state.runs.get(key)!.lastSequence === latest(), 60_000);
    assert.deepEqual(modelSummary(store, key), journalSummary(recordDir, runId));
    assert.equal(store.transcript(key)!.snapshot().filter((i) => i.kind === 'gap').length, 0, 'no gap');
    const worst = Math.max(...reconnects);
    assert.ok(worst <= RECONNECT_BUDGET_MS, `reconnect times (ms, seed ${SEED}): ${reconnects.map((ms) => ms.toFixed(0)).join(', ')}`);
    console.log(`# reconnect after restart: median ${[...reconnects].sort((a, b) => a - b)[reconnects.length >> 1]!.toFixed(0)} ms, worst ${worst.toFixed(0)} ms over ${KILLS} kills`);
  } finally {
    await driver.dispose();
    await killHard(daemon);
    rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  }
});
