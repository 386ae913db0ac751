import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { daemonControl, daemonStatus } from '../../../extension/drivers/scv/daemonStatus';
import {
  ScvNotSentError,
  ScvRequestError,
  ScvUnknownOutcomeError,
  ScvVersionMismatchError,
} from '../../../extension/drivers/scv/scvErrors';
import type { ScvEventOf, ScvServerEvent } from '../../../extension/protocol/scv';
import { DAEMON_ACTIONS } from '../../../extension/protocol/scvDaemonControl';
import type { DaemonCommand, DaemonStatus } from '../../../extension/protocol/scvDaemonControl';
import { recordingClient, seen, sessionClient, startDaemon, turnEnd, until } from './scvHarness';
import type { DaemonHandle, Recorded } from './scvHarness';

function ofType<K extends ScvServerEvent['type']>(rec: Recorded, type: K): Extract<ScvServerEvent, { type: K }>[] {
  return rec.events.filter((e): e is Extract<ScvServerEvent, { type: K }> => e.type === type);
}

/** Seqs of every event recorded for the session, in arrival order. */
function seqs(rec: Recorded): number[] {
  return rec.events.flatMap((e) => ('seq' in e && e.seq !== undefined ? [e.seq] : []));
}

function assertConsecutive(rec: Recorded): void {
  const s = seqs(rec);
  assert.ok(s.length > 0);
  s.forEach((v, i) => assert.equal(v, s[0]! + i, `seq ${v} at ${i} in ${s.join(',')}`));
}

describe('ScvClient against the reference daemon', () => {
  let h: DaemonHandle;
  const clients: Recorded[] = [];
  const session = async (...args: Parameters<typeof sessionClient> extends [unknown, ...infer R] ? R : never) => {
    const rec = await sessionClient(h, ...args);
    clients.push(rec);
    return rec;
  };

  beforeEach(async () => {
    h = await startDaemon({ backgroundDelayMs: 800, slowTurnMs: 2_000 });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) {
      c.client.dispose();
    }
    await h.cleanup();
  });

  it('handshakes, starts a session and taps every frame', async () => {
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    const init = await rec.client.connect();
    assert.equal(init.protocol_version, 3);
    assert.equal(rec.client.server?.name, 'scv-server');
    const { started, snapshot } = await rec.client.startSession({ cwd: h.dir, model: 'm-override' });
    assert.equal(started.model, 'm-override');
    assert.equal(snapshot.session_id, started.session_id);
    assert.deepEqual(snapshot.entries, []);
    assert.equal(rec.client.sessionId, started.session_id);
    assert.equal(rec.client.maxServerLineBytes, started.max_server_frame_bytes + 2);
    const out = rec.frames.filter((f) => f.dir === 'out').map((f) => f.frame as Record<string, unknown>);
    assert.deepEqual(out[0], {
      type: 'initialize',
      request_id: '1',
      protocol_version: 3,
      client: { name: 'agent-switchboard', version: '0.0.0-test' },
    });
    assert.deepEqual(out[1], { type: 'session.start', request_id: '2', cwd: h.dir, model: 'm-override' });
    const inTypes = rec.frames.filter((f) => f.dir === 'in').map((f) => (f.frame as { type: string }).type);
    assert.deepEqual(inTypes, ['initialized', 'session.started', 'queue.snapshot']);
  });

  it('streams a plain turn with consecutive seqs and usage', async () => {
    const rec = await session();
    const answer = await rec.client.startTurn('hello there');
    assert.equal(answer.kind, 'started');
    const end = await turnEnd(rec, answer.event.type === 'turn.started' ? answer.event.turn_id : '');
    assert.equal(end.type, 'turn.completed');
    const completed = end as ScvEventOf<'turn.completed'>;
    assert.ok((completed.usage.input_tokens ?? 0) > 0);
    const deltas = ofType(rec, 'assistant.delta').map((d) => d.content).join('');
    assert.equal(deltas, 'Echo: hello there');
    assert.equal(ofType(rec, 'assistant.completed')[0]?.content, 'Echo: hello there');
    assert.ok(ofType(rec, 'assistant.delta').every((d) => d.request_id === answer.event.request_id));
    assertConsecutive(rec);
    assert.deepEqual(rec.gaps, []);
    assert.deepEqual(rec.errors, []);
    // Request ids are unique per connection.
    const ids = rec.frames.filter((f) => f.dir === 'out').map((f) => (f.frame as { request_id: string }).request_id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('runs an approved tool call with progress, then refuses a second resolve', async () => {
    const rec = await session();
    const answer = await rec.client.startTurn('use a tool');
    const approval = await seen(rec, (e): e is ScvEventOf<'approval.requested'> => e.type === 'approval.requested');
    assert.match(approval.approval_id, /^[0-9a-f-]{36}$/);
    assert.equal(approval.cwd, h.dir);
    await rec.client.resolveApproval(approval.approval_id, true);
    const end = await turnEnd(rec, approval.turn_id);
    assert.equal(end.type, 'turn.completed');
    const order = rec.events
      .filter((e) => e.type.startsWith('tool.') || e.type === 'approval.requested')
      .map((e) => e.type);
    assert.deepEqual(order, ['tool.proposed', 'approval.requested', 'tool.started', 'tool.progress', 'tool.progress', 'tool.completed']);
    const done = ofType(rec, 'tool.completed')[0]!;
    assert.equal(done.success, true);
    assert.equal(done.request_id, answer.event.request_id);
    // Approval ids are never reused: resolving again is approval_not_found, reported with its request id.
    const requestId = await rec.client.resolveApproval(approval.approval_id, true);
    await until(() => rec.errors.some((e) => e.code === 'approval_not_found'));
    const err = rec.errors.find((e) => e.code === 'approval_not_found')!;
    assert.equal(err.requestId, requestId);
    assert.equal(err.fatal, false);
    assertConsecutive(rec);
  });

  it('a denied tool call completes with success:false, error "denied"', async () => {
    const rec = await session();
    await rec.client.startTurn('tool please');
    const approval = await seen(rec, (e): e is ScvEventOf<'approval.requested'> => e.type === 'approval.requested');
    await rec.client.resolveApproval(approval.approval_id, false);
    await turnEnd(rec, approval.turn_id);
    const done = ofType(rec, 'tool.completed')[0]!;
    assert.deepEqual([done.success, done.error, done.output], [false, 'denied', 'tool call denied by policy or user']);
    assert.equal(ofType(rec, 'tool.started').length, 0);
  });

  it('auto_approve skips approval.requested', async () => {
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    await rec.client.connect();
    await rec.client.startSession({ cwd: h.dir, auto_approve: true });
    const answer = await rec.client.startTurn('tool');
    await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    assert.equal(ofType(rec, 'approval.requested').length, 0);
    assert.equal(ofType(rec, 'tool.completed')[0]?.success, true);
  });

  it('a failing turn ends in turn.failed step_limit', async () => {
    const rec = await session();
    const answer = await rec.client.startTurn('please fail');
    const end = await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    assert.equal(end.type, 'turn.failed');
    assert.equal((end as ScvEventOf<'turn.failed'>).code, 'step_limit');
  });

  it('reports background jobs through a server-started turn', async () => {
    const rec = await session();
    await rec.client.startTurn('start a background job');
    const withJobs = await seen(rec, (e): e is ScvEventOf<'tool.completed'> => e.type === 'tool.completed');
    assert.equal(withJobs.jobs[0]?.status, 'running');
    const status = await daemonStatus({ socketPath: h.socketPath, clientVersion: 't' });
    assert.equal(status.delegations.active, 1);
    assert.equal(status.delegations.entries[0]?.handle, withJobs.jobs[0]?.job);
    const failed = await seen(
      rec,
      (e): e is ScvEventOf<'turn.failed'> => e.type === 'turn.failed' && e.request_id.startsWith('background:'),
    );
    assert.deepEqual(failed.origin?.jobs, [withJobs.jobs[0]!.job]);
    const started = ofType(rec, 'turn.started').find((e) => e.turn_id === failed.turn_id)!;
    assert.equal(started.origin?.kind, 'background');
    assert.equal(started.request_id, failed.request_id);
    const reported = ofType(rec, 'background.reported')[0]!;
    assert.equal(reported.seq, failed.seq - 1, 'background.reported comes just before turn.failed');
    assert.equal(reported.reports[0]?.job, withJobs.jobs[0]!.job);
    assertConsecutive(rec);
  });

  it('skips an unknown future event without reporting a gap', async () => {
    const rec = await session();
    const answer = await rec.client.startTurn('something from the future');
    await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    const unknown = ofType(rec, 'unknown')[0];
    assert.ok(unknown);
    assert.equal(unknown.eventType, 'assistant.reasoning');
    assert.equal(typeof unknown.seq, 'number');
    assert.deepEqual(rec.gaps, []);
    assertConsecutive(rec);
  });

  it('parses context.compacted and session.trimmed', async () => {
    const rec = await session();
    await rec.client.startTurn('compact please');
    const trimmed = await seen(rec, (e) => e.type === 'session.trimmed');
    assert.equal(trimmed.type, 'session.trimmed');
    assert.equal(ofType(rec, 'context.compacted')[0]?.before_tokens, 180_000);
  });

  it('cancels a running turn and refuses an unknown turn', async () => {
    const rec = await session();
    const answer = await rec.client.startTurn('slow one');
    assert.equal(answer.kind, 'started');
    const turnId = answer.kind === 'started' ? answer.event.turn_id : '';
    const cancelled = await rec.client.cancelTurn(turnId);
    assert.equal(cancelled.type, 'turn.cancelled');
    assert.equal(cancelled.request_id, answer.event.request_id);
    await assert.rejects(rec.client.cancelTurn(turnId), (e: unknown) => e instanceof ScvRequestError && e.code === 'turn_not_found');
  });

  it('clear needs an idle session and keeps seq', async () => {
    const rec = await session();
    const answer = await rec.client.startTurn('slow');
    await assert.rejects(rec.client.clearSession(), (e: unknown) => e instanceof ScvRequestError && e.code === 'turn_active');
    await rec.client.cancelTurn(answer.kind === 'started' ? answer.event.turn_id : '');
    const cleared = await rec.client.clearSession();
    const before = Math.max(...seqs(rec).filter((s) => s !== cleared.seq));
    assert.equal(cleared.seq, before + 1);
    assertConsecutive(rec);
  });

  it('client EOF cancels the active turn', async () => {
    const rec = await session();
    await rec.client.startTurn('slow');
    rec.client.close();
    await until(() => h.daemon.stats.eofCancelledTurns === 1);
    assert.equal(rec.closes[0]?.kind, 'local');
  });

  it('reports daemon status and daemon.control actions on a management connection', async () => {
    const status = await daemonStatus({ socketPath: h.socketPath, clientVersion: 't' });
    assert.equal(status.version, '0.3.14-ref');
    assert.equal(status.pid, process.pid);
    assert.equal(status.components[0]?.id, 'telegram:demo');
    assert.deepEqual(status.delegations, { active: 0, reaped: 0, entries: [] });
    const set = await daemonControl(
      { action: 'channel_set', channel: 'telegram', account: 'x', enabled: true, workspace: null },
      { socketPath: h.socketPath, clientVersion: 't' },
    );
    assert.ok(set.components.some((c) => c.id === 'telegram:x' && c.state === 'connected'));
    await assert.rejects(
      daemonControl({ action: 'confirm_status', id: 'nope' }, { socketPath: h.socketPath, clientVersion: 't' }),
      (e: unknown) => e instanceof ScvRequestError && e.code === 'confirm_error',
    );
  });

  it('answers every daemon.control action with daemon.status on one connection', async () => {
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    await rec.client.connect();
    const commands: DaemonCommand[] = [
      { action: 'status' },
      { action: 'reload' },
      { action: 'channel_set', channel: 'mail', account: 'me', enabled: false, workspace: h.dir, remote_tools: 'owner' },
      { action: 'channel_logout', channel: 'mail', account: 'me' },
      { action: 'delegations', all: true },
      { action: 'delegation_kill', orphans: true },
      { action: 'restart_when_idle', version: '0.3.15', commit: 'abc', max_wait_seconds: 60 },
      { action: 'confirm_ask', question: 'Ship it?', timeout_seconds: 60 },
    ];
    assert.deepEqual(
      commands.map((c) => c.action),
      DAEMON_ACTIONS.filter((a) => a !== 'confirm_status'),
    );
    let last: DaemonStatus | undefined;
    for (const command of commands) {
      last = await rec.client.control(command);
      assert.equal(last.version, '0.3.14-ref', command.action);
    }
    assert.equal(last?.restart?.to_version, '0.3.15');
    assert.equal(last?.confirm?.state, 'pending');
    const polled = await rec.client.control({ action: 'confirm_status', id: last!.confirm!.id });
    assert.equal(polled.confirm?.id, last!.confirm!.id);
    assert.ok(!polled.components.some((c) => c.id === 'mail:me'), 'channel_logout removed it');
    assert.equal(rec.client.sessionId, undefined, 'management needs no session');
    assert.deepEqual(rec.errors, []);
  });

  it('sends attachments (name/mime omitted when empty) and the daemon checks their paths', async () => {
    const rec = await session();
    const file = path.join(h.dir, 'note.txt');
    fs.writeFileSync(file, 'hi');
    const answer = await rec.client.startTurn('', [{ kind: 'file', path: file, name: '', mime: '', size: 2 }]);
    assert.equal(answer.kind, 'started');
    const out = rec.frames.filter((f) => f.dir === 'out').at(-1)!.frame as { attachments: unknown[] };
    assert.deepEqual(out.attachments, [{ kind: 'file', path: file, size: 2 }]);
    await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    await assert.rejects(
      rec.client.startTurn('see file', [{ kind: 'file', path: path.join(h.dir, 'gone.txt'), name: 'gone', mime: '', size: 1 }]),
      (e: unknown) => e instanceof ScvRequestError && e.code === 'invalid_request',
    );
  });

  it('no_tools sessions never call tools', async () => {
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    await rec.client.connect();
    await rec.client.startSession({ cwd: h.dir, no_tools: true, system_prompt: 'Be brief.' });
    const answer = await rec.client.startTurn('tool background');
    await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    assert.equal(rec.events.filter((e) => e.type.startsWith('tool.')).length, 0);
  });

  it('refuses relative cwd locally and a missing directory via invalid_request', async () => {
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    await rec.client.connect();
    await assert.rejects(rec.client.startSession({ cwd: 'relative/dir' }), ScvNotSentError);
    await assert.rejects(
      rec.client.startSession({ cwd: path.join(h.dir, 'missing') }),
      (e: unknown) => e instanceof ScvRequestError && e.code === 'invalid_request',
    );
    await assert.rejects(rec.client.startTurn('no session yet'), ScvNotSentError);
  });

  it('refuses to send a client line over 1 MiB and stays usable', async () => {
    const rec = await session();
    const before = rec.frames.length;
    await assert.rejects(
      rec.client.control({ action: 'confirm_ask', question: 'x'.repeat(1_100_000) }),
      (e: unknown) => e instanceof ScvNotSentError && /over the SCV client line limit of 1048576 bytes/.test(e.message),
    );
    await assert.rejects(rec.client.startTurn('p'.repeat(262_145)), /prompts up to 262144 bytes/);
    assert.equal(rec.frames.length, before, 'nothing was sent or tapped');
    const answer = await rec.client.startTurn('still works');
    assert.equal(answer.kind, 'started');
  });

  it('rejects pending requests with an unknown outcome when the connection drops', async () => {
    const rec = await session();
    const pending = rec.client.updateQueue('q-never', 1, 'x');
    rec.client.close();
    await assert.rejects(pending, (e: unknown) => e instanceof ScvUnknownOutcomeError || e instanceof ScvRequestError);
    await assert.rejects(rec.client.startTurn('after close'), ScvNotSentError);
  });

  it('fails clearly when no daemon listens', async () => {
    const rec = recordingClient(path.join(h.dir, 'nobody.sock'));
    await assert.rejects(rec.client.connect(), (e: unknown) => e instanceof ScvNotSentError && /cannot connect/.test(e.message));
    assert.equal(rec.closes[0]?.kind, 'connect_failed');
  });
});

describe('ScvClient protocol edge cases', () => {
  it('names both versions on version_mismatch and closes', async () => {
    const h = await startDaemon({ protocolVersion: 4 });
    try {
      const rec = recordingClient(h.socketPath);
      await assert.rejects(rec.client.connect(), (e: unknown) => {
        assert.ok(e instanceof ScvVersionMismatchError);
        assert.equal(e.clientVersion, 3);
        assert.equal(e.serverVersion, 4);
        assert.match(e.message, /client speaks protocol 3, the daemon speaks protocol 4/);
        return true;
      });
      assert.equal(rec.errors[0]?.code, 'version_mismatch');
      assert.equal(rec.errors[0]?.fatal, true);
      assert.equal(rec.closes[0]?.kind, 'fatal');
      assert.equal(rec.client.state, 'closed');
    } finally {
      await h.cleanup();
    }
  });

  it('drops a server line over max_server_frame_bytes and reports the lost seq', async () => {
    const h = await startDaemon({ maxServerFrameBytes: 4096 });
    try {
      const rec = await sessionClient(h);
      assert.equal(rec.client.maxServerLineBytes, 4098);
      const answer = await rec.client.startTurn('send an oversize delta');
      const end = await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
      assert.equal(end.type, 'turn.completed');
      const tooLarge = rec.errors.find((e) => e.code === 'frame_too_large');
      assert.ok(tooLarge, 'oversized line reported');
      assert.match(tooLarge.message, /over the limit of 4098 bytes/);
      assert.equal(rec.gaps.length, 1);
      assert.equal(rec.gaps[0]!.from, rec.gaps[0]!.to, 'exactly one event lost');
      assert.ok(!rec.frames.some((f) => JSON.stringify(f.frame).length > 5000), 'the long line was never decoded');
      rec.client.dispose();
    } finally {
      await h.cleanup();
    }
  });
});
