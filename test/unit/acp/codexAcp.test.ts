/**
 * The real codex-acp (0.16.0, native binary) against the fake model server (OpenAI Responses SSE), offline. The
 * shared cases are in realAgentKit.ts; codex-specific: the Authorization header and model slug it sends, and the
 * built-in provider's path — authentication required until `authenticate`, a WebSocket first (answered 426).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { methods } from '@agentclientprotocol/sdk';
import { CODEX_MODEL, FAKE_API_KEY, spawnCodexAcp } from '../../fixtures/acp/realAgents';
import { FakeModelServer } from '../../fixtures/fakeModel/fakeModelServer';
import { AcpTestClient } from './acpTestClient';
import { makeWorkspace } from './acpWorkspace';
import { defineRealAgentTests } from './realAgentKit';

const TIMEOUT = 60_000;

const harness = defineRealAgentTests({
  kind: 'codex',
  editSteps: ['tool:apply_patch', 'final'],
  // codex's reject option is `abort` ("No, provide feedback"): the turn ends cancelled, the tool call gets no update.
  deniedStopReason: 'cancelled',
  deniedToolStatus: undefined,
  timeoutMs: TIMEOUT,
});

test('codex: the fake provider gets a Bearer key and the configured model; no WebSocket, no authenticate', { timeout: TIMEOUT }, async () => {
  const s = await harness.setup({ kind: 'text' });
  await s.client.agent.request(methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  const [request] = s.fake.modelRequests();
  assert.equal(request?.headers.authorization, `Bearer ${FAKE_API_KEY}`);
  assert.equal((request?.body as { model?: unknown }).model, CODEX_MODEL);
  assert.deepEqual(s.fake.requests.map((r) => `${r.method} ${r.path}`), ['POST /v1/responses']);
});

test('codex: the built-in provider needs authenticate (openai-api-key, an env_var method) and falls back from WebSocket', { timeout: TIMEOUT }, async () => {
  const ws = makeWorkspace({ git: true, prefix: 'acp-codex-auth-' });
  const fake = await new FakeModelServer({ kind: 'text' }).start();
  const agent = spawnCodexAcp({ modelUrl: fake.url, cwd: ws.dir, builtinProvider: true });
  const client = new AcpTestClient(agent.stream);
  try {
    const init = await client.initialize();
    const method = init.authMethods?.find((m) => m.id === 'openai-api-key') as { type?: string; vars?: { name: string }[] } | undefined;
    assert.equal(method?.type, 'env_var');
    assert.deepEqual(method?.vars?.map((v) => v.name), ['OPENAI_API_KEY']);
    await assert.rejects(client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] }), (e: { code?: number }) => e.code === -32000);
    await client.agent.request(methods.agent.authenticate, { methodId: 'openai-api-key' });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
    const done = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    assert.equal(done.stopReason, 'end_turn');
    assert.deepEqual(fake.requests.map((r) => `${r.api} ${r.path}`), ['websocket /v1/responses', 'openai /v1/responses']);
  } finally {
    client.close();
    assert.deepEqual(await agent.stop(), []);
    await fake.close();
    ws.remove();
  }
});
