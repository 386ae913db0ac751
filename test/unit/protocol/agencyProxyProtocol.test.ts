import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ClientFrameSchema,
  RunEventSchema,
  buildClientFrame,
  canonicalRunRequest,
  parseServerFrame,
  serializeRunEvent,
} from '../../../extension/protocol/agencyProxy';
import type { ClientMessage, ServerFrame } from '../../../extension/protocol/agencyProxy';

// Copied from WIRE.md §1.3–1.7 (the repository must not read ../shared at test time).
const WIRE_CLIENT_EXAMPLES = [
  '{"requestId":1,"type":"hello","client_name":"vscode-agency","version":{"major":0,"minor":3}}',
  '{"requestId":2,"type":"list_runs"}',
  '{"requestId":3,"type":"start_run","run_id":"run-1","request":{"provider":"claude","model":"sonnet","prompt":"Fix the failing test","isCommand":false,"system":null,"permission":"edit","effort":"high","extraThinking":null,"approvals":true,"interactive":true,"workspaceRoots":["/home/u/proj"],"resumeSessionId":null,"binary":null,"environment":{},"uncheckedArgs":[],"metadata":{}},"idempotency_key":"run-1:start"}',
  '{"requestId":4,"type":"attach_run","run_id":"run-1","after_sequence":0}',
  '{"requestId":5,"type":"decide_approval","run_id":"run-1","approval_id":"ap-1","decision":"allow_once","idempotency_key":"run-1:approval:ap-1"}',
  '{"requestId":6,"type":"ack_events","run_id":"run-1","through_sequence":12}',
];
const WIRE_SERVER_EXAMPLES = [
  '{"kind":"response","request_id":1,"type":"hello","server_name":"agency-proxy","version":{"major":0,"minor":3},"capabilities":["event_replay","live_injection","approvals","cancellation","provider_detection","lifecycle_control"]}',
  '{"kind":"response","request_id":2,"type":"runs","runs":[{"runId":"run-1","state":"running","provider":"claude","model":"sonnet","providerSessionId":"sess-9","latestSequence":12,"acknowledgedSequence":10,"workspaceRoots":["/home/u/proj"],"metadata":{}}]}',
  '{"kind":"response","request_id":3,"type":"providers","providers":[{"provider":"claude","installed":true,"version":"2.1.0","outdated":false,"authState":"logged_in","detail":"","authMethod":"oauth","account":"a@b.c","plan":"max","loginHint":"claude login"}]}',
  '{"kind":"response","request_id":9,"type":"error","code":"not_found","message":"run does not exist"}',
  '{"kind":"event","run_id":"run-1","sequence":1,"event":{"type":"session_opened","payload":{"provider_session_id":"sess-9","model":"sonnet"}}}',
  '{"kind":"event","run_id":"run-1","sequence":2,"event":{"type":"text","payload":"Hello"}}',
  '{"kind":"event","run_id":"run-1","sequence":3,"event":{"type":"message_boundary"}}',
  '{"kind":"event","run_id":"run-1","sequence":4,"event":{"type":"tool_call","payload":{"id":"t1","name":"Edit","input":{"file_path":"src/a.ts","old_string":"a","new_string":"b"}}}}',
  '{"kind":"event","run_id":"run-1","sequence":5,"event":{"type":"approval_requested","payload":{"approval_id":"ap-1","title":"Edit","detail":{"file_path":"src/a.ts"}}}}',
  '{"kind":"event","run_id":"run-1","sequence":8,"event":{"type":"finished","payload":{"exit_code":0}}}',
];

/** Re-serialises a parsed server frame into its wire form. */
function toWire(frame: ServerFrame): unknown {
  if (frame.kind === 'event') {
    return { ...frame, event: serializeRunEvent(frame.event) };
  }
  return frame.type === 'unknown' ? frame.raw : frame;
}

function parseOk(text: string): ServerFrame {
  const parsed = parseServerFrame(JSON.parse(text));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.frame;
}

describe('AgencyProxy schemas', () => {
  it('builders reproduce the WIRE.md client examples byte for byte', () => {
    const messages: ClientMessage[] = [
      { type: 'hello', client_name: 'vscode-agency', version: { major: 0, minor: 3 } },
      { type: 'list_runs' },
      {
        type: 'start_run', run_id: 'run-1', idempotency_key: 'run-1:start',
        request: { provider: 'claude', model: 'sonnet', prompt: 'Fix the failing test', permission: 'edit', effort: 'high',
          approvals: true, interactive: true, workspaceRoots: ['/home/u/proj'] },
      },
      { type: 'attach_run', run_id: 'run-1', after_sequence: 0 },
      { type: 'decide_approval', run_id: 'run-1', approval_id: 'ap-1', decision: 'allow_once', idempotency_key: 'run-1:approval:ap-1' },
      { type: 'ack_events', run_id: 'run-1', through_sequence: 12 },
    ];
    messages.forEach((message, i) => {
      assert.equal(JSON.stringify(buildClientFrame(i + 1, message)), WIRE_CLIENT_EXAMPLES[i]);
    });
  });

  it('the daemon-side schema accepts every client example and every variant', () => {
    for (const text of WIRE_CLIENT_EXAMPLES) {
      assert.ok(ClientFrameSchema.safeParse(JSON.parse(text)).success, text);
    }
    const rest: ClientMessage[] = [
      { type: 'probe_providers' }, { type: 'read_account_usage' }, { type: 'shutdown_if_idle' },
      { type: 'shutdown', mode: 'drain' }, { type: 'detach_run', run_id: 'r' },
      { type: 'inject_message', run_id: 'r', body: 'hi', idempotency_key: 'r:inject:1' },
      { type: 'cancel_run', run_id: 'r', idempotency_key: 'r:cancel' },
    ];
    for (const message of rest) {
      const frame = buildClientFrame(9, message);
      const reparsed = ClientFrameSchema.parse(JSON.parse(JSON.stringify(frame)));
      assert.deepEqual(reparsed, frame);
      assert.deepEqual(Object.keys(frame).slice(0, 2), ['requestId', 'type']);
    }
  });

  it('the daemon-side schema rejects what serde would reject', () => {
    const bad = [
      { request_id: 1, type: 'list_runs' }, // snake_case envelope (trap 1)
      { requestId: 1, type: 'nope' },
      { requestId: -1, type: 'list_runs' },
      { requestId: 1.5, type: 'list_runs' },
      { requestId: 1, type: 'attach_run', run_id: 'r' },
      { requestId: 1, type: 'shutdown', mode: 'later' },
    ];
    for (const frame of bad) {
      assert.equal(ClientFrameSchema.safeParse(frame).success, false, JSON.stringify(frame));
    }
    const start = JSON.parse(WIRE_CLIENT_EXAMPLES[2]!) as { request: Record<string, unknown> };
    delete start.request['interactive'];
    assert.equal(ClientFrameSchema.safeParse(start).success, false, 'missing interactive (trap 5)');
  });

  it('canonical RunRequest writes every key, null for unset options', () => {
    const request = canonicalRunRequest({ provider: 'codex', prompt: 'p', permission: 'plan', approvals: false, interactive: false });
    assert.deepEqual(Object.keys(request), ['provider', 'model', 'prompt', 'isCommand', 'system', 'permission', 'effort',
      'extraThinking', 'approvals', 'interactive', 'workspaceRoots', 'resumeSessionId', 'binary', 'environment',
      'uncheckedArgs', 'metadata']);
    assert.equal(request.system, null);
    assert.equal(request.binary, null);
    assert.deepEqual(request.environment, {});
  });

  it('builders refuse integers a JS number cannot carry', () => {
    assert.throws(() => buildClientFrame(2 ** 64 - 1, { type: 'list_runs' }), RangeError);
    assert.throws(() => buildClientFrame(1, { type: 'ack_events', run_id: 'r', through_sequence: 2 ** 53 }), RangeError);
    assert.throws(() => buildClientFrame(1, { type: 'attach_run', run_id: 'r', after_sequence: 1.5 }), RangeError);
    const all = buildClientFrame(1, { type: 'ack_events', run_id: 'r', through_sequence: Number.MAX_SAFE_INTEGER });
    assert.ok(JSON.stringify(all).includes('9007199254740991'));
  });

  it('every WIRE.md server example parses and re-serialises to the same JSON', () => {
    for (const text of WIRE_SERVER_EXAMPLES) {
      assert.deepEqual(toWire(parseOk(text)), JSON.parse(text), text);
    }
  });

  it('round-trips every response variant', () => {
    const frames = [
      { kind: 'response', request_id: 4, type: 'account_usage', providers: [
        { provider: 'claude', supported: true, usage: { five_hour: 0.5 }, error: null },
        { provider: 'copilot', supported: false, usage: null, error: 'unsupported' }] },
      { kind: 'response', request_id: 5, type: 'run', run: { runId: 'r', state: 'waiting_approval', provider: 'codex',
        model: '', providerSessionId: null, latestSequence: 0, acknowledgedSequence: 0, workspaceRoots: [], metadata: { a: [1] } } },
      { kind: 'response', request_id: 6, type: 'accepted' },
    ];
    for (const frame of frames) {
      assert.deepEqual(toWire(parseOk(JSON.stringify(frame))), frame);
    }
  });

  it('reads leniently: unknown keys ignored, unknown strings kept, absent options defaulted', () => {
    const frame = parseOk('{"kind":"response","request_id":2,"type":"runs","extra":1,"runs":[{"runId":"r","state":"hibernating",' +
      '"provider":"claude","model":"m","latestSequence":3,"acknowledgedSequence":1,"workspaceRoots":[],"future":true}]}');
    assert.ok(frame.kind === 'response' && frame.type === 'runs');
    assert.equal(frame.runs[0]!.state, 'hibernating');
    assert.equal(frame.runs[0]!.providerSessionId, null);
    assert.deepEqual(frame.runs[0]!.metadata, {});
    assert.equal('future' in frame.runs[0]!, false);
    const hello = parseOk('{"kind":"response","request_id":1,"type":"hello","server_name":"x","version":{"major":0,"minor":4},"capabilities":["time_travel"]}');
    assert.ok(hello.kind === 'response' && hello.type === 'hello');
    assert.deepEqual(hello.capabilities, ['time_travel']);
  });

  it('round-trips every event variant', () => {
    const events = [
      { type: 'finished', payload: { exit_code: 0 } }, { type: 'failed', payload: 'boom' },
      { type: 'state_changed', payload: 'running' },
      { type: 'session_opened', payload: { provider_session_id: 's', model: null } },
      { type: 'reasoning', payload: 'r' }, { type: 'text', payload: 't' }, { type: 'message_boundary' },
      { type: 'tool_call', payload: { id: null, name: 'Bash', input: { command: 'ls' } } },
      { type: 'tool_result', payload: { id: 't', ok: null, output: '' } },
      { type: 'approval_requested', payload: { approval_id: 'a', title: 'Edit', detail: { file_path: 'x' } } },
      { type: 'usage', payload: { input_tokens: 1 } }, { type: 'rate_limit', payload: null },
      { type: 'compaction', payload: 'manual' }, { type: 'commands', payload: ['/compact'] },
      { type: 'error', payload: 'oops' },
    ];
    for (const event of events) {
      const parsed = RunEventSchema.parse(event);
      assert.notEqual(parsed.type, 'unknown', JSON.stringify(event));
      assert.deepEqual(serializeRunEvent(parsed), event);
    }
  });

  it('message_boundary without payload or with null payload', () => {
    assert.deepEqual(RunEventSchema.parse({ type: 'message_boundary' }), { type: 'message_boundary' });
    assert.deepEqual(RunEventSchema.parse({ type: 'message_boundary', payload: null }), { type: 'message_boundary' });
  });

  it('unknown event types keep their type and raw payload; malformed known ones say why', () => {
    const unknown = RunEventSchema.parse({ type: 'hologram', payload: { x: 1 } });
    assert.deepEqual(unknown, { type: 'unknown', rawType: 'hologram', payload: { x: 1 } });
    assert.deepEqual(serializeRunEvent(unknown), { type: 'hologram', payload: { x: 1 } });
    const malformed = RunEventSchema.parse({ type: 'text', payload: 42 });
    assert.equal(malformed.type, 'unknown');
    assert.ok(malformed.type === 'unknown' && malformed.rawType === 'text' && malformed.payload === 42);
    assert.ok(malformed.type === 'unknown' && (malformed.issue ?? '').length > 0);
    const frame = parseOk('{"kind":"event","run_id":"r","sequence":1,"event":{"type":"hologram"}}');
    assert.ok(frame.kind === 'event' && frame.event.type === 'unknown');
  });

  it('unknown response types keep the raw frame', () => {
    const frame = parseOk('{"kind":"response","request_id":7,"type":"teleported","where":"mars"}');
    assert.ok(frame.kind === 'response' && frame.type === 'unknown');
    assert.equal(frame.rawType, 'teleported');
    assert.equal(frame.request_id, 7);
    assert.deepEqual(frame.raw, { kind: 'response', request_id: 7, type: 'teleported', where: 'mars' });
    const broken = parseOk('{"kind":"response","request_id":8,"type":"runs","runs":"nope"}');
    assert.ok(broken.kind === 'response' && broken.type === 'unknown' && broken.rawType === 'runs' && broken.issue !== undefined);
  });

  it('reports frames without a usable kind as errors instead of throwing', () => {
    for (const value of [null, 3, [], { kind: 'gossip' }, { kind: 'event', run_id: 'r' }, { kind: 'response', type: 'x' }]) {
      const parsed = parseServerFrame(value);
      assert.equal(parsed.ok, false, JSON.stringify(value));
    }
  });
});
