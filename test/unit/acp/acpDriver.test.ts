/**
 * The ACP driver against the reference agent as a child process: a streamed turn, a permission request allowed and
 * one denied (the file changes only when allowed, written through the editor's WorkspaceAccess), a cancel mid-stream
 * (the pending request is answered cancelled and expires), a message queued behind a running turn, the plan panel,
 * and every JSON-RPC line in the trace tap — including a malformed one. Every store's patches are mirrored into the
 * webview's store (driverTestKit), so a patch the view would refuse fails the file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { AcpDriver } from '../../../extension/drivers/acp/acpDriver';
import type { ConnectionProfile } from '../../../extension/drivers/driver';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';
import { referenceAgentBundle } from '../../fixtures/acp/referenceAgentProcess';
import { driverSetup, until } from '../drivers/driverTestKit';
import type { TempWorkspace } from './acpWorkspace';
import { README_TEXT, makeWorkspace } from './acpWorkspace';
import { diskWorkspace } from './diskWorkspace';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) {
    await c();
  }
});

interface Rig {
  readonly driver: AcpDriver;
  readonly ws: TempWorkspace;
  readonly frames: { dir: string; frame: unknown }[];
  readonly setup: ReturnType<typeof driverSetup>;
  items(runId: string): readonly TranscriptItem[];
}

async function rig(options: { ws?: TempWorkspace; storage?: string; stateDir?: string } = {}): Promise<Rig> {
  const ws = options.ws ?? makeWorkspace({ git: true });
  const storage = options.storage ?? mkdtempSync(join(tmpdir(), 'acp-storage-'));
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'acp-state-'));
  if (!options.ws) {
    cleanups.push(ws.remove, () => rmSync(storage, { recursive: true, force: true, maxRetries: 5 }), () => rmSync(stateDir, { recursive: true, force: true }));
  }
  const profile: ConnectionProfile = {
    name: 'ref',
    protocol: 'acp',
    command: process.execPath,
    args: [await referenceAgentBundle(), '--state-dir', stateDir, '--chunk-ms', '0', '--slow-chunk-ms', '20'],
  };
  const frames: { dir: string; frame: unknown }[] = [];
  const setup = driverSetup(profile, storage, { workspaceFolder: ws.dir, tap: (dir, frame) => frames.push({ dir, frame }) });
  const driver = new AcpDriver({ ...setup.ctx, workspace: diskWorkspace([ws.dir]) });
  cleanups.push(() => driver.dispose());
  await driver.connect();
  await until('connected', () => setup.store.state.connections.get(setup.connectionId)?.state.kind === 'connected');
  return { driver, ws, frames, setup, items: (runId) => setup.store.transcript(runKeyOf(setup.connectionId, runId))?.snapshot() ?? [] };
}

const run = (r: Rig, runId: string) => r.setup.store.state.runs.get(runKeyOf(r.setup.connectionId, runId));
const idle = (r: Rig, runId: string) => run(r, runId)?.state === 'idle';

test('a turn streams thinking, the answer and usage, and ends waiting for the next message', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello there', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  const items = r.items(runId);
  assert.equal(items[0]?.kind, 'user');
  assert.ok(items.some((i) => i.kind === 'reasoning' && i.text.length > 0), 'thinking shown');
  assert.ok(items.some((i) => i.kind === 'text' && i.text.length > 20 && !i.streaming), 'the answer, closed');
  assert.ok(items.some((i) => i.kind === 'turn' && i.phase === 'completed' && i.code === 'end_turn'), 'the stop reason ends the turn');
  assert.equal(run(r, runId)?.stateDetail, 'Waiting for your message');
  assert.ok(r.frames.some((f) => f.dir === 'out' && (f.frame as { method?: string }).method === 'session/prompt'), 'traced out');
  assert.ok(r.frames.some((f) => f.dir === 'in' && (f.frame as { method?: string }).method === 'session/update'), 'traced in');
});

test('a permission request is an approval: allowed, the edit lands through the editor; denied, the file stays', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approval = await until('an approval', () => run(r, runId)?.pendingApprovals[0]);
  const pending = r.setup.store.state.approvals.get(`${runKeyOf(r.setup.connectionId, runId)}::${approval}`);
  assert.deepEqual(pending?.options, ['allow_once', 'allow_similar', 'deny', 'deny_always']);
  assert.equal((pending?.detail as { path?: string }).path, r.ws.readme, 'the diff editor gets the proposed file');
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'nothing written before the decision');
  await r.driver.decideApproval(runId, approval, 'allow_once', 'transcript');
  await until('the turn ended', () => idle(r, runId));
  assert.notEqual(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'written once allowed');
  await until('a local change set', () => r.setup.store.state.changeSets.get(runKeyOf(r.setup.connectionId, runId))?.patch?.includes('README.md'));

  await r.driver.sendMessage(runId, 'edit:NOTES.md please');
  const second = await until('a second approval', () => run(r, runId)?.pendingApprovals[0]);
  await r.driver.decideApproval(runId, second, 'deny', 'notification');
  await until('the turn ended', () => idle(r, runId) && !run(r, runId)?.pendingApprovals.length);
  assert.throws(() => readFileSync(join(r.ws.dir, 'NOTES.md'), 'utf8'), 'denied: not written');
});

test('Stop cancels the turn and answers a waiting permission request cancelled; a queued message goes next', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'slow story', workspaceRoots: [r.ws.dir] });
  await until('streaming', () => r.items(runId).some((i) => i.kind === 'text' && i.text.length > 0));
  await r.driver.sendMessage(runId, 'plan and then nothink');
  assert.equal(run(r, runId)?.queue?.length, 1, 'queued behind the running turn');
  await r.driver.cancelRun(runId);
  await until('cancelled', () => r.items(runId).some((i) => i.kind === 'turn' && i.phase === 'cancelled'));
  await until('the queued prompt ran', () => r.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 1 && idle(r, runId));
  assert.equal(run(r, runId)?.queue?.length ?? 0, 0);
  const plan = run(r, runId)?.panels?.find((p) => p.id === 'plan');
  assert.equal(plan?.entries.length, 3);
  assert.ok(plan?.entries.every((e) => e.icon === 'pass-filled'), JSON.stringify(plan));
});

test('a malformed line from the agent is traced and survived', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'malformed then fine', workspaceRoots: [r.ws.dir] });
  await until('the turn ended', () => idle(r, runId));
  assert.ok(r.frames.some((f) => f.dir === 'in' && typeof (f.frame as { unparsed?: unknown }).unparsed === 'string'));
  assert.equal(r.setup.store.state.connections.get(r.setup.connectionId)?.state.kind, 'connected');
});
