/** The ACP trace check: each message by its method's schema, a response by the request it answers. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAcpTrace, loadAcpSchemas } from './acpTraceSchemas';

const line = (dir: 'in' | 'out', frame: unknown, connection = 'unit:ref'): string => JSON.stringify({ protocol: 'acp', connection, dir, frame });

test('valid requests, responses and notifications pass; each wrong one is named', async () => {
  const schemas = await loadAcpSchemas();
  const good = [
    line('out', { jsonrpc: '2.0', id: 0, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }),
    line('in', { jsonrpc: '2.0', id: 0, result: { sessionId: 's1' } }),
    line('in', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } } }),
    line('in', { jsonrpc: '2.0', id: 'p1', method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 't1' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] } }),
    line('out', { jsonrpc: '2.0', id: 'p1', result: { outcome: { outcome: 'cancelled' } } }),
    line('out', { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } }),
    line('in', { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } }),
    line('in', { unparsed: 'not json {' }),
    JSON.stringify({ protocol: 'scv', dir: 'out', frame: { type: 'anything' } }),
  ].join('\n');
  assert.deepEqual(checkAcpTrace(good, schemas), { checked: 7, problems: [] });

  const bad = [
    line('out', { jsonrpc: '2.0', id: 0, method: 'session/new', params: { cwd: 42 } }),
    line('in', { jsonrpc: '2.0', id: 0, result: { sessionId: 7 } }),
    line('in', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'no_such_update' } } }),
    line('out', { jsonrpc: '2.0', id: 3, method: 'fs/read_text_file', params: {} }),
  ].join('\n');
  const { problems } = checkAcpTrace(bad, schemas);
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.match(problems[0]!, /^unit:ref out session\/new: cwd/);
  assert.match(problems[1]!, /response 0 \(session\/new\): sessionId/, 'the answer is checked as the answer to session/new');
  assert.match(problems[2]!, /in session\/update/);
  assert.match(problems[3]!, /not a request this side sends/);
});
