/**
 * Tool rows of ACP sessions, as the transcript shows them after the updates real agents send (mapped by
 * acpEventMapping.ts and folded by the model): later updates fill in the title and input of a call that started
 * bare (claude-agent-acp), a command's rawOutput is its output when no content comes (codex-acp), and output in one
 * markdown fence is shown without it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { mapAcpUpdate, newAcpMappingState } from '../../../../extension/drivers/acp/acpEventMapping';
import { rawOutputText, withoutFence } from '../../../../extension/drivers/acp/acpToolRows';
import { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** The tool rows after folding `updates` into a run. */
function rows(updates: readonly SessionUpdate[]): ToolItem[] {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'acp', protocol: 'acp' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { title: 'T', state: 'running', createdAt: 1 } });
  const mapping = newAcpMappingState();
  for (const update of updates) {
    for (const event of mapAcpUpdate(mapping, update).events) {
      store.dispatch({ type: 'runEvent', runKey: 'c::r', event });
    }
  }
  return (store.transcript('c::r')?.snapshot() ?? []).filter((i): i is ToolItem => i.kind === 'tool');
}

test('later updates replace a bare call\'s title and input (claude-agent-acp: "Edit" with {})', () => {
  const input = { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' };
  const [row, ...more] = rows([
    { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'pending', rawInput: {} },
    { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Edit `/w/a.ts`', rawInput: input, locations: [{ path: '/w/a.ts' }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] },
  ]);
  assert.equal(more.length, 0, 'one row');
  assert.deepEqual([row!.name, row!.input, row!.status, row!.output], ['Edit `/w/a.ts`', input, 'succeeded', 'done']);
});

test('a command that ends with rawOutput only shows its output and exit code (codex-acp)', () => {
  const [row] = rows([
    { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run ls', kind: 'execute', status: 'in_progress', rawInput: { command: ['ls'] } },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed', rawOutput: { call_id: 'c1', stdout: 'a.ts\n', stderr: 'ls: b: No such file\n', aggregated_output: '', exit_code: 2, duration: { secs: 0, nanos: 1 } } },
  ]);
  assert.deepEqual([row!.status, row!.output], ['failed', 'a.ts\nls: b: No such file\nexit code 2']);
  assert.equal(rawOutputText({ aggregated_output: 'both\n', stdout: 'x', exit_code: 0 }), 'both\nexit code 0', 'the interleaved output when there is one');
  assert.equal(rawOutputText({ written: '/w/a', bytes: 3 }), '{"written":"/w/a","bytes":3}', 'anything else as JSON');
});

test('output streamed in one markdown fence is shown without it; the last one stays when the end has no content', () => {
  const [row] = rows([
    { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Run tests', kind: 'execute', status: 'in_progress' },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c2', content: [{ type: 'content', content: { type: 'text', text: '```sh\nok 1\n```\n' } }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c2', content: [{ type: 'content', content: { type: 'text', text: '```sh\nok 1\nok 2\n```\n' } }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'completed' },
  ]);
  assert.equal(row!.output, 'ok 1\nok 2');
  assert.equal(withoutFence('```ts\nconst a = 1;\n```'), 'const a = 1;');
  assert.equal(withoutFence('text\n```sh\nx\n```\n'), 'text\n```sh\nx\n```\n', 'a fence that does not enclose everything stays');
  assert.equal(withoutFence('```a\nx\n```\n\n```b\ny\n```'), '```a\nx\n```\n\n```b\ny\n```', 'two blocks stay');
});

test('a late update of a finished call adds no second row', () => {
  const all = rows([
    { sessionUpdate: 'tool_call', toolCallId: 't3', title: 'Read a.ts', kind: 'read', status: 'completed' },
    { sessionUpdate: 'tool_call_update', toolCallId: 't3', title: 'Read a.ts (again)' },
  ]);
  assert.equal(all.length, 1);
});

test('terminal content links the row to its terminals (not output text), and the link stays when later content drops it', () => {
  const [row] = rows([
    { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Run make', kind: 'execute', status: 'pending', content: [{ type: 'terminal', terminalId: 'term-1' }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }, { type: 'terminal', terminalId: 'term-2' }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'exit code 2' } }] },
  ]);
  assert.deepEqual(row?.terminals, ['term-1', 'term-2']);
  assert.equal(row?.output, 'exit code 2');
  assert.equal(row?.status, 'failed');
});

test('a late update naming a terminal of a finished call adds no row', () => {
  const all = rows([
    { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Run', kind: 'execute', status: 'completed' },
    { sessionUpdate: 'tool_call_update', toolCallId: 'x', content: [{ type: 'terminal', terminalId: 'term-1' }] },
  ]);
  assert.equal(all.length, 1);
  assert.equal(all[0]?.terminals, undefined);
});
