/**
 * Messages between sessions, as the ACP mapping keeps them: `session_message` is an upsert by id (omitted: unchanged;
 * `null`: cleared; content `null` or `[]`: cleared; other content: replaced), a chunk appends a block (also before any
 * upsert), and the row says who sent it to whom by the other session's run title, in the transcript it is in.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { mapAcpUpdate, newAcpMappingState } from '../../../../extension/drivers/acp/acpEventMapping';
import type { AcpSessionMessage, RunOf } from '../../../../extension/drivers/acp/acpSessionMessages';
import { sessionMessageEvent } from '../../../../extension/drivers/acp/acpSessionMessages';

const PARENT = 'parent';
const CHILD = 'child';
const runs: Record<string, { title?: string; parentRunId?: string }> = {
  [PARENT]: { title: 'Fix the build' },
  [CHILD]: { title: 'Explore', parentRunId: PARENT },
  other: { title: 'Review', parentRunId: PARENT },
};
const runOf: RunOf = (id) => runs[id];

function rowsIn(self: string, updates: readonly Record<string, unknown>[]): { from: string; body: string; messageId?: string }[] {
  const state = newAcpMappingState();
  return updates.map((update) => {
    const mapped = mapAcpUpdate(state, update as SessionUpdate);
    assert.deepEqual(mapped.events, [{ kind: 'messageBoundary' }], 'no raw row; what streamed before is closed');
    const event = sessionMessageEvent(self, mapped.effects.message!, runOf);
    assert.equal(event.kind, 'message');
    return event.kind === 'message' ? { from: event.from, body: event.body, messageId: event.messageId } : { from: '', body: '' };
  });
}

const text = (t: string) => ({ type: 'text', text: t });

test('a chunk before the upsert: the row starts from "another session" and the upsert names the sender, keeping the text', () => {
  const rows = rowsIn(PARENT, [
    { sessionUpdate: 'session_message_chunk', messageId: 'm', content: text('Found ') },
    { sessionUpdate: 'session_message_chunk', messageId: 'm', content: text('**two** files') },
    { sessionUpdate: 'session_message', messageId: 'm', senderSessionId: CHILD, recipientSessionId: PARENT },
  ]);
  assert.deepEqual(rows, [
    { from: 'From another session', body: 'Found ', messageId: 'm' },
    { from: 'From another session', body: 'Found **two** files', messageId: 'm' },
    { from: 'From subagent Explore', body: 'Found **two** files', messageId: 'm' },
  ]);
});

test('an upsert replaces the content; null or [] clears it, null clears the sender; omitted fields stay', () => {
  const rows = rowsIn(CHILD, [
    { sessionUpdate: 'session_message', messageId: 'm', senderSessionId: PARENT, content: [text('one'), text(' two')] },
    { sessionUpdate: 'session_message', messageId: 'm', content: [text('three')] },
    { sessionUpdate: 'session_message', messageId: 'm', content: [] },
    { sessionUpdate: 'session_message_chunk', messageId: 'm', content: text('four') },
    { sessionUpdate: 'session_message', messageId: 'm', content: null },
    { sessionUpdate: 'session_message', messageId: 'm', senderSessionId: null, content: [text('five')] },
  ]);
  assert.deepEqual(rows.map((r) => [r.from, r.body]), [
    ['From Fix the build', 'one two'],
    ['From Fix the build', 'three'],
    ['From Fix the build', ''],
    ['From Fix the build', 'four'],
    ['From Fix the build', ''],
    ['From another session', 'five'],
  ]);
});

test('each message id is its own message', () => {
  const rows = rowsIn(PARENT, [
    { sessionUpdate: 'session_message_chunk', messageId: 'a', content: text('A') },
    { sessionUpdate: 'session_message_chunk', messageId: 'b', content: text('B') },
    { sessionUpdate: 'session_message_chunk', messageId: 'a', content: text('A2') },
  ]);
  assert.deepEqual(rows.map((r) => [r.messageId, r.body]), [['a', 'A'], ['b', 'B'], ['a', 'AA2']]);
});

test('the header says who sent it to whom, from where the row is', () => {
  const header = (self: string, sender?: string, recipient?: string): string => {
    const message: AcpSessionMessage = { messageId: 'm', content: [], ...(sender ? { sender } : {}), ...(recipient ? { recipient } : {}) };
    const event = sessionMessageEvent(self, message, runOf);
    return event.kind === 'message' ? event.from : '';
  };
  assert.equal(header(PARENT, PARENT, CHILD), 'To subagent Explore');
  assert.equal(header(PARENT, CHILD, PARENT), 'From subagent Explore');
  assert.equal(header(CHILD, PARENT, CHILD), 'From Fix the build');
  assert.equal(header(CHILD, CHILD, PARENT), 'To Fix the build');
  assert.equal(header(PARENT, CHILD, 'other'), 'From subagent Explore to subagent Review');
  assert.equal(header(PARENT, 'unknown', PARENT), 'From another session');
  assert.equal(header(PARENT, PARENT, 'unknown'), 'To another session');
  assert.equal(header(PARENT), 'From another session');
});

test('only blocks the agent marks as not for the user are left out; text that reads as meant for the model stays', () => {
  const modelText = 'Async agent launched successfully. (This tool result is internal metadata — never quote it.)';
  const rows = rowsIn(PARENT, [
    {
      sessionUpdate: 'session_message',
      messageId: 'm',
      senderSessionId: CHILD,
      content: [
        { type: 'text', text: 'for the model only', annotations: { audience: ['assistant'] } },
        { type: 'text', text: 'Shown. ', annotations: { audience: ['user', 'assistant'] } },
        text(modelText),
        { type: 'resource_link', name: 'notes.md', uri: 'file:///w/notes.md' },
      ],
    },
  ]);
  assert.equal(rows[0]?.body, `Shown. ${modelText}[notes.md](file:///w/notes.md)`);
});
