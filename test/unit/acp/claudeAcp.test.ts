/**
 * The real claude-agent-acp (0.23.1: Claude Code 2.1.83 through the Claude Agent SDK) against the fake model server
 * (Anthropic Messages SSE), offline. The shared cases are in realAgentKit.ts; Claude-specific: the HEAD probe and
 * x-api-key header, the CLI child process it runs (killed with its group), and the env it needs as root.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { methods } from '@agentclientprotocol/sdk';
import { FAKE_API_KEY } from '../../fixtures/acp/realAgents';
import { defineRealAgentTests } from './realAgentKit';

const TIMEOUT = 90_000;

const harness = defineRealAgentTests({
  kind: 'claude',
  // Claude Code's Edit refuses a file it has not Read in the session, so the fake model reads first.
  editSteps: ['tool:Read', 'tool:Edit', 'final'],
  // A reject marks the tool call failed and the model is told; the turn goes on and ends normally.
  deniedStopReason: 'end_turn',
  deniedToolStatus: 'failed',
  timeoutMs: TIMEOUT,
});

test('claude: probes HEAD / first, sends x-api-key, runs Claude Code as a child in its process group', { timeout: TIMEOUT }, async () => {
  const s = await harness.setup({ kind: 'text' });
  await s.client.agent.request(methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  assert.deepEqual(s.fake.requests.map((r) => `${r.method} ${r.path}`), ['HEAD /', 'POST /v1/messages?beta=true']);
  assert.equal(s.fake.modelRequests()[0]?.headers['x-api-key'], FAKE_API_KEY);
  const tree = s.agent.processTree();
  assert.ok(tree.length >= 2, `the adapter and the Claude Code CLI (${tree.join(', ')})`);
  assert.deepEqual(await s.agent.stop(), []);
});
