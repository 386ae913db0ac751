/**
 * Catch-up: the reference AgencyProxy daemon (a child process) holds a finished run of ~10,000 events; a fresh
 * AgencyProxyDriver (empty storage) connects, attaches with after_sequence 0 and replays them. Measured from
 * `connect()` until the store holds every event, and until the host has posted the last coalesced patch message a
 * webview would need (16 ms ticks, as TranscriptViewProvider does).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgencyProxyClient } from '../extension/drivers/agencyProxy/client';
import { AgencyProxyDriver } from '../extension/drivers/agencyProxy/agencyProxyDriver';
import type { DriverContext } from '../extension/drivers/connectionManager';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import { killHard, spawnAgencyProxy } from '../test/unit/chaos/agencyProxyProcess';
import type { BenchRow } from './benchKit';
import { now } from './benchKit';
import { HostPatchSink } from './hostPatchSink';

async function until(what: string, probe: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) {
      throw new Error(`catch-up bench timed out: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

export async function benchCatchUp(events = 10_000): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'apb-'));
  const socketPath = join(dir, 'd.sock');
  const daemon = await spawnAgencyProxy(['--socket', socketPath, '--state-dir', join(dir, 'state'), '--chunk-ms', '0'], 'tsx');
  let driver: AgencyProxyDriver | undefined;
  try {
    await daemon.listening;
    const client = await AgencyProxyClient.connect({ socketPath });
    const runId = 'catch-up';
    // session_opened + 4 reasoning + N text + usage + message_boundary + finished
    await client.startRun(runId, {
      provider: 'claude', prompt: `long:${events - 8} notools`, permission: 'edit', approvals: false, interactive: false, workspaceRoots: [],
    });
    let latest = 0;
    for (;;) {
      const run = (await client.listRuns()).find((r) => r.runId === runId);
      if (run?.state === 'completed') {
        latest = run.latestSequence;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    client.close();

    const store = new RunStore();
    const connectionId = 'agency-proxy:bench';
    store.dispatch({ type: 'connectionAdded', connection: { id: connectionId, name: 'bench', protocol: 'agency-proxy' } });
    const key = runKeyOf(connectionId, runId);
    const sink = new HostPatchSink(store, key, true);
    const ctx: DriverContext = {
      store,
      connectionId,
      profile: { name: 'bench', protocol: 'agency-proxy', socketPath },
      tap: () => undefined,
      storageDir: join(dir, 'storage'),
      log: { info: () => undefined, warn: () => undefined, error: (m) => console.error(m) },
    };
    driver = new AgencyProxyDriver(ctx);
    const start = now();
    await driver.connect();
    await until('the store holds every event', () => (store.state.runs.get(key)?.lastSequence ?? 0) >= latest);
    const storeMs = now() - start;
    await until('the last patch is posted', () => sink.lastSeq > 0 && sink.lastSeq === store.transcript(key)?.seq);
    const webviewMs = now() - start;
    sink.dispose();
    return [
      {
        id: 'catchUp.store',
        name: `Catch-up of ${latest.toLocaleString('en-US')} missed events (reference daemon, attach after 0) → in the store`,
        value: storeMs,
        unit: 'ms',
        met: null,
        note: `${((latest / storeMs) * 1000).toFixed(0)} events/s, journaled to storage as they arrive`,
      },
      {
        id: 'catchUp.webview',
        name: `Catch-up of ${latest.toLocaleString('en-US')} events → last host patch message posted`,
        value: webviewMs,
        unit: 'ms',
        met: null,
        note: `${sink.messages} messages, ${sink.patches.toLocaleString('en-US')} patches, ${(sink.bytes / 1024).toFixed(0)} KiB`,
      },
    ];
  } finally {
    driver?.dispose();
    await killHard(daemon);
    rmSync(dir, { recursive: true, force: true });
  }
}
