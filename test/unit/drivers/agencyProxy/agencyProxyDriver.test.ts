/** The AgencyProxy driver against the reference daemon: a whole run, approvals, durable reload, lost runs. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { safeFileName } from '../../../../extension/storage/runJournal';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { driverSetup, loudLog, until } from '../driverKit';
import { journalSummary, modelSummary } from './agencyProxyTranscriptCheck';

const base = mkdtempSync(join(tmpdir(), 'apd-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

function makeDriver(socketPath: string, storageDir: string, frames: unknown[] = []) {
  const { store, connectionId, ctx } = driverSetup({ name: 'test', protocol: 'agency-proxy', socketPath }, storageDir, {
    tap: (_dir, frame) => frames.push(frame),
    log: loudLog,
  });
  return { store, driver: new AgencyProxyDriver(ctx), connectionId };
}

test('a run streams, asks for approval, is allowed, edits the file, completes, and is acked', async () => {
  const dir = mkdtempSync(join(base, 'a'));
  const workspace = join(dir, 'ws');
  const socketPath = join(dir, 'ap.sock');
  const storage = join(dir, 'storage');
  await import('node:fs').then((fs) => fs.mkdirSync(workspace));
  writeFileSync(join(workspace, 'README.md'), '# Demo\n');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace });
  await daemon.start();
  const { store, driver, connectionId } = makeDriver(socketPath, storage);
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    assert.ok(store.state.connections.get(connectionId)!.capabilities.includes('approvals'));
    const runId = await driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [workspace], approvals: true, interactive: false });
    const key = runKeyOf(connectionId, runId);
    const approvalId = await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]);
    assert.equal(store.state.runs.get(key)!.state, 'waiting_approval');
    await driver.decideApproval(runId, approvalId, 'allow_once');
    await until('completed', () => store.state.runs.get(key)?.state === 'completed');
    const items = store.transcript(key)!.snapshot();
    const kinds = new Set(items.map((i) => i.kind));
    for (const k of ['user', 'reasoning', 'text', 'tool', 'approval', 'usage']) {
      assert.ok(kinds.has(k as never), `has ${k}`);
    }
    const card = items.find((i) => i.kind === 'approval');
    assert.ok(card?.kind === 'approval' && card.status === 'decided' && card.decision === 'allow_once');
    assert.notEqual(readFileSync(join(workspace, 'README.md'), 'utf8'), '# Demo\n', 'the edit was applied for real');
    const latest = store.state.runs.get(key)!.lastSequence;
    await until('daemon ack', () => {
      const snap = daemon.snapshots().find((r) => r.runId === runId);
      return snap !== undefined && snap.acknowledgedSequence === latest;
    });
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await daemon.stop();
  }
});

test('a window reload mid-run restores the transcript from storage and re-attaches after it: nothing lost or doubled', async () => {
  const dir = mkdtempSync(join(base, 'b'));
  const socketPath = join(dir, 'ap.sock');
  const recordDir = join(dir, 'record');
  const storage = join(dir, 'storage');
  const daemon = new ReferenceAgencyProxy({ socketPath, recordDir, workspace: dir, chunkDelayMs: 5 });
  await daemon.start();
  let first = makeDriver(socketPath, storage);
  try {
    await first.driver.connect();
    await until('connected', () => first.store.state.connections.get(first.connectionId)?.state.kind === 'connected');
    const runId = await first.driver.startRun({ prompt: 'long:400 notools', provider: 'claude', workspaceRoots: [dir], approvals: false, interactive: false });
    const key = runKeyOf(first.connectionId, runId);
    await until('some streaming', () => (first.store.state.runs.get(key)?.lastSequence ?? 0) > 50);
    first.driver.dispose(); // the window goes away mid-stream
    await new Promise((r) => setTimeout(r, 300)); // the daemon keeps streaming meanwhile
    const frames: unknown[] = [];
    const second = makeDriver(socketPath, storage, frames);
    first = second;
    await second.driver.connect();
    const attach = frames.find((f) => (f as { type?: string }).type === 'attach_run') as { after_sequence: number } | undefined;
    assert.ok(attach && attach.after_sequence > 50, 'the transcript came back from storage and was re-attached after it');
    await until('completed', () => second.store.state.runs.get(key)?.state === 'completed', 20000);
    assert.deepEqual(modelSummary(second.store, key), journalSummary(recordDir, runId));
    assert.equal(second.store.transcript(key)!.snapshot().filter((i) => i.kind === 'gap').length, 0);
    assert.equal(second.store.transcript(key)!.snapshot().filter((i) => i.kind === 'user').length, 1);
  } finally {
    await first.driver.dispose();
    await daemon.stop();
  }
});

test('a restarted daemon forgets every run: the run stays in the tree, marked lost', async () => {
  const dir = mkdtempSync(join(base, 'c'));
  const socketPath = join(dir, 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir });
  await daemon.start();
  const { store, driver, connectionId } = makeDriver(socketPath, join(dir, 'storage'));
  let second: ReferenceAgencyProxy | undefined;
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    const runId = await driver.startRun({ prompt: 'hello notools', provider: 'claude', workspaceRoots: [dir], approvals: false, interactive: true });
    const key = runKeyOf(connectionId, runId);
    await until('running', () => store.state.runs.get(key)?.state === 'running');
    await daemon.stop();
    await until('reconnecting', () => store.state.connections.get(connectionId)?.state.kind === 'reconnecting');
    second = new ReferenceAgencyProxy({ socketPath, workspace: dir });
    await second.start();
    await until('lost', () => store.state.runs.get(key)?.state === 'lost', 15000);
    assert.ok(store.transcript(key)!.length > 1, 'the transcript is kept');
    const notice = store.transcript(key)!.snapshot().find((i) => i.kind === 'notice' && i.state === 'lost');
    assert.ok(notice, 'the reason is shown in the transcript');
  } finally {
    await driver.dispose();
    await second?.stop();
  }
});

test('a lost run keeps its provider session in storage and continues in a new run that resumes it, also after a reload', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  const socketPath = join(dir, 'ap.sock');
  const storage = join(dir, 'storage');
  let daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir });
  await daemon.start();
  let current = makeDriver(socketPath, storage);
  try {
    await current.driver.connect();
    await until('connected', () => current.store.state.connections.get(current.connectionId)?.state.kind === 'connected');
    const runId = await current.driver.startRun({ prompt: 'chat notools', provider: 'claude', model: 'opus', workspaceRoots: [dir], approvals: false, interactive: true });
    const key = runKeyOf(current.connectionId, runId);
    await until('the session opened', () => (current.store.state.runs.get(key)?.lastSequence ?? 0) > 1);
    await assert.rejects(current.driver.continueInNewRun(runId), /still/, 'a live run is not continued twice');
    await daemon.stop();
    daemon = new ReferenceAgencyProxy({ socketPath, workspace: dir });
    await daemon.start();
    await until('lost', () => current.store.state.runs.get(key)?.state === 'lost', 15000);
    const index = readFileSync(join(storage, 'transcripts', safeFileName(current.connectionId), 'runs.json'), 'utf8');
    const stored = (JSON.parse(index) as { runId: string; extra?: Record<string, unknown> }[]).find((r) => r.runId === runId);
    assert.equal(stored?.extra?.['agencyProxySessionId'], `sess-${runId}`, 'the provider session is stored with the run');

    await current.driver.flushStorage();
    current.driver.dispose(); // a window reload: the session comes back from storage
    const frames: unknown[] = [];
    current = makeDriver(socketPath, storage, frames);
    await current.driver.connect();
    await until('reconnected', () => current.store.state.connections.get(current.connectionId)?.state.kind === 'connected');
    assert.equal(current.store.state.runs.get(key)?.state, 'lost');
    const next = await current.driver.continueInNewRun(runId, { prompt: 'go on notools', interactive: false });
    const start = frames.find((f) => (f as { type?: string }).type === 'start_run') as { request: { resumeSessionId: string | null; provider: string; model: string; workspaceRoots: string[] } };
    assert.equal(start.request.resumeSessionId, `sess-${runId}`);
    assert.deepEqual([start.request.provider, start.request.model, start.request.workspaceRoots], ['claude', 'opus', [dir]]);
    const nextKey = runKeyOf(current.connectionId, next);
    await until('the continuation completed', () => current.store.state.runs.get(nextKey)?.state === 'completed');
    assert.match(current.store.state.runs.get(nextKey)!.title, /^Continued: chat notools/);
    assert.equal(current.driver.ownsRun(next), true, 'a continuation is this editor\'s own run');
    await assert.rejects(current.driver.continueInNewRun('ghost'), /Unknown run/);
  } finally {
    await current.driver.dispose();
    await daemon.stop();
  }
});
