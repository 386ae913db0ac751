import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AgencyProxyError } from '../../../../extension/drivers/agencyProxy/agencyProxyError';
import type { RunRequestInput } from '../../../../extension/protocol/agencyProxy';
import { assertContiguous, collectUntil, isTerminalEvent, startDaemon } from './agencyProxyKit';
import type { DaemonFixture } from './agencyProxyKit';

const base = (ws: string, over: Partial<RunRequestInput> = {}): RunRequestInput => ({
  provider: 'claude', prompt: 'hello', permission: 'edit', approvals: false, interactive: false, workspaceRoots: [ws], ...over,
});

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<AgencyProxyError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AgencyProxyError, `expected AgencyProxyError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  throw new assert.AssertionError({ message: `expected ${code}, but the request succeeded` });
}

describe('AgencyProxyClient against the reference daemon', () => {
  let fx: DaemonFixture;
  before(async () => {
    fx = await startDaemon();
  });
  after(() => fx.cleanup());

  it('says hello first with the canonical frame and stores the negotiated version', async () => {
    const frames: [string, unknown][] = [];
    const client = await fx.connect({ frameTap: (dir, frame) => frames.push([dir, frame]) });
    assert.deepEqual(frames[0], ['out', { requestId: 1, type: 'hello', client_name: 'agent-switchboard', version: { major: 0, minor: 3 } }]);
    assert.equal(frames[1]![0], 'in');
    assert.deepEqual(client.version, { major: 0, minor: 3 });
    assert.ok(client.capabilities.includes('lifecycle_control'));
    assert.equal(client.serverName, 'agency-proxy');
  });

  it('lists runs, probes providers and reads account usage', async () => {
    const client = await fx.connect();
    assert.ok(Array.isArray(await client.listRuns()));
    const providers = await client.probeProviders();
    assert.deepEqual(providers.map((p) => [p.provider, p.installed, p.authState]),
      [['claude', true, 'logged_in'], ['codex', true, 'logged_out'], ['copilot', false, 'unknown']]);
    assert.equal(providers[1]!.loginHint, 'codex login');
    const usage = await client.readAccountUsage();
    assert.deepEqual(usage.map((u) => [u.provider, u.supported]), [['claude', true], ['codex', true], ['copilot', false]]);
  });

  it('streams a full run with an approval that really edits the file', async () => {
    const frames: unknown[] = [];
    const client = await fx.connect({ frameTap: (dir, frame) => dir === 'out' && frames.push(frame) });
    const events = collectUntil(client, 'run-allow', isTerminalEvent);
    const approvals = client.onEvent((e) => {
      if (e.event.type === 'approval_requested') {
        void client.decideApproval('run-allow', e.event.payload.approval_id, 'allow_once');
      }
    });
    await client.startRun('run-allow', base(fx.workspace, { approvals: true }));
    const snapshot = await client.attachRun('run-allow', 0);
    assert.equal(snapshot.runId, 'run-allow');
    const got = await events;
    approvals.dispose();
    assertContiguous(got, 1);
    const types = new Set(got.map((e) => e.event.type));
    for (const t of ['session_opened', 'reasoning', 'text', 'tool_call', 'tool_result', 'approval_requested', 'usage',
      'message_boundary', 'finished']) {
      assert.ok(types.has(t as never), `missing ${t}`);
    }
    const asked = got.find((e) => e.event.type === 'approval_requested')!.event;
    assert.ok(asked.type === 'approval_requested');
    const detail = asked.payload.detail as { file_path: string; old_string: string; new_string: string };
    assert.equal(detail.file_path, path.join(fx.workspace, 'README.md'));
    assert.ok(fs.readFileSync(detail.file_path, 'utf8').includes(detail.new_string));
    const text = got.flatMap((e) => (e.event.type === 'text' ? [e.event.payload] : [])).join('');
    assert.match(text, /```ts\n/);
    const start = frames.find((f) => (f as { type: string }).type === 'start_run') as Record<string, unknown>;
    assert.equal(start['idempotency_key'], 'run-allow:start');
    assert.ok(frames.some((f) => (f as Record<string, unknown>)['idempotency_key'] === 'run-allow:approval:ap-1'));
    const [run] = (await client.listRuns()).filter((r) => r.runId === 'run-allow');
    assert.equal(run!.state, 'completed');
    assert.equal(run!.latestSequence, got.length);
  });

  it('deny leaves the file alone and reports tool_result ok:false', async () => {
    const client = await fx.connect();
    const readme = path.join(fx.workspace, 'README.md');
    const events = collectUntil(client, 'run-deny', isTerminalEvent);
    let original = '';
    client.onEvent((e) => {
      if (e.run_id === 'run-deny' && e.event.type === 'approval_requested') {
        original = fs.readFileSync(readme, 'utf8');
        void client.decideApproval('run-deny', e.event.payload.approval_id, 'deny');
      }
    });
    await client.startRun('run-deny', base(fx.workspace, { approvals: true }));
    await client.attachRun('run-deny', 0);
    const got = await events;
    assert.notEqual(original, '');
    const denied = got.filter((e) => e.event.type === 'tool_result' && e.event.payload.ok === false);
    assert.equal(denied.length, 1);
    assert.equal(fs.readFileSync(readme, 'utf8'), original);
    await rejectsWith(client.decideApproval('run-deny', 'ap-1', 'allow_once'), 'internal');
  });

  it('interactive runs answer each injected message and stay open until cancel_run (WIRE.md §1.5)', async () => {
    const frames: unknown[] = [];
    const client = await fx.connect({ frameTap: (dir, frame) => dir === 'out' && frames.push(frame) });
    let boundaries = 0;
    const answered = collectUntil(client, 'run-chat', (e) => e.event.type === 'message_boundary' && ++boundaries === 2);
    client.onEvent((e) => {
      if (e.run_id === 'run-chat' && e.event.type === 'message_boundary' && boundaries === 1) {
        // A message that asks to finish is just a message: only cancel_run ends an interactive run.
        void client.injectMessage('run-chat', 'please finish now', 1);
      }
    });
    await client.startRun('run-chat', base(fx.workspace, { interactive: true, prompt: 'notools' }));
    await client.attachRun('run-chat', 0);
    const got = await answered;
    assert.match(got.flatMap((e) => (e.event.type === 'text' ? [e.event.payload] : [])).join(''), /please finish now/);
    assert.ok(frames.some((f) => (f as Record<string, unknown>)['idempotency_key'] === 'run-chat:inject:1'));
    // Still open after its answer, however long it waits: a one-shot run started now ends first.
    const other = collectUntil(client, 'run-after-chat', isTerminalEvent);
    await client.startRun('run-after-chat', base(fx.workspace, { prompt: 'notools' }));
    await client.attachRun('run-after-chat', 0);
    await other;
    const chat = (await client.listRuns()).find((r) => r.runId === 'run-chat')!;
    assert.equal(chat.state, 'running');
    assert.equal(chat.latestSequence, got.at(-1)!.sequence, 'nothing was published while it waited');
    await client.injectMessage('run-chat', 'still there?', 2);
    const ended = collectUntil(client, 'run-chat', isTerminalEvent);
    await client.cancelRun('run-chat');
    assert.equal((await ended).at(-1)!.event.type, 'finished');
    assert.equal((await client.listRuns()).find((r) => r.runId === 'run-chat')!.state, 'canceled');
    await rejectsWith(client.injectMessage('run-chat', 'too late', 3), 'internal');
  });

  it('cancel ends the run as canceled; a second cancel is a conflict', async () => {
    const client = await fx.connect();
    const events = collectUntil(client, 'run-cancel', isTerminalEvent);
    await client.startRun('run-cancel', base(fx.workspace, { prompt: 'long:500 slow' }));
    await client.attachRun('run-cancel', 0);
    await client.cancelRun('run-cancel');
    await rejectsWith(client.cancelRun('run-cancel'), 'conflict');
    const got = await events;
    assertContiguous(got, 1);
    assert.equal(got.at(-1)!.event.type, 'finished');
    const [run] = (await client.listRuns()).filter((r) => r.runId === 'run-cancel');
    assert.equal(run!.state, 'canceled');
  });

  it('"fail" and "exit:N" prompts end failed; unknown events do not break the connection', async () => {
    const client = await fx.connect();
    for (const [runId, prompt] of [['run-fail', 'please fail'], ['run-exit', 'exit:3 notools'], ['run-odd', 'unknown-event notools']]) {
      const events = collectUntil(client, runId!, isTerminalEvent);
      await client.startRun(runId!, base(fx.workspace, { prompt }));
      await client.attachRun(runId!, 0);
      const got = await events;
      if (runId === 'run-odd') {
        const odd = got.find((e) => e.event.type === 'unknown');
        assert.ok(odd?.event.type === 'unknown' && odd.event.rawType === 'future_event');
      }
    }
    const states = Object.fromEntries((await client.listRuns()).map((r) => [r.runId, r.state]));
    assert.equal(states['run-fail'], 'failed');
    assert.equal(states['run-exit'], 'failed');
    assert.equal(states['run-odd'], 'completed');
    assert.ok(client.isOpen);
  });

  it('maps every daemon error to a typed AgencyProxyError with its code', async () => {
    const client = await fx.connect();
    await client.startRun('run-dup', base(fx.workspace, { prompt: 'notools' }));
    const dup = await rejectsWith(client.startRun('run-dup', base(fx.workspace)), 'conflict');
    assert.equal(dup.fromDaemon, true);
    assert.equal(dup.requestType, 'start_run');
    await rejectsWith(client.startRun('run-x1', base(fx.workspace, { provider: 'gemini' })), 'protocol_violation');
    await rejectsWith(client.startRun('run-x2', base(fx.workspace, { permission: 'everything' })), 'protocol_violation');
    await rejectsWith(client.startRun('run-x3', base(fx.workspace, { provider: 'copilot' })), 'internal');
    await rejectsWith(client.startRun('run-x4', base(fx.workspace, { binary: path.join(fx.dir, 'nope') })), 'internal');
    await rejectsWith(client.attachRun('ghost', 0), 'not_found');
    await rejectsWith(client.injectMessage('ghost', 'x', 1), 'not_found');
    await rejectsWith(client.cancelRun('ghost'), 'not_found');
    await rejectsWith(client.decideApproval('ghost', 'ap-1', 'deny'), 'not_found');
    await rejectsWith(client.ackEvents('ghost', 1), 'not_found');
    await rejectsWith(client.injectMessage('run-dup', 'not interactive', 1), 'internal');
    await client.detachRun('ghost');
    assert.ok(client.isOpen, 'errors keep the connection open');
  });

  it('shutdown_if_idle conflicts while a run is active; shutdown closes admission', async () => {
    const own = await startDaemon();
    try {
      const client = await own.connect();
      await client.startRun('busy', base(own.workspace, { prompt: 'long:300 slow' }));
      const busy = await rejectsWith(client.shutdownIfIdle(), 'conflict');
      assert.match(busy.message, /1 active run/);
      const closed = new Promise((resolve) => client.onClose(resolve));
      const result = await client.shutdown('terminate');
      assert.deepEqual(result, { emulated: false });
      await rejectsWith(client.shutdown('drain'), 'conflict');
      await rejectsWith(client.startRun('late', base(own.workspace)), 'conflict');
      await own.daemon.exited;
      await closed;
      assert.equal(fs.existsSync(own.socketPath), false, 'a clean exit unlinks the socket');
      assert.equal(own.daemon.snapshots()[0]!.state, 'canceled');
    } finally {
      await own.cleanup();
    }
  });

  it('shutdown_if_idle on an idle daemon is accepted and the daemon exits', async () => {
    const own = await startDaemon();
    try {
      const client = await own.connect();
      await client.shutdownIfIdle();
      await own.daemon.exited;
    } finally {
      await own.cleanup();
    }
  });
});
