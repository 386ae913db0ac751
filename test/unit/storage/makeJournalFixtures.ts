/**
 * Writes the journal fixtures of the legacy-journal test: runs a short scenario per daemon against its reference
 * daemon with the drivers' public API, keeps the storage each driver wrote, then reloads it with a fresh driver and
 * records what came back (`<daemon>.expected.json`, see journalSnapshot.ts).
 *
 *   node --import tsx test/unit/storage/makeJournalFixtures.ts <outDir>
 *
 * The committed `fixtures/journal-0.1.0/` was made this way at 2f7abbc (0.1.0's record formats: AgencyProxy
 * `{s,e:wire}`/`{l}`, SCV `{l}`/`{g}`/`{p}`, A3S `{s,at,e:envelope}`/`{g:[from,to]}`/`{l}`), so its expected
 * snapshots are what the 0.1.0 code restored. Run at a later commit, it writes that commit's format: never
 * overwrite the 0.1.0 fixtures with it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A3sDriver } from '../../../extension/drivers/a3s/a3sDriver';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { ScvDriver } from '../../../extension/drivers/scv/scvDriver';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../extension/drivers/kit/driverRuns';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { A3sHarness } from '../../fixtures/a3s/harness';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { ScvReferenceDaemon } from '../../fixtures/scv/daemon';
import { FAST } from '../drivers/a3s/a3sDriverKit';
import { until } from '../drivers/driverKit';
import { A3S_PROFILE, AGENCY_PROXY_PROFILE, reloadSnapshot, SCV_PROFILE } from './journalFixtures';
import { fixtureContext } from './journalSnapshot';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function agencyProxy(work: string, storage: string, keep: () => string): Promise<void> {
  const ws = join(work, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'README.md'), '# Demo\n');
  const socketPath = join(work, 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: ws });
  await daemon.start();
  const ctx = fixtureContext({ ...AGENCY_PROXY_PROFILE, socketPath }, storage);
  const driver = new AgencyProxyDriver(ctx);
  const run = (runId: string) => ctx.store.state.runs.get(runKeyOf(ctx.connectionId, runId));
  try {
    await driver.connect();
    await until('connected', () => ctx.store.state.connections.get(ctx.connectionId)?.state.kind === 'connected');
    // A one-shot run with an approval decided here, a rate limit and an event type from the future.
    const a = await driver.startRun({ prompt: 'Fix the readme ratelimit unknown-event', provider: 'claude', workspaceRoots: [ws], approvals: true, interactive: false });
    await driver.decideApproval(a, await until('approval', () => run(a)?.pendingApprovals[0]), 'allow_once');
    await until('completed', () => run(a)?.state === 'completed');
    // An interactive run answering a follow-up message, left idle.
    const c = await driver.startRun({ prompt: 'chat notools', provider: 'claude', model: 'opus', workspaceRoots: [ws], approvals: false, interactive: true });
    await until('idle', () => run(c)?.state === 'idle');
    const before = run(c)!.lastSequence;
    await driver.sendMessage(c, 'and one more thing');
    await until('answered again', () => run(c)!.lastSequence > before && run(c)!.state === 'idle');
    // An interactive run left waiting for an approval: the reload restores it unconfirmed.
    const b = await driver.startRun({ prompt: 'Second edit', provider: 'claude', workspaceRoots: [ws], approvals: true, interactive: true });
    await until('approval', () => run(b)?.pendingApprovals[0]);
    await settle(300);
    await driver.flushStorage();
    keep(); // the window goes away here
  } finally {
    await driver.dispose();
    await settle(100);
    await daemon.stop();
  }
}

async function scv(work: string, storage: string, keep: () => string): Promise<void> {
  const workspace = join(work, 'project');
  mkdirSync(workspace);
  const socketPath = join(work, 's.sock');
  const daemon = new ScvReferenceDaemon({ stepDelayMs: 1, slowTurnMs: 600, backgroundDelayMs: 100, socketPath });
  await daemon.start();
  const ctx = { ...fixtureContext({ ...SCV_PROFILE, socketPath }, storage), workspaceFolder: workspace };
  const driver = new ScvDriver(ctx, { reconnectBaseMs: 50 });
  const key = (runId: string) => runKeyOf(ctx.connectionId, runId);
  const turnsDone = (runId: string) => (ctx.store.transcript(key(runId))?.snapshot() ?? []).filter((i) => i.kind === 'turn' && i.phase === 'completed').length;
  let first: string | undefined;
  let kept: string | undefined;
  try {
    await driver.connect();
    first = await until('a session', () => driver.liveSessionRunId);
    await driver.sendMessage(first, 'use a tool');
    const approvalId = await until('approval', () => ctx.store.state.runs.get(key(first!))?.pendingApprovals[0]);
    await driver.decideApproval(first, approvalId, 'allow_once');
    await until('turn 1', () => turnsDone(first!) === 1);
    await driver.sendMessage(first, 'start a background job');
    await until('background jobs panel', () => (ctx.store.state.runs.get(key(first!))?.panels ?? []).length > 0 && turnsDone(first!) >= 2);
    await settle(400); // the job finishes and is reported
    // A second session replaces the first (which ends interrupted); it is left mid-turn with a prompt queued.
    const second = await driver.startNewSession({ replace: true });
    await driver.sendMessage(second, 'use a tool slow');
    await until('approval', () => ctx.store.state.runs.get(key(second))?.pendingApprovals[0]);
    await driver.sendMessage(second, 'queued for later');
    await until('queued', () => (ctx.store.state.runs.get(key(second))?.queue ?? []).length > 0);
    await settle(200);
    await driver.flushStorage();
    kept = keep(); // the window goes away here, without a goodbye: the second session is still live on disk
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await settle(200);
    await daemon.stop();
  }
  // SCV has no replay: a gap is recorded when its seq jumps. The reference daemon never skips one, so the code
  // that records it (the door's gap: seqs 7–9 lost, i.e. (6, 9]) writes one into the first session's journal here.
  const writer = new DriverRuns(fixtureContext(SCV_PROFILE, kept!), () => ({ cursor: z.never(), books: 'none' }));
  await writer.gap(first!, 6, 9, 'SCV does not replay events; these never arrived');
  await writer.close();
}

async function a3s(work: string, storage: string, keep: () => string): Promise<void> {
  const workspace = join(work, 'ws');
  mkdirSync(workspace);
  const harness = new A3sHarness({ workspace, gitInit: true, zeroLatency: true });
  await harness.start();
  const ctx = fixtureContext({ ...A3S_PROFILE, url: harness.url }, storage);
  const driver = new A3sDriver(ctx, FAST);
  const run = (runId: string) => ctx.store.state.runs.get(runKeyOf(ctx.connectionId, runId));
  try {
    await driver.connect();
    await until('ready', () => ctx.store.state.connections.get(ctx.connectionId)?.state.kind === 'connected');
    const edit = await driver.startRun({ prompt: 'edit the files please, mind the gap', workspaceRoots: [] });
    await until('completed', () => run(edit)?.state === 'completed');
    await until('change set', () => ctx.store.state.changeSets.get(runKeyOf(ctx.connectionId, edit))?.status === 'ready');
    const failed = await driver.startRun({ prompt: 'this will fail', workspaceRoots: [] });
    await until('failed', () => run(failed)?.state === 'failed');
    harness.holdEventsAt(40);
    const parked = await driver.startRun({ prompt: 'many chunks', workspaceRoots: [] });
    await until('parked', () => run(parked)?.lastSequence === 40);
    await settle(700); // the journal and the coalesced index save catch up
    keep(); // the window goes away here
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await settle(200);
    await harness.stop();
  }
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) {
    throw new Error('usage: makeJournalFixtures.ts <outDir>');
  }
  mkdirSync(out, { recursive: true });
  for (const [name, scenario] of [
    ['agencyProxy', agencyProxy],
    ['scv', scv],
    ['a3s', a3s],
  ] as const) {
    const work = mkdtempSync(join(tmpdir(), 'jmk-'));
    const storage = join(work, 'storage');
    const kept = join(work, 'kept');
    try {
      await scenario(work, storage, () => {
        cpSync(storage, kept, { recursive: true });
        return kept;
      });
      const target = join(out, name);
      rmSync(target, { recursive: true, force: true });
      cpSync(join(kept, 'transcripts'), join(target, 'transcripts'), { recursive: true });
      const { snapshot, logs } = await reloadSnapshot(name, target);
      writeFileSync(join(out, `${name}.expected.json`), `${JSON.stringify(snapshot, null, 1)}\n`);
      console.log(`${name}: written${logs.length > 0 ? `; reload logged:\n  ${logs.join('\n  ')}` : ''}`);
    } finally {
      rmSync(work, { recursive: true, force: true, maxRetries: 20 });
    }
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
