/** SCV server events (scv_server_events.rs): one wire vector per type parses, omitted keys default, unknown stays raw. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseScvServerEvent, scvEventSchemas, scvEventSeq } from '../../../extension/protocol/scv';
import type { ScvEventOf, ScvKnownEventType, ScvServerEvent } from '../../../extension/protocol/scv';

const S = { request_id: '3', session_id: 's1' };
const T = { ...S, turn_id: 't1' };
const review = { outcome: 'approved', round: 1, rounds: 2, journal: 'j/1' };
const landing = { mode: 'after_approval', status: 'landed', commits: ['abc123'], ref: 'refs/heads/x' };
const outcome = { job: 'job-1', review, landing };

/** One wire example per event type (as a server writes it, "omitted when empty" keys left out). */
const vectors: { [K in ScvKnownEventType]: Record<string, unknown> } = {
  'daemon.status': {
    type: 'daemon.status',
    request_id: 'd1',
    status: {
      version: '0.3.14',
      pid: 42,
      components: [
        {
          id: 'telegram:bot',
          channel: 'telegram',
          account: 'bot',
          bot_id: 123,
          user_id: null,
          enabled: true,
          state: 'connected',
          last_success_unix_seconds: 1_700_000_000,
          error: null,
          restarts: 0,
          remote_tools: 'none',
        },
      ],
      delegations: { active: 0, reaped: 1 },
      confirm: { id: 'c1', state: 'pending', chat: 'telegram:bot', deadline_unix_seconds: 1_700_000_100 },
    },
  },
  initialized: { type: 'initialized', request_id: '1', protocol_version: 3, server: { name: 'scv-server', version: '0.3.14' } },
  'session.started': {
    type: 'session.started',
    request_id: '2',
    session_id: 's1',
    cwd: '/w',
    model: 'm',
    context_max_tokens: 200000,
    max_server_frame_bytes: 8388608,
    max_transcript_bytes: 1048576,
    max_transcript_items: 2000,
    max_prompt_history_bytes: 262144,
    max_prompt_history_items: 200,
  },
  'queue.snapshot': { type: 'queue.snapshot', request_id: null, session_id: 's1', seq: 1, entries: [], paused: false },
  'queue.enqueued': {
    type: 'queue.enqueued',
    ...S,
    seq: 2,
    entry: { queue_id: 'q1', revision: 1, prompt: 'p', submitter: 'vscode' },
    position: 0,
  },
  'queue.updated': {
    type: 'queue.updated',
    ...S,
    seq: 3,
    entry: { queue_id: 'q1', revision: 2, prompt: 'p2', submitter: 'vscode', attachments: [{ kind: 'image', path: '/a.png', size: 3 }] },
  },
  'queue.moved': { type: 'queue.moved', ...S, seq: 4, queue_id: 'q1', position: 1, revision: 3 },
  'queue.removed': { type: 'queue.removed', ...S, seq: 5, queue_id: 'q1', revision: 4 },
  'queue.dequeued': { type: 'queue.dequeued', ...T, seq: 6, queue_id: 'q2' },
  'session.paused': { type: 'session.paused', ...S, seq: 7, paused: true },
  'turn.started': { type: 'turn.started', ...T, seq: 8 },
  'assistant.delta': { type: 'assistant.delta', ...T, seq: 9, content: 'He' },
  'assistant.completed': { type: 'assistant.completed', ...T, seq: 10, content: '' },
  'tool.proposed': { type: 'tool.proposed', ...T, seq: 11, call_id: 'c', name: 'bash', arguments: { command: 'ls' } },
  'approval.requested': {
    type: 'approval.requested',
    ...T,
    seq: 12,
    approval_id: 'a1',
    call_id: 'c',
    name: 'bash',
    risk: 'process',
    cwd: '/w',
    summary: 'Run shell command: ls',
  },
  'tool.started': { type: 'tool.started', ...T, seq: 13, call_id: 'c', name: 'bash' },
  'tool.progress': { type: 'tool.progress', ...T, seq: 14, call_id: 'c', text: 'line' },
  'tool.completed': {
    type: 'tool.completed',
    ...T,
    seq: 15,
    call_id: 'c',
    name: 'agent',
    success: true,
    output: 'ok',
    truncated: false,
    jobs: [{ job: 'job-1', tool: 'agent', status: 'running', outcome }],
  },
  'context.compacted': { type: 'context.compacted', ...T, seq: 16, before_tokens: 9, after_tokens: 3, removed_messages: 2 },
  'session.trimmed': { type: 'session.trimmed', ...S, seq: 17, removed_messages: 4, history_bytes: 100 },
  'session.cleared': { type: 'session.cleared', ...S, seq: 18 },
  'turn.completed': { type: 'turn.completed', ...T, seq: 19, steps: 2, usage: {}, origin: { kind: 'background' } },
  'turn.cancelled': { type: 'turn.cancelled', ...T, seq: 20 },
  'turn.failed': {
    type: 'turn.failed',
    ...T,
    seq: 21,
    code: 'step_limit',
    message: 'agent reached 32 steps',
    origin: { kind: 'background', jobs: ['job-1'], retry_seconds: 30 },
  },
  'background.reported': {
    type: 'background.reported',
    session_id: 's1',
    seq: 22,
    code: 'provider_error',
    message: 'down',
    attempts: 3,
    reports: [{ job: 'job-1', agent: 'helper', status: 'completed', reply: 'done' }],
  },
  'background.updated': { type: 'background.updated', session_id: 's1', seq: 23, outcomes: [outcome] },
  error: { type: 'error', code: 'invalid_request', message: 'cwd is not a directory', fatal: false },
};

function parseOk(value: unknown): ScvServerEvent {
  const result = parseScvServerEvent(value);
  assert.ok(result.ok, `expected ${JSON.stringify(value)} to parse: ${result.ok ? '' : result.message}`);
  return result.event;
}

function parseAs<K extends ScvKnownEventType>(type: K, value: unknown): ScvEventOf<K> {
  const event = parseOk(value);
  assert.equal(event.type, type);
  return event as ScvEventOf<K>;
}

describe('SCV server events', () => {
  it('has a vector for every event type of scv_server_events.rs', () => {
    assert.deepEqual(Object.keys(vectors).sort(), Object.keys(scvEventSchemas).sort());
    assert.equal(Object.keys(scvEventSchemas).length, 27);
  });

  for (const [type, vector] of Object.entries(vectors)) {
    it(`parses ${type}`, () => {
      const event = parseOk(vector);
      assert.equal(event.type, type);
      assert.equal(scvEventSeq(event), vector['seq']);
    });
  }

  it('defaults keys the server omits when empty', () => {
    assert.deepEqual(parseAs('session.started', vectors['session.started']).keys, {});
    assert.equal(parseAs('session.started', vectors['session.started']).restored, undefined);
    const enq = parseAs('queue.enqueued', vectors['queue.enqueued']);
    assert.deepEqual(enq.entry.attachments, []);
    const upd = parseAs('queue.updated', vectors['queue.updated']);
    assert.deepEqual(upd.entry.attachments[0], { kind: 'image', path: '/a.png', name: '', mime: '', size: 3 });
    const done = parseAs('tool.completed', vectors['tool.completed']);
    assert.equal(done.error, undefined);
    assert.equal(done.jobs[0]!.agent, '');
    assert.equal(done.jobs[0]!.task, '');
    const o = done.jobs[0]!.outcome!;
    assert.deepEqual(o.review.tried, []);
    assert.equal(o.review.open_count, 0);
    assert.equal(o.review.journal_pending, false);
    assert.equal(o.landing.unauthorized, false);
    const turn = parseAs('turn.completed', vectors['turn.completed']);
    assert.deepEqual(turn.origin, { kind: 'background', jobs: [], outcomes: [] });
    assert.deepEqual(turn.usage, {});
    const status = parseAs('daemon.status', vectors['daemon.status']).status;
    assert.deepEqual(status.delegations.entries, []);
    assert.equal(status.components[0]!.bot_id, 123);
    assert.equal(parseAs('error', vectors.error).request_id, undefined);
    assert.equal(parseAs('queue.snapshot', vectors['queue.snapshot']).request_id, null);
    assert.equal(parseAs('queue.snapshot', { ...vectors['queue.snapshot'], request_id: undefined }).request_id, null);
  });

  it('keeps unknown enum strings and ignores unknown keys', () => {
    const done = parseAs('tool.completed', {
      ...vectors['tool.completed'],
      success: false,
      error: 'exploded',
      jobs: [{ job: 'j', tool: 'agent_x', status: 'hibernating' }],
      shiny_new_key: 1,
    });
    assert.equal(done.error, 'exploded');
    assert.equal(done.jobs[0]!.status, 'hibernating');
    assert.equal('shiny_new_key' in done, false);
    assert.equal(parseAs('error', { ...vectors.error, code: 'brand_new' }).code, 'brand_new');
    assert.equal(parseAs('turn.started', { ...vectors['turn.started'], origin: { kind: 'cron' } }).origin?.kind, 'cron');
  });

  it('parses an unknown type to an unknown event keeping raw JSON and seq', () => {
    const raw = { type: 'assistant.reasoning', session_id: 's1', seq: 40, content: 'x' };
    const event = parseOk(raw);
    assert.equal(event.type, 'unknown');
    if (event.type === 'unknown') {
      assert.equal(event.eventType, 'assistant.reasoning');
      assert.equal(event.seq, 40);
      assert.equal(event.session_id, 's1');
      assert.deepEqual(event.raw, raw);
    }
    const noSeq = parseOk({ type: 'x.y' });
    assert.equal(scvEventSeq(noSeq), undefined);
  });

  it('reports a known type with a bad shape as malformed, keeping raw and seq', () => {
    const bad = { type: 'turn.started', session_id: 's1', seq: 9 };
    const result = parseScvServerEvent(bad);
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.eventType, 'turn.started');
      assert.equal(result.seq, 9);
      assert.match(result.message, /request_id/);
      assert.deepEqual(result.raw, bad);
    }
    assert.equal(parseScvServerEvent([1]).ok, false);
    assert.equal(parseScvServerEvent({ seq: 1 }).ok, false);
    assert.equal(parseScvServerEvent({ ...vectors['assistant.delta'], seq: 1.5 }).ok, false);
  });
});
