/** The pure A3S event → run model mapping: tools, truncation, bounded stubs, confirmations, unknown types. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapA3sEvent, mapA3sRunState, newA3sMappingState } from '../../../../extension/drivers/a3s/a3sEventMapping';
import { A3S_TRUNCATION_SUFFIX, decodeA3sEvent } from '../../../../extension/protocol/a3s';

let seq = 0;
const view = (type: string, payload: unknown) =>
  decodeA3sEvent({ sequence: seq, occurred_at_ms: 1, event: { version: 1, type, payload, metadata: { run_id: 'r', session_id: 's', sequence: seq++, timestamp_ms: 1 } } });

test('tool input accumulates; truncated output and exit codes are shown', () => {
  const state = newA3sMappingState();
  assert.deepEqual(mapA3sEvent(view('tool_start', { id: 't', name: 'bash' }), state).events, [{ kind: 'toolCall', callId: 't', name: 'bash', input: null, status: 'running' }]);
  mapA3sEvent(view('tool_input_delta', { id: 't', delta: '{"a":' }), state);
  assert.deepEqual(mapA3sEvent(view('tool_input_delta', { id: 't', delta: '1}' }), state).events, [{ kind: 'toolInputDelta', callId: 't', delta: '{"a":1}' }]);
  const out = mapA3sEvent(view('tool_output_delta', { id: 't', delta: `abc${A3S_TRUNCATION_SUFFIX}` }), state).events[0];
  assert.deepEqual(out, { kind: 'toolOutputDelta', callId: 't', delta: 'abc\n… (truncated by the harness)' });
  // tool_end without output keeps the streamed output and reports its truncation.
  assert.deepEqual(mapA3sEvent(view('tool_end', { id: 't', name: 'bash', exit_code: 2, error_kind: 'exit_status' }), state).events, [
    { kind: 'toolResult', callId: 't', ok: false, output: '(exit code 2)', truncated: true, errorKind: 'exit_status', name: 'bash' },
  ]);
  assert.equal(state.toolInput.size + state.truncatedTools.size, 0, 'bookkeeping is released');
  const bounded = mapA3sEvent(view('tool_end', { bounded: true, reason: 'agent_protocol_event_payload_limit', original_payload_sha256: `sha256:${'a'.repeat(64)}`, id: 'u', exit_code: 0 }), state).events[0];
  assert.ok(bounded?.kind === 'toolResult' && bounded.truncated === true && bounded.ok === true && /exceeded 64 KiB/.test(bounded.output));
});

test('confirmations are notices (no approval verb); unknown and malformed events are raw', () => {
  const state = newA3sMappingState();
  const kinds = ['confirmation_required', 'confirmation_received', 'confirmation_timeout', 'permission_denied', 'user_question'].flatMap((t) =>
    mapA3sEvent(view(t, { tool_id: 'x', tool_name: 'rm', question: 'Proceed?' }), state).events.map((e) => e.kind),
  );
  assert.equal(kinds.includes('approvalRequested'), false);
  assert.ok(kinds.every((k) => k === 'notice' || k === 'raw'));
  assert.deepEqual(mapA3sEvent(view('brand_new_type', { x: 1 }), state).events, [{ kind: 'raw', label: 'brand_new_type (unknown type)', data: { x: 1 } }]);
  const malformed = mapA3sEvent(decodeA3sEvent({ sequence: 0, occurred_at_ms: 0, event: { type: 5 } }), state).events[0];
  assert.ok(malformed?.kind === 'raw' && malformed.label.startsWith('Malformed A3S event'));
  const turn = mapA3sEvent(view('turn_end', { turn: 3, usage: { total_tokens: 1234 } }), state).events;
  assert.deepEqual(turn.map((e) => e.kind), ['turn', 'data']);
  assert.ok(turn[1]?.kind === 'data' && turn[1].summary === 'Tokens: 1,234 total');
  // agent_end text is shown only when nothing was streamed.
  assert.ok(mapA3sEvent(view('agent_end', { text: 'Done.' }), state).events.some((e) => e.kind === 'textCompleted'));
  mapA3sEvent(view('text_delta', { text: 'hi' }), state);
  assert.ok(!mapA3sEvent(view('agent_end', { text: 'Done.' }), state).events.some((e) => e.kind === 'textCompleted'));
});

test('run states: cancelled → canceled, active states keep the harness word', () => {
  assert.deepEqual(mapA3sRunState('cancelled'), { state: 'canceled' });
  assert.deepEqual(mapA3sRunState('verifying'), { state: 'running', detail: 'verifying' });
  assert.deepEqual(mapA3sRunState('created'), { state: 'starting' });
  assert.deepEqual(mapA3sRunState('paused_future'), { state: 'running', detail: 'harness state: paused_future' });
});
