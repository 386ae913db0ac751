/**
 * The reference ACP agent as a child process (the esbuild bundle of test/fixtures/acp/main.ts): what needs a process
 * boundary — a crash mid-turn, a malformed stdout line, cancel of a slow stream, session/load and session/resume in
 * a new process on the same state dir. Every test stops its processes and asserts none is left.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import type { AgentProcess } from '../../fixtures/acp/agentProcess';
import { AUTH_ENV_VAR, AUTH_METHOD_ID } from '../../fixtures/acp/referenceAgent';
import { spawnReferenceAgent } from '../../fixtures/acp/referenceAgentProcess';
import { AcpTestClient, waitFor } from './acpTestClient';
import type { TempWorkspace } from './acpWorkspace';
import { makeWorkspace } from './acpWorkspace';

const cleanups: (() => void | Promise<void>)[] = [];
const agents: AgentProcess[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    assert.deepEqual(await agent.stop(), [], 'no process of the agent is left');
  }
  for (const c of cleanups.splice(0).reverse()) {
    await c();
  }
});

function workspaceAndState(): { ws: TempWorkspace; stateDir: string } {
  const ws = makeWorkspace();
  const stateDir = mkdtempSync(join(tmpdir(), 'acp-state-'));
  cleanups.push(ws.remove, () => rmSync(stateDir, { recursive: true, force: true }));
  return { ws, stateDir };
}

async function start(ws: TempWorkspace, stateDir: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<{ agent: AgentProcess; client: AcpTestClient }> {
  const agent = await spawnReferenceAgent({ cwd: ws.dir, stateDir, args: ['--chunk-ms', '0', '--slow-chunk-ms', '20', ...args], env });
  agents.push(agent);
  const client = new AcpTestClient(agent.stream, { fs: true, root: ws.dir });
  cleanups.push(() => client.close());
  await client.initialize();
  return { agent, client };
}

function prompt(client: AcpTestClient, sessionId: string, text: string): Promise<string> {
  return client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] }).then((r) => r.stopReason);
}

/** What a load replays: the history, without usage, command lists and the session's title (not part of the conversation). */
const conversation = (updates: readonly SessionUpdate[]): SessionUpdate[] =>
  updates.filter((u) => u.sessionUpdate !== 'usage_update' && u.sessionUpdate !== 'available_commands_update' && u.sessionUpdate !== 'session_info_update');

test('crash mid-turn: the prompt fails, the process exits 70 with the reason on stderr, nothing is left', { timeout: 20_000 }, async () => {
  const { ws, stateDir } = workspaceAndState();
  const { agent, client } = await start(ws, stateDir);
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  await assert.rejects(prompt(client, sessionId, 'crash now'));
  assert.deepEqual(await agent.exited, { code: 70, signal: null });
  assert.match(agent.stderrTail(3), /crashing on purpose/);
  assert.equal(client.text(sessionId), 'About to crash…');
  await client.connection.closed;
  assert.ok(client.connection.signal.aborted, 'the client saw the connection close');
});

test('a malformed line on stdout: the client survives, the turn completes, the next one too', { timeout: 20_000 }, async () => {
  const { ws, stateDir } = workspaceAndState();
  const { agent, client } = await start(ws, stateDir);
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  assert.equal(await prompt(client, sessionId, 'malformed output please'), 'end_turn');
  assert.match(agent.stdout(), /\n\{"jsonrpc":"2\.0","method":"session\/update", this line is not JSON\n/, 'the bad line went out');
  // The SDK's framing answers it with a parse error (-32700, id null) the agent's SDK logs; nothing reaches the app.
  await waitFor('the parse error reply', () => /Got response to unknown request null/.test(agent.stderr()));
  assert.ok(client.frames.every((f) => 'jsonrpc' in f.message));
  assert.match(client.text(sessionId), /export const answer = 42;/);
  assert.equal(await prompt(client, sessionId, 'and again'), 'end_turn');
  assert.equal(agent.child.exitCode, null, 'the agent still runs');
});

test('cancel mid-stream: a slow turn ends cancelled early; the session takes the next prompt', { timeout: 20_000 }, async () => {
  const { ws, stateDir } = workspaceAndState();
  const { client } = await start(ws, stateDir);
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  const slow = prompt(client, sessionId, 'slow');
  await waitFor('three chunks', () => client.text(sessionId).includes('chunk 3 '));
  const cancelledAt = Date.now();
  await client.cancel(sessionId);
  assert.equal(await slow, 'cancelled');
  assert.ok(Date.now() - cancelledAt < 1000, 'cancel is prompt');
  assert.ok(!client.text(sessionId).includes('chunk 100 '));
  assert.equal(await prompt(client, sessionId, 'nothink hi'), 'end_turn');
});

test('session/load in a new process replays the conversation, then the session goes on; resume does not replay', { timeout: 30_000 }, async () => {
  const { ws, stateDir } = workspaceAndState();
  const first = await start(ws, stateDir);
  const { sessionId } = await first.client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  await prompt(first.client, sessionId, 'hello one');
  await prompt(first.client, sessionId, 'plan edit mode:auto');
  const original = conversation(first.client.updates(sessionId));
  assert.deepEqual(await first.agent.stop(), []);

  const second = await start(ws, stateDir);
  const listed = await second.client.agent.request(methods.agent.session.list, { cwd: ws.dir });
  assert.deepEqual(listed.sessions.map((s) => [s.sessionId, s.title]), [[sessionId, 'Hello one']], 'the title the agent gave it after the first turn');
  const loaded = await second.client.agent.request(methods.agent.session.load, { sessionId, cwd: ws.dir, mcpServers: [] });
  assert.equal(loaded.modes?.currentModeId, 'auto', 'the mode the agent switched to is kept');
  const replayed = conversation(second.client.updates(sessionId));
  const users = replayed.filter((u) => u.sessionUpdate === 'user_message_chunk');
  assert.deepEqual(users.map((u) => (u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' ? u.content.text : '')), ['hello one', 'plan edit mode:auto']);
  assert.deepEqual(replayed.filter((u) => u.sessionUpdate !== 'user_message_chunk'), original, 'the agent side is replayed as it was streamed');
  assert.equal(await prompt(second.client, sessionId, 'after load'), 'end_turn');
  assert.deepEqual(await second.agent.stop(), []);

  const third = await start(ws, stateDir);
  await third.client.agent.request(methods.agent.session.resume, { sessionId, cwd: ws.dir, mcpServers: [] });
  assert.equal(await prompt(third.client, sessionId, 'nothink after resume'), 'end_turn');
  assert.equal(conversation(third.client.updates(sessionId)).filter((u) => u.sessionUpdate === 'user_message_chunk').length, 0, 'resume replays nothing');
  assert.match(third.client.text(sessionId), /You said: \*nothink after resume\*/);
});

test('a crashed turn is in the history a new process loads; unknown sessions are -32002', { timeout: 30_000 }, async () => {
  const { ws, stateDir } = workspaceAndState();
  const first = await start(ws, stateDir);
  const { sessionId } = await first.client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  await assert.rejects(prompt(first.client, sessionId, 'nothink crash'));
  await first.agent.exited;
  const second = await start(ws, stateDir);
  await second.client.agent.request(methods.agent.session.load, { sessionId, cwd: ws.dir, mcpServers: [] });
  assert.equal(second.client.text(sessionId, 'user_message_chunk'), 'nothink crash');
  assert.equal(second.client.text(sessionId), 'About to crash…');
  await assert.rejects(second.client.agent.request(methods.agent.session.load, { sessionId: 'ref-unknown', cwd: ws.dir, mcpServers: [] }), (e: { code?: number }) => e.code === -32002);
});

test('--auth with the key in the environment: authenticate, then a turn; closing stdin ends the process (exit 0)', { timeout: 20_000 }, async () => {
  const { ws, stateDir } = workspaceAndState();
  const { agent, client } = await start(ws, stateDir, ['--auth'], { [AUTH_ENV_VAR]: 'k' });
  await client.agent.request(methods.agent.authenticate, { methodId: AUTH_METHOD_ID });
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  assert.equal(await prompt(client, sessionId, 'hi'), 'end_turn');
  agent.child.stdin.end();
  assert.deepEqual(await agent.exited, { code: 0, signal: null });
});
