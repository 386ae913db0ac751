/**
 * How the session reports of ACP 2.4's unstable schema map onto the run model (acpEventMapping.ts, acpSubagents.ts):
 * usage as a `usage` event (no row), a notice with its severity as the level, compaction by id, a subagent as a side
 * effect with its state as a run state, and the elicitation form fields the UI asks for (acpElicitations.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { mapAcpUpdate, newAcpMappingState } from '../../../../extension/drivers/acp/acpEventMapping';
import { formFields } from '../../../../extension/drivers/acp/acpElicitations';

const map = (update: Record<string, unknown>) => mapAcpUpdate(newAcpMappingState(), update as SessionUpdate);

test('usage_update is the run\'s usage, not a row; a report without a cost carries none', () => {
  assert.deepEqual(map({ sessionUpdate: 'usage_update', used: 5, size: 10, cost: { amount: 0.25, currency: 'USD' } }).events, [
    { kind: 'usage', used: 5, size: 10, cost: { amount: 0.25, currency: 'USD' } },
  ]);
  assert.deepEqual(map({ sessionUpdate: 'usage_update', used: 6, size: 10, _meta: { '_claude/model': 'x' } }).events, [{ kind: 'usage', used: 6, size: 10 }]);
});

test('a notice is a row: title and description, its severity the level (an unknown one reads as information)', () => {
  assert.deepEqual(map({ sessionUpdate: 'notice', severity: 'warning', title: 'Slow', description: 'Retrying.' }).events, [{ kind: 'notice', text: 'Slow: Retrying.', level: 'warning' }]);
  assert.deepEqual(map({ sessionUpdate: 'notice', severity: 'error', title: 'Failed' }).events, [{ kind: 'notice', text: 'Failed', level: 'error' }]);
  assert.deepEqual(map({ sessionUpdate: 'notice', severity: '_vendor', title: 'Hm' }).events, [{ kind: 'notice', text: 'Hm', level: 'info' }]);
});

test('compaction updates and summary chunks are one compaction by id', () => {
  assert.deepEqual(map({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress' }).events, [{ kind: 'compaction', compactionId: 'c', status: 'in_progress' }]);
  assert.deepEqual(map({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: { type: 'text', text: 'abc' } }).events, [
    { kind: 'compaction', compactionId: 'c', summaryDelta: 'abc' },
  ]);
  assert.deepEqual(map({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: [{ type: 'text', text: 'S' }] }).events, [
    { kind: 'compaction', compactionId: 'c', status: 'completed', summary: 'S' },
  ]);
  assert.deepEqual(map({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: 'no' }).events, [{ kind: 'compaction', compactionId: 'c', status: 'failed', error: 'no' }]);
});

test('subagent_update is a side effect: the child\'s id, title and state as a run state; omitted fields stay unchanged', () => {
  const first = map({ sessionUpdate: 'subagent_update', sessionId: 'k', title: 'T', state: { state: 'running' }, capabilities: { cancel: {} } });
  assert.deepEqual(first, { events: [], effects: { subagent: { sessionId: 'k', title: 'T', state: 'running', canCancel: true } } });
  assert.deepEqual(map({ sessionUpdate: 'subagent_update', sessionId: 'k', state: { state: 'idle', stopReason: 'end_turn' } }).effects.subagent, { sessionId: 'k', state: 'idle' });
  assert.deepEqual(map({ sessionUpdate: 'subagent_update', sessionId: 'k', state: { state: 'idle', stopReason: 'error' } }).effects.subagent, { sessionId: 'k', state: 'failed' });
  assert.deepEqual(map({ sessionUpdate: 'subagent_update', sessionId: 'k', state: { state: 'requires_action' } }).effects.subagent, { sessionId: 'k', state: 'waiting_approval' });
  assert.deepEqual(map({ sessionUpdate: 'subagent_update', sessionId: 'k', state: { state: 'unknown' }, capabilities: null }).effects.subagent, { sessionId: 'k', canCancel: false });
});

test('elicitation form fields: Claude\'s AskUserQuestion (titled single-select, optional "Other"), numbers, booleans, multi-select; others are named', () => {
  const { fields, unsupported } = formFields({
    properties: {
      question_0: { type: 'string', title: 'Database', oneOf: [{ const: 'pg', title: 'PostgreSQL', description: 'A server' }] },
      question_0_custom: { type: 'string', title: 'Other' },
      retries: { type: 'integer', minimum: 0, maximum: 5, default: 2 },
      ratio: { type: 'number' },
      push: { type: 'boolean', default: true },
      tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] }, maxItems: 1 },
      plain: { type: 'string', enum: ['x', 'y'] },
      blob: { type: '_vendor' },
    },
    required: ['retries'],
  });
  assert.deepEqual(fields, [
    { name: 'question_0', title: 'Database', required: false, kind: 'choice', options: [{ value: 'pg', title: 'PostgreSQL', description: 'A server' }] },
    { name: 'question_0_custom', title: 'Other', required: false, kind: 'text' },
    { name: 'retries', title: 'retries', required: true, kind: 'number', integer: true, minimum: 0, maximum: 5, default: 2 },
    { name: 'ratio', title: 'ratio', required: false, kind: 'number', integer: false },
    { name: 'push', title: 'push', required: false, kind: 'boolean', default: true },
    { name: 'tags', title: 'tags', required: false, kind: 'choices', options: [{ value: 'a', title: 'A' }], maxItems: 1 },
    { name: 'plain', title: 'plain', required: false, kind: 'choice', options: [{ value: 'x', title: 'x' }, { value: 'y', title: 'y' }] },
  ]);
  assert.deepEqual(unsupported, ['blob: _vendor']);
});
