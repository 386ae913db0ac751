/**
 * The reference ACP agent in process (test/fixtures/acp), driven by the SDK's client side: the plain turn and every
 * keyword that is not about edits or the process boundary (those are in referenceAgentEdits / referenceAgentProcess).
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { methods } from '@agentclientprotocol/sdk';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { startInProcessAgent } from '../../fixtures/acp/inProcessAgent';
import type { ReferenceAgentOptions } from '../../fixtures/acp/referenceAgent';
import { AUTH_ENV_VAR, AUTH_METHOD_ID } from '../../fixtures/acp/referenceAgent';
import { EXTRA_COMMAND, REFERENCE_COMMANDS, REFUSAL_TEXT, answerText } from '../../fixtures/acp/turnScript';
import { AcpTestClient, waitFor } from './acpTestClient';
import type { TempWorkspace } from './acpWorkspace';
import { makeWorkspace } from './acpWorkspace';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) {
    c();
  }
});

async function setup(options: ReferenceAgentOptions = {}): Promise<{ client: AcpTestClient; ws: TempWorkspace; sessionId: string }> {
  const ws = makeWorkspace();
  const agent = startInProcessAgent(options);
  const client = new AcpTestClient(agent.clientStream);
  cleanups.push(ws.remove, () => agent.close());
  await client.initialize();
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  return { client, ws, sessionId };
}

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];

test('initialize: protocol 1, loadSession, list/resume/close/fork, embedded context, no auth methods by default', { timeout: 10_000 }, async () => {
  const agent = startInProcessAgent();
  cleanups.push(() => agent.close());
  const init = await new AcpTestClient(agent.clientStream).initialize();
  assert.equal(init.protocolVersion, 1);
  assert.equal(init.agentCapabilities?.loadSession, true);
  assert.deepEqual(init.agentCapabilities?.sessionCapabilities, { list: {}, resume: {}, close: {}, fork: {} });
  assert.equal(init.agentCapabilities?.promptCapabilities?.embeddedContext, true);
  assert.deepEqual(init.authMethods, []);
  assert.equal(init.agentInfo?.name, 'reference-acp-agent');
});

test('a plain turn: thought chunks, a markdown answer in many chunks, usage, end_turn; commands after session/new', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup();
  const prompt = text('Hello agent');
  const response = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt });
  assert.equal(response.stopReason, 'end_turn');
  assert.equal(client.text(sessionId), answerText(prompt));
  assert.ok(client.updates(sessionId, 'agent_message_chunk').length >= 10, 'streamed in several chunks');
  assert.match(client.text(sessionId), /```ts\n/);
  assert.ok(client.text(sessionId, 'agent_thought_chunk').length > 0);
  // As claude-agent-acp: several reports a turn, growing, the cost on the last only.
  const usage = client.updates(sessionId, 'usage_update').flatMap((u) => (u.sessionUpdate === 'usage_update' ? [u] : []));
  assert.equal(usage.length, 3);
  assert.ok(usage.every((u, i) => u.size === 200_000 && u.used > (usage[i - 1]?.used ?? 0)), JSON.stringify(usage));
  assert.deepEqual(usage.map((u) => u.cost?.currency), [undefined, undefined, 'USD']);
  const commands = await waitFor('available_commands_update', () => client.updates(sessionId, 'available_commands_update')[0]);
  assert.ok(commands.sessionUpdate === 'available_commands_update');
  assert.deepEqual(commands.availableCommands.map((c) => c.name), REFERENCE_COMMANDS.map((c) => c.name));
});

test('resource links and embedded resources are named in the answer; nothink drops the thoughts', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup();
  const prompt: ContentBlock[] = [
    { type: 'text', text: 'look at these nothink' },
    { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' },
    { type: 'resource', resource: { uri: 'file:///b.ts', text: 'const b = 1;' } },
  ];
  await client.agent.request(methods.agent.session.prompt, { sessionId, prompt });
  assert.match(client.text(sessionId), /Context: `file:\/\/\/a\.ts`, `file:\/\/\/b\.ts`/);
  assert.equal(client.updates(sessionId, 'agent_thought_chunk').length, 0);
});

test('plan: three entries go pending → in_progress → completed; commands: a second, longer command list', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup();
  await waitFor('first commands', () => client.updates(sessionId, 'available_commands_update').length === 1);
  await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('make a plan and list commands') });
  const plans = client.updates(sessionId, 'plan').map((u) => (u.sessionUpdate === 'plan' ? u.entries.map((e) => e.status) : []));
  assert.deepEqual(plans, [
    ['in_progress', 'pending', 'pending'],
    ['completed', 'in_progress', 'pending'],
    ['completed', 'completed', 'completed'],
  ]);
  const lists = client.updates(sessionId, 'available_commands_update');
  assert.equal(lists.length, 2);
  const last = lists[1]!;
  assert.ok(last.sessionUpdate === 'available_commands_update' && last.availableCommands.some((c) => c.name === EXTRA_COMMAND.name));
});

test('modes: session/new offers ask/auto/plan; set_mode changes it; mode:<id> makes the agent switch (current_mode_update)', { timeout: 10_000 }, async () => {
  const ws = makeWorkspace();
  const agent = startInProcessAgent();
  const client = new AcpTestClient(agent.clientStream);
  cleanups.push(ws.remove, () => agent.close());
  await client.initialize();
  const created = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  assert.equal(created.modes?.currentModeId, 'ask');
  assert.deepEqual(created.modes?.availableModes.map((m) => m.id), ['ask', 'auto', 'plan']);
  const sessionId = created.sessionId;
  assert.deepEqual(await client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'auto' }), {});
  await assert.rejects(client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'nope' }), /Invalid params/);
  await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('switch mode:plan now') });
  const switched = client.updates(sessionId, 'current_mode_update');
  assert.deepEqual(switched.map((u) => (u.sessionUpdate === 'current_mode_update' ? u.currentModeId : '')), ['plan']);
  const list = await client.agent.request(methods.agent.session.list, {});
  assert.equal(list.sessions.find((s) => s.sessionId === sessionId)?.title, 'Switch mode:plan now');
});

test('stop reasons: max_tokens cuts the answer short, refusal answers a refusal, max_turn_requests', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup();
  const cut = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('long answer stop:max_tokens') });
  assert.equal(cut.stopReason, 'max_tokens');
  const full = answerText(text('long answer stop:max_tokens'));
  assert.ok(client.text(sessionId).length < full.length && full.startsWith(client.text(sessionId)));
  const { client: c2, sessionId: s2 } = await setup();
  assert.equal((await c2.agent.request(methods.agent.session.prompt, { sessionId: s2, prompt: text('stop:refusal') })).stopReason, 'refusal');
  assert.equal(c2.text(s2), REFUSAL_TEXT);
  const { client: c3, sessionId: s3 } = await setup();
  assert.equal((await c3.agent.request(methods.agent.session.prompt, { sessionId: s3, prompt: text('stop:max_turn_requests') })).stopReason, 'max_turn_requests');
});

test('error: the prompt fails with -32603; unknown update kinds and fields reach the wire and the client goes on', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup();
  await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('error please') }), (e: { code?: number }) => e.code === -32603);
  const after = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('unknown things') });
  assert.equal(after.stopReason, 'end_turn');
  const raw = client.rawUpdates();
  assert.ok(raw.some((p) => p.update?.sessionUpdate === '_future_update'), 'the unknown kind was sent');
  const withMeta = raw.find((p) => p.update?.futureField === 1);
  assert.ok(withMeta !== undefined && (withMeta.update as { _meta?: unknown })._meta !== undefined);
  // The SDK's client drops the unknown kind (logs it) and strips unknown fields of the known one; _meta stays.
  assert.ok(!client.updates(sessionId).some((u) => (u.sessionUpdate as string) === '_future_update'));
  const known = client.updates(sessionId, 'agent_message_chunk').find((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && u.content.text === 'unknown fields ');
  assert.ok(known !== undefined && !('futureField' in known));
  assert.deepEqual(known._meta, { reference: { note: 'kept and ignored' } });
});

test('a second prompt while a turn runs is refused (-32600); cancel ends the first with cancelled', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup({ slowChunkMs: 20 });
  const slow = client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('slow please') });
  await waitFor('first slow chunk', () => client.text(sessionId).includes('chunk 2 '));
  await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('again') }), (e: { code?: number }) => e.code === -32600);
  await client.cancel(sessionId);
  assert.equal((await slow).stopReason, 'cancelled');
  assert.ok(!client.text(sessionId).includes('chunk 100 '), 'the stream stopped early');
});

test('auth: env_var method advertised; sessions refused (-32000) until authenticate; a missing key fails it', { timeout: 10_000 }, async () => {
  const ws = makeWorkspace();
  cleanups.push(ws.remove);
  for (const key of [undefined, 'secret']) {
    const agent = startInProcessAgent({ auth: true, env: key === undefined ? {} : { [AUTH_ENV_VAR]: key } });
    cleanups.push(() => agent.close());
    const client = new AcpTestClient(agent.clientStream);
    const init = await client.initialize();
    assert.deepEqual(init.authMethods?.map((m) => [m.id, (m as { type?: string }).type]), [[AUTH_METHOD_ID, 'env_var']]);
    await assert.rejects(client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] }), (e: { code?: number }) => e.code === -32000);
    const auth = client.agent.request(methods.agent.authenticate, { methodId: AUTH_METHOD_ID });
    if (key === undefined) {
      await assert.rejects(auth, (e: { code?: number; message?: string }) => e.code === -32000 && /REF_ACP_API_KEY/.test(e.message ?? ''));
    } else {
      assert.deepEqual(await auth, {});
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
      assert.equal((await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('hi') })).stopReason, 'end_turn');
    }
  }
});

test('unknown fields and _meta from the client are tolerated; an unknown method is -32601', { timeout: 10_000 }, async () => {
  const { client, sessionId } = await setup();
  const params = { sessionId, prompt: text('nothink hi'), futureField: { x: 1 }, _meta: { vendor: { a: 1 } } };
  const done = await client.agent.request<{ stopReason: string }>('session/prompt', params);
  assert.equal(done.stopReason, 'end_turn');
  await assert.rejects(client.agent.request('_vendor/unknown', {}), (e: { code?: number }) => e.code === -32601);
});

test('an in-process crash: the stderr text is kept, the client sees the connection close', { timeout: 10_000 }, async () => {
  const ws = makeWorkspace();
  const agent = startInProcessAgent();
  const client = new AcpTestClient(agent.clientStream);
  cleanups.push(ws.remove, () => agent.close());
  await client.initialize();
  const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
  await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('crash') }));
  await agent.gone;
  assert.match(agent.stderr(), /crashing on purpose/);
  await client.connection.closed;
});

test('a relative cwd and an unknown session are refused', { timeout: 10_000 }, async () => {
  const { client } = await setup();
  await assert.rejects(client.agent.request(methods.agent.session.new, { cwd: 'relative/dir', mcpServers: [] }), /Invalid params/);
  await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId: 'ref-nope', prompt: text('x') }), (e: { code?: number }) => e.code === -32002);
});
