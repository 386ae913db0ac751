/** Which files an ACP tool call edited, as the agent said (issue #26): a completed call's diffs and edit locations. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { editedPaths, mapAcpUpdate, newAcpMappingState } from '../../../../extension/drivers/acp/acpEventMapping';

const update = (u: Record<string, unknown>) => u as unknown as SessionUpdate;

test('a completed edit reports its diffs and locations; a read, a failed call and a proposal report nothing', () => {
  const state = newAcpMappingState();
  // claude-agent-acp: a bare "Edit" first, the diff and locations in later updates, then completed.
  assert.equal(mapAcpUpdate(state, update({ sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'Edit', kind: 'edit', status: 'pending', rawInput: {} })).effects.edited, undefined);
  mapAcpUpdate(state, update({ sessionUpdate: 'tool_call_update', toolCallId: 'e1', locations: [{ path: '/w/README.md' }], content: [{ type: 'diff', path: '/w/README.md', oldText: 'a', newText: 'b' }] }));
  assert.deepEqual(mapAcpUpdate(state, update({ sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed' })).effects.edited, ['/w/README.md']);

  mapAcpUpdate(state, update({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read', kind: 'read', status: 'in_progress', locations: [{ path: '/w/a.ts' }] }));
  assert.equal(mapAcpUpdate(state, update({ sessionUpdate: 'tool_call_update', toolCallId: 'r1', status: 'completed' })).effects.edited, undefined);

  mapAcpUpdate(state, update({ sessionUpdate: 'tool_call', toolCallId: 'f1', title: 'Write', kind: 'edit', status: 'in_progress', locations: [{ path: '/w/b.ts' }] }));
  assert.equal(mapAcpUpdate(state, update({ sessionUpdate: 'tool_call_update', toolCallId: 'f1', status: 'failed' })).effects.edited, undefined);

  // One update that starts and completes a move (codex-acp reports a finished call in one `tool_call`).
  const done = mapAcpUpdate(state, update({ sessionUpdate: 'tool_call', toolCallId: 'm1', title: 'Move', kind: 'move', status: 'completed', locations: [{ path: '/w/c.ts' }, { path: '/w/d.ts' }] }));
  assert.deepEqual(done.effects.edited, ['/w/c.ts', '/w/d.ts']);
  assert.deepEqual(editedPaths(undefined), []);
});
