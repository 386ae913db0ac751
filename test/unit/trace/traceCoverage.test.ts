/** The trace-coverage check reads our protocol reference's lists right and recognises each protocol's client frames. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverage, kindsOf, readProtocolDocs, requiredKinds } from './traceCoverage';

const docs = readProtocolDocs();

test('the required kinds are the client-message tables of docs/protocols: AgencyProxy (+ decisions, shutdown modes), SCV, A3S, hive operator requests', () => {
  const r = requiredKinds(docs);
  assert.deepEqual(r['agency-proxy'], [
    'hello', 'list_runs', 'probe_providers', 'read_account_usage', 'shutdown_if_idle', 'shutdown', 'start_run', 'attach_run', 'detach_run',
    'inject_message', 'cancel_run', 'decide_approval', 'ack_events',
    'decide_approval:allow_once', 'decide_approval:allow_similar', 'decide_approval:deny', 'shutdown:drain', 'shutdown:terminate',
  ]);
  assert.deepEqual(r.scv, [
    'initialize', 'daemon.control', 'session.start', 'turn.start', 'queue.update', 'queue.move', 'queue.remove', 'session.pause', 'turn.cancel',
    'approval.resolve', 'session.clear',
  ]);
  assert.deepEqual(r.a3s, ['start', 'cancel', 'recover']);
  assert.equal(r.hive.length, 27);
  for (const cmd of ['operator_msg', 'send', 'ask', 'answer', 'get_loose_ends', 'kill', 'request_schedule_prompt', 'edit_schedule']) {
    assert.ok(r.hive.includes(cmd), cmd);
  }
  assert.ok(!r.hive.includes('recv') && !r.hive.includes('ack_until'), 'agent-side calls are not operator requests');
});

test('outgoing frames are classified per protocol; incoming ones and other HTTP calls are not client messages', () => {
  assert.deepEqual(kindsOf({ protocol: 'agency-proxy', dir: 'out', frame: { type: 'decide_approval', decision: 'deny' } }), ['decide_approval', 'decide_approval:deny']);
  assert.deepEqual(kindsOf({ protocol: 'agency-proxy', dir: 'in', frame: { type: 'hello' } }), []);
  assert.deepEqual(kindsOf({ protocol: 'scv', dir: 'out', frame: { type: 'turn.start' } }), ['turn.start']);
  assert.deepEqual(kindsOf({ protocol: 'a3s', dir: 'out', frame: { action: 'cancel' }, http: { path: '/v1/agent/commands' } }), ['cancel']);
  assert.deepEqual(kindsOf({ protocol: 'a3s', dir: 'out', frame: { action: 'cancel' }, http: { path: '/v1/agent/events:page' } }), []);
  assert.deepEqual(kindsOf({ protocol: 'hive', dir: 'out', frame: { cmd: 'status' } }), ['status']);
  assert.deepEqual(kindsOf({ protocol: 'acp', dir: 'out', frame: { jsonrpc: '2.0', id: 3, method: 'session/prompt', params: {} } }), ['session/prompt']);
  assert.deepEqual(kindsOf({ protocol: 'acp', dir: 'out', frame: { jsonrpc: '2.0', id: 0, result: { outcome: { outcome: 'selected', optionId: 'a' } } } }), ['request_permission:selected']);
  assert.deepEqual(kindsOf({ protocol: 'acp', dir: 'in', frame: { jsonrpc: '2.0', method: 'session/update', params: {} } }), []);
});

test('coverage lists what is missing and counts lines that are not JSON', () => {
  const trace = [
    JSON.stringify({ protocol: 'a3s', dir: 'out', frame: { action: 'start' }, http: { path: '/v1/agent/commands' } }),
    '{"truncated',
    '',
  ].join('\n');
  const result = coverage(trace, { 'agency-proxy': ['hello'], scv: [], a3s: ['start', 'recover'], hive: [], acp: ['session/new'] });
  assert.deepEqual(result.missing, { 'agency-proxy': ['hello'], scv: [], a3s: ['recover'], hive: [], acp: ['session/new'] });
  assert.equal(result.badLines, 1);
});
