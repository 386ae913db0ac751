/**
 * Records the golden wire streams (test/golden/<daemon>/<name>.frames.jsonl) from the reference daemons in
 * test/fixtures, through the real drivers and clients, one JSON line per frame `{dir, frame[, http]}` as the tap saw
 * it. Temp paths are replaced by `/golden`, so re-recording an unchanged fixture changes only generated ids and
 * clock values (run ids, approval ids, timestamps).
 *   node --import tsx test/unit/golden/recordGolden.ts [agency-proxy|scv|a3s|hive|acp]...
 * Then `UPDATE_GOLDEN=1 node --import tsx --test test/unit/golden/golden.test.ts` rewrites the expected transcripts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A3sDriver } from '../../../extension/drivers/a3s/a3sDriver';
import { AcpDriver } from '../../../extension/drivers/acp/acpDriver';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { HiveClient } from '../../../extension/drivers/hive/client';
import { ScvDriver } from '../../../extension/drivers/scv/scvDriver';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { ProtocolName } from '../../../extension/protocol/protocolNames';
import type { FrameTap } from '../../../extension/transport/frameTap';
import { A3sHarness } from '../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { FakeHive } from '../../fixtures/hive/hive';
import { ScvReferenceDaemon } from '../../fixtures/scv/daemon';
import { referenceAgentBundle } from '../../fixtures/acp/referenceAgentProcess';
import { diskWorkspace } from '../drivers/acp/diskWorkspace';
import { driverSetup, loudLog, until } from '../drivers/driverKit';
import { GOLDEN_DIR } from './goldenKit';

interface Recording {
  readonly lines: string[];
  readonly tap: FrameTap;
}

function recording(): Recording {
  const lines: string[] = [];
  return { lines, tap: (dir, frame, http) => lines.push(JSON.stringify({ dir, frame, ...(http ? { http } : {}) })) };
}

function save(daemon: string, name: string, rec: Recording, tmp: string): void {
  const dir = join(GOLDEN_DIR, daemon);
  mkdirSync(dir, { recursive: true });
  // The temp root appears in paths (tool inputs, cwd) and inside tool output text alike.
  const text = rec.lines.join('\n').split(tmp).join('/golden');
  writeFileSync(join(dir, `${name}.frames.jsonl`), `${text}\n`);
  console.log(`${daemon}/${name}: ${rec.lines.length} frames`);
}

/** AgencyProxy: a one-shot run with reasoning, text, a Read tool, an Edit approval allowed once, usage, finished. */
async function agencyProxy(tmp: string): Promise<void> {
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# Demo\n');
  const socketPath = join(tmp, 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace, chunkDelayMs: 0 });
  await daemon.start();
  const rec = recording();
  const { store, connectionId, ctx } = driverSetup({ name: 'golden', protocol: 'agency-proxy', socketPath }, join(tmp, 'storage'), { tap: rec.tap, log: loudLog });
  const driver = new AgencyProxyDriver(ctx);
  try {
    await driver.connect();
    const runId = await driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [workspace], approvals: true, interactive: false });
    const key = runKeyOf(connectionId, runId);
    const approvalId = await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]);
    await driver.decideApproval(runId, approvalId, 'allow_once');
    await until('completed', () => store.state.runs.get(key)?.state === 'completed');
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await daemon.stop();
  }
  save('agencyProxy', 'edit-allowed', rec, tmp);
}

/** SCV: a session, a turn that asks for a tool (approval allowed), runs it and answers, then completes. */
async function scv(tmp: string): Promise<void> {
  const workspace = join(tmp, 'project');
  mkdirSync(workspace);
  const socketPath = join(tmp, 's.sock');
  const daemon = new ScvReferenceDaemon({ stepDelayMs: 0, socketPath });
  await daemon.start();
  const rec = recording();
  const { store, connectionId, ctx } = driverSetup({ name: 'golden', protocol: 'scv', socketPath }, join(tmp, 'storage'), { tap: rec.tap, log: loudLog, workspaceFolder: workspace });
  const driver = new ScvDriver(ctx, { reconnectBaseMs: 50 });
  try {
    await driver.connect();
    const runId = await until('a session', () => driver.liveSessionRunId);
    const key = runKeyOf(connectionId, runId);
    await driver.sendMessage(runId, 'use a tool');
    const approvalId = await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]);
    await driver.decideApproval(runId, approvalId, 'allow_once');
    await until('turn completed', () => store.transcript(key)?.snapshot().some((i) => i.kind === 'turn' && i.phase === 'completed'));
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await daemon.stop();
  }
  save('scv', 'tool-approved', rec, tmp);
}

/** A3S: the harness's default run (text, reasoning, tools, a confirmation request, usage, completed). */
async function a3s(tmp: string): Promise<void> {
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace);
  const harness = new A3sHarness({ workspace, gitInit: true, stepMs: 1, captureMs: 30 });
  await harness.start();
  const rec = recording();
  const { store, connectionId, ctx } = driverSetup(
    { name: 'golden', protocol: 'a3s', url: harness.url, releaseIdentity: DEFAULT_RELEASE },
    join(tmp, 'storage'),
    { tap: rec.tap, log: loudLog },
  );
  const driver = new A3sDriver(ctx, { healthIntervalMs: 50, pollActiveMs: 5, pollMaxMs: 40, reconnectBaseMs: 20, changeSetInitialDelayMs: 20, changeSetMaxDelayMs: 80 });
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    const runId = await driver.startRun({ prompt: 'edit the files please', workspaceRoots: [] });
    await until('completed', () => store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'completed');
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await harness.stop();
  }
  // Only the run's own exchanges: health polls differ with timing and carry nothing for the transcript.
  const kept = rec.lines.filter((l) => !/"path":"\/(health|ready|live)/.test(l));
  save('a3s', 'default-run', { lines: kept, tap: rec.tap }, tmp);
}

/** hive: an agent's inbox read, an operator message, and the inbox read again. */
async function hive(tmp: string): Promise<void> {
  const hiveDir = join(tmp, 'hive');
  const fake = new FakeHive({ dir: hiveDir, now: () => 1_760_000_000, recvMaxWaitSeconds: 1 });
  await fake.start();
  const rec = recording();
  const client = new HiveClient({ socketPath: fake.agentSocket('iris'), role: 'agent', frameTap: rec.tap, timeoutMs: 3000 });
  try {
    await client.recent(25);
    await client.operatorMsg('Please look at PR #12 again.');
    await client.recent(25);
  } finally {
    await fake.stop();
  }
  save('hive', 'iris-inbox', rec, tmp);
}

/** ACP: the reference agent's turn that edits the readme after a permission request, allowed once. */
async function acp(tmp: string): Promise<void> {
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# Demo\n\nhello\n');
  const rec = recording();
  const profile = { name: 'golden', protocol: 'acp' as const, command: process.execPath, args: [await referenceAgentBundle(), '--state-dir', join(tmp, 'state'), '--chunk-ms', '0'] };
  const { store, connectionId, ctx } = driverSetup(profile, join(tmp, 'storage'), { tap: rec.tap, log: loudLog, workspaceFolder: workspace });
  const driver = new AcpDriver({ ...ctx, workspace: diskWorkspace([workspace]) });
  try {
    await driver.connect();
    const runId = await driver.startRun({ prompt: 'plan and edit the readme', workspaceRoots: [workspace] });
    const key = runKeyOf(connectionId, runId);
    const approvalId = await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]);
    await driver.decideApproval(runId, approvalId, 'allow_once');
    await until('the turn ended', () => store.transcript(key)?.snapshot().some((i) => i.kind === 'turn' && i.phase === 'completed'));
  } finally {
    await driver.dispose();
  }
  save('acp', 'edit-allowed', rec, tmp);
}

type Recorder = (tmp: string) => Promise<void>;
/** One recorder per protocol (the compiler checks none is missing). */
const recorders: Record<string, Recorder> = { 'agency-proxy': agencyProxy, scv, a3s, hive, acp } satisfies Record<ProtocolName, Recorder>;

async function main(): Promise<void> {
  const which = process.argv.slice(2);
  for (const name of which.length > 0 ? which : Object.keys(recorders)) {
    const record = recorders[name];
    if (!record) {
      throw new Error(`unknown daemon ${name}; one of ${Object.keys(recorders).join(', ')}`);
    }
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'golden-')));
    try {
      await record(tmp);
    } finally {
      rmSync(tmp, { recursive: true, force: true, maxRetries: 20 });
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
