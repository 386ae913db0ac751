/**
 * The reference ACP agent's edit tool (keyword `edit`): a tool_call with diff content on a real file of the session
 * cwd, session/request_permission before it is applied, the write only when allowed (through fs/write_text_file when
 * the client advertises it, else directly), the "always" options, the modes that gate it, and cancel while the
 * permission request is pending.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import { CREATED_TEXT, editedText } from '../../fixtures/acp/editTool';
import { startInProcessAgent } from '../../fixtures/acp/inProcessAgent';
import type { AcpTestClientOptions } from './acpTestClient';
import { AcpTestClient, waitFor } from './acpTestClient';
import type { TempWorkspace } from './acpWorkspace';
import { README_TEXT, makeWorkspace } from './acpWorkspace';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) {
    c();
  }
});

async function setup(options: AcpTestClientOptions = {}): Promise<{ client: AcpTestClient; ws: TempWorkspace; sessionId: string }> {
  const ws = makeWorkspace();
  const agent = startInProcessAgent();
  const client = new AcpTestClient(agent.clientStream, { root: ws.dir, ...options });
  cleanups.push(ws.remove, () => agent.close());
  await client.initialize();
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  return { client, ws, sessionId };
}

function prompt(client: AcpTestClient, sessionId: string, text: string): Promise<string> {
  return client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] }).then((r) => r.stopReason);
}

const statuses = (client: AcpTestClient, sessionId: string): string[] =>
  client.updates(sessionId).flatMap((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update' ? [`${u.sessionUpdate}:${u.status ?? ''}`] : []));

test('allowed once, with fs capabilities: diff, permission (4 options), fs/read + fs/write, completed', { timeout: 10_000 }, async () => {
  const { client, ws, sessionId } = await setup({ fs: true });
  assert.equal(await prompt(client, sessionId, 'please edit the readme'), 'end_turn');
  assert.equal(readFileSync(ws.readme, 'utf8'), editedText(README_TEXT));
  const call = client.updates(sessionId, 'tool_call')[0];
  assert.ok(call?.sessionUpdate === 'tool_call' && call.kind === 'edit' && call.status === 'pending');
  const diff: ToolCallContent = { type: 'diff', path: ws.readme, oldText: README_TEXT, newText: editedText(README_TEXT) };
  assert.deepEqual(call.content, [diff]);
  assert.deepEqual(call.locations, [{ path: ws.readme, line: 4 }]);
  const asked = client.permissionRequests[0]!;
  assert.deepEqual(asked.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once', 'reject_always']);
  assert.equal(asked.toolCall.toolCallId, call.toolCallId);
  assert.deepEqual(asked.toolCall.content, [diff]);
  assert.deepEqual(client.reads, [ws.readme]);
  assert.deepEqual(client.writes, [{ path: ws.readme, content: editedText(README_TEXT) }]);
  assert.deepEqual(statuses(client, sessionId), ['tool_call:pending', 'tool_call_update:in_progress', 'tool_call_update:completed']);
  // On the wire: the tool_call comes before the permission request, and the write before `completed`.
  const order = client.frames.map((f) => ('method' in f.message ? `${f.message.method}${f.message.method === 'session/update' ? `:${(f.message.params as { update: { sessionUpdate: string; status?: string } }).update.status ?? ''}` : ''}` : ''));
  const at = (what: string): number => order.indexOf(what);
  assert.ok(at('session/update:pending') < at('session/request_permission'));
  assert.ok(at('session/request_permission') < at('fs/write_text_file') && at('fs/write_text_file') < at('session/update:completed'));
  assert.match(client.text(sessionId), /Edited `README\.md`\./);
});

test('allowed once, without fs capabilities: the agent writes the file itself', { timeout: 10_000 }, async () => {
  const { client, ws, sessionId } = await setup({ fs: false });
  assert.equal(await prompt(client, sessionId, 'edit'), 'end_turn');
  assert.equal(readFileSync(ws.readme, 'utf8'), editedText(README_TEXT));
  assert.deepEqual(client.writes, []);
  assert.deepEqual(client.reads, []);
});

test('rejected once: the file is unchanged and the tool call failed', { timeout: 10_000 }, async () => {
  const { client, ws, sessionId } = await setup({ fs: true, permission: 'reject_once' });
  assert.equal(await prompt(client, sessionId, 'edit'), 'end_turn');
  assert.equal(readFileSync(ws.readme, 'utf8'), README_TEXT);
  assert.deepEqual(client.writes, []);
  assert.deepEqual(statuses(client, sessionId), ['tool_call:pending', 'tool_call_update:failed']);
  assert.match(client.text(sessionId), /rejected/);
});

test('allow_always: the next edit is applied without asking; reject_always: the next is refused without asking', { timeout: 10_000 }, async () => {
  const allow = await setup({ permission: 'allow_always' });
  await prompt(allow.client, allow.sessionId, 'edit');
  await prompt(allow.client, allow.sessionId, 'edit');
  assert.equal(allow.client.permissionRequests.length, 1);
  assert.equal(readFileSync(allow.ws.readme, 'utf8'), editedText(editedText(README_TEXT)));
  const reject = await setup({ permission: 'reject_always' });
  await prompt(reject.client, reject.sessionId, 'edit');
  await prompt(reject.client, reject.sessionId, 'edit');
  assert.equal(reject.client.permissionRequests.length, 1);
  assert.equal(readFileSync(reject.ws.readme, 'utf8'), README_TEXT);
  assert.deepEqual(statuses(reject.client, reject.sessionId).filter((s) => s.endsWith('failed')).length, 2);
});

test('modes gate edits: auto applies without asking, plan never edits', { timeout: 10_000 }, async () => {
  const { client, ws, sessionId } = await setup();
  await client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' });
  await prompt(client, sessionId, 'edit');
  assert.equal(client.permissionRequests.length, 0);
  assert.equal(readFileSync(ws.readme, 'utf8'), editedText(README_TEXT));
  await client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
  await prompt(client, sessionId, 'edit');
  assert.equal(client.permissionRequests.length, 0);
  assert.equal(readFileSync(ws.readme, 'utf8'), editedText(README_TEXT));
  assert.equal(statuses(client, sessionId).at(-1), 'tool_call_update:failed');
});

test('cancel while the permission request is pending: it is answered cancelled, the turn ends cancelled, nothing written', { timeout: 10_000 }, async () => {
  const { client, ws, sessionId } = await setup({ fs: true, permission: 'hold' });
  const turn = prompt(client, sessionId, 'edit');
  await waitFor('the permission request', () => client.heldPermissions === 1);
  await client.cancel(sessionId);
  assert.equal(await turn, 'cancelled');
  assert.equal(client.heldPermissions, 0);
  assert.equal(readFileSync(ws.readme, 'utf8'), README_TEXT);
  assert.deepEqual(client.writes, []);
  // The permission answer on the wire is the spec's `cancelled` outcome.
  const answer = client.frames.find((f) => f.dir === 'out' && 'result' in f.message && (f.message.result as { outcome?: { outcome?: string } }).outcome !== undefined);
  assert.deepEqual((answer?.message as { result: unknown }).result, { outcome: { outcome: 'cancelled' } });
});

test('edit:<path> creates a new file (diff without oldText); a path outside the cwd is refused', { timeout: 10_000 }, async () => {
  const { client, ws, sessionId } = await setup();
  await prompt(client, sessionId, 'edit:notes/../NEW.md');
  assert.equal(readFileSync(join(ws.dir, 'NEW.md'), 'utf8'), CREATED_TEXT);
  const call = client.updates(sessionId, 'tool_call')[0];
  assert.ok(call?.sessionUpdate === 'tool_call');
  assert.deepEqual(call.content, [{ type: 'diff', path: join(ws.dir, 'NEW.md'), oldText: null, newText: CREATED_TEXT }]);
  await prompt(client, sessionId, 'edit:../escape.md');
  assert.equal(existsSync(join(ws.dir, '..', 'escape.md')), false);
  assert.equal(statuses(client, sessionId).at(-1), 'tool_call:failed');
});

test('a client that refuses the write (outside its root): the tool call fails, the file is unchanged', { timeout: 10_000 }, async () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'acp-root-'));
  cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
  const { client, ws, sessionId } = await setup({ fs: true, root: elsewhere });
  assert.equal(await prompt(client, sessionId, 'edit'), 'end_turn');
  assert.equal(readFileSync(ws.readme, 'utf8'), README_TEXT);
  assert.equal(statuses(client, sessionId).at(-1), 'tool_call_update:failed');
});
