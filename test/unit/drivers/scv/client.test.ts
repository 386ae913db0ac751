/** ScvClient against the reference daemon: handshake, turns and their seqs, tools and approvals, jobs, cancel, clear. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { daemonStatus } from '../../../../extension/drivers/scv/daemonStatus';
import { ScvRequestError } from '../../../../extension/drivers/scv/scvErrors';
import type { ScvEventOf, ScvServerEvent } from '../../../../extension/protocol/scv';
import { recordingClient, seen, turnEnd, until, useReferenceDaemon } from './scvDaemonKit';
import type { Recorded } from './scvDaemonKit';

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
  const daemon = useReferenceDaemon({ backgroundDelayMs: 800, slowTurnMs: 2_000 });
  const session = daemon.session;
  it('handshakes, starts a session and taps every frame', async () => {
    const rec = recordingClient(daemon.h.socketPath);
    daemon.adopt(rec);
    const init = await rec.client.connect();
    assert.equal(init.protocol_version, 3);
    assert.equal(rec.client.server?.name, 'scv-server');
    const { started, snapshot } = await rec.client.startSession({ cwd: daemon.h.dir, model: 'm-override' });
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
    assert.deepEqual(out[1], { type: 'session.start', request_id: '2', cwd: daemon.h.dir, model: 'm-override' });
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
    assert.equal(approval.cwd, daemon.h.dir);
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
    const rec = recordingClient(daemon.h.socketPath);
    daemon.adopt(rec);
    await rec.client.connect();
    await rec.client.startSession({ cwd: daemon.h.dir, auto_approve: true });
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
    const status = await daemonStatus({ socketPath: daemon.h.socketPath, clientVersion: 't' });
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
    await until(() => daemon.h.daemon.stats.eofCancelledTurns === 1);
    assert.equal(rec.closes[0]?.kind, 'local');
  });
});
