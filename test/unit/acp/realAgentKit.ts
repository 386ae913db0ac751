/**
 * The real-agent tests, written once for codex-acp and claude-agent-acp (codexAcp.test.ts / claudeAcp.test.ts pass
 * what differs): a text turn, an edit that asks permission and is allowed (file changed) or denied (file unchanged),
 * a cancel mid-stream, session/load and session/resume in a new process. Each test gets its own fake model server,
 * workspace (a temp git repo) and agent HOME; afterEach stops every agent, asserts no process of it is left, and
 * removes the temp dirs. Each test prints its wall time (the report quotes them).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type { StopReason } from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import type { RealAgent, RealAgentKind } from '../../fixtures/acp/realAgents';
import { spawnRealAgent } from '../../fixtures/acp/realAgents';
import { FakeModelServer } from '../../fixtures/fakeModel/fakeModelServer';
import type { FakeScenario, FakeStep } from '../../fixtures/fakeModel/scenarios';
import { DEFAULT_FINAL_TEXT, DEFAULT_TEXT, DEFAULT_THOUGHT } from '../../fixtures/fakeModel/scenarios';
import type { PermissionChoice } from './acpTestClient';
import { AcpTestClient, waitFor } from './acpTestClient';
import type { TempWorkspace } from './acpWorkspace';
import { README_TEXT, makeWorkspace } from './acpWorkspace';

/** What differs between the agents (observed; see the report of the acp-infra helper). */
export interface RealAgentSpec {
  readonly kind: RealAgentKind;
  /** The fake model's answers to an allowed edit, in order. */
  readonly editSteps: readonly FakeStep[];
  /** The stop reason after the user rejected the edit (codex: its `abort` option cancels the turn). */
  readonly deniedStopReason: StopReason;
  /** The status the edit's last tool_call_update reports after a rejection, or undefined when there is none. */
  readonly deniedToolStatus: 'failed' | undefined;
  /** Per test. */
  readonly timeoutMs: number;
  /** The thought as the agent passes it on (Gemini CLI re-formats a thought's bold subject line). */
  readonly thoughtText?: string;
  /** How a session comes back in a new process (Gemini CLI has session/load only). Default: both. */
  readonly restores?: readonly ('load' | 'resume')[];
  /** Whether it answers session/list (Gemini CLI 0.61 does not). Default: true. */
  readonly lists?: boolean;
}

export interface RealSetup {
  readonly fake: FakeModelServer;
  readonly ws: TempWorkspace;
  readonly home: string;
  agent: RealAgent;
  client: AcpTestClient;
  sessionId: string;
}

export const EDITED_README = README_TEXT.replace('hello', 'hello, edited');

export class RealAgentHarness {
  private readonly agents: RealAgent[] = [];
  private readonly cleanups: (() => void | Promise<void>)[] = [];

  constructor(private readonly kind: RealAgentKind) {}

  /** A fake model with `scenario`, a git workspace, an agent and an initialized client with a new session. */
  async setup(scenario: FakeScenario | ((ws: TempWorkspace) => FakeScenario), permission: PermissionChoice = 'allow_once'): Promise<RealSetup> {
    const ws = makeWorkspace({ git: true, prefix: `acp-${this.kind}-` });
    const home = mkdtempSync(join(tmpdir(), `acp-${this.kind}-home-`));
    this.cleanups.push(ws.remove, () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }));
    const fake = await new FakeModelServer(typeof scenario === 'function' ? scenario(ws) : scenario).start();
    this.cleanups.push(() => fake.close());
    const { agent, client } = await this.start(fake, ws, home, permission);
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: ws.dir, mcpServers: [] });
    return { fake, ws, home, agent, client, sessionId };
  }

  /** Another agent process on the same HOME (where both agents keep their sessions). */
  async start(fake: FakeModelServer, ws: TempWorkspace, home: string, permission: PermissionChoice = 'allow_once'): Promise<{ agent: RealAgent; client: AcpTestClient }> {
    const agent = spawnRealAgent(this.kind, { modelUrl: fake.url, cwd: ws.dir, home });
    this.agents.push(agent);
    const client = new AcpTestClient(agent.stream, { fs: true, root: ws.dir, permission });
    this.cleanups.push(() => client.close());
    try {
      await client.initialize();
    } catch (error) {
      throw new Error(`${this.kind} did not initialize: ${String(error)}\n${agent.stderrTail()}`, { cause: error });
    }
    return { agent, client };
  }

  /** Stops an agent now; asserts nothing of it is left. */
  async stop(agent: RealAgent): Promise<void> {
    assert.deepEqual(await agent.stop(), [], `no process of ${this.kind} is left`);
  }

  async cleanup(): Promise<void> {
    for (const agent of this.agents.splice(0)) {
      await this.stop(agent);
    }
    for (const c of this.cleanups.splice(0).reverse()) {
      await c();
    }
  }
}

/** The status of the last tool_call_update of a tool call (undefined: none carried one). */
function lastToolStatus(s: RealSetup, toolCallId: string): string | undefined {
  const statuses = s.client.updates(s.sessionId).flatMap((u) => (u.sessionUpdate === 'tool_call_update' && u.toolCallId === toolCallId && u.status ? [u.status] : []));
  return statuses.at(-1);
}

function prompt(s: { client: AcpTestClient; sessionId: string }, text: string): Promise<StopReason> {
  return s.client.agent.request(methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: 'text', text }] }).then((r) => r.stopReason);
}

/** Registers the shared tests for one agent; prints each test's wall time. */
export function defineRealAgentTests(spec: RealAgentSpec): RealAgentHarness {
  const harness = new RealAgentHarness(spec.kind);
  afterEach(() => harness.cleanup());
  const timed = (name: string, body: () => Promise<void>): void => {
    test(`${spec.kind}: ${name}`, { timeout: spec.timeoutMs }, async () => {
      const started = Date.now();
      await body();
      process.stdout.write(`# ${spec.kind} timing: ${name}: ${Date.now() - started} ms\n`);
    });
  };
  const editScenario = (ws: TempWorkspace): FakeScenario => ({ kind: 'edit', path: ws.readme, oldString: 'hello', newString: 'hello, edited' });

  timed('a text turn streams thought and text chunks and ends end_turn', async () => {
    const s = await harness.setup({ kind: 'text' });
    assert.equal(await prompt(s, 'say hello to the fake model'), 'end_turn');
    assert.equal(s.client.text(s.sessionId), DEFAULT_TEXT);
    assert.ok(s.client.updates(s.sessionId, 'agent_message_chunk').length >= 3, 'several chunks');
    assert.equal(s.client.text(s.sessionId, 'agent_thought_chunk').trim(), spec.thoughtText ?? DEFAULT_THOUGHT);
    const [request] = s.fake.modelRequests();
    assert.equal(s.fake.modelRequests().length, 1);
    // Gemini streams by URL (`:streamGenerateContent`), the others by a body flag.
    assert.ok(request !== undefined && (request.api === 'gemini' ? request.path.includes(':streamGenerateContent') : (request.body as { stream?: unknown }).stream === true));
    assert.ok(JSON.stringify(request.body).includes('say hello to the fake model'), 'the prompt reached the model');
  });

  timed('an edit asks permission; allowed, the file changes', async () => {
    const s = await harness.setup(editScenario, 'allow_once');
    assert.equal(await prompt(s, 'edit the readme'), 'end_turn');
    assert.equal(readFileSync(s.ws.readme, 'utf8'), EDITED_README);
    assert.equal(s.client.permissionRequests.length, 1);
    const asked = s.client.permissionRequests[0]!;
    assert.ok(asked.options.some((o) => o.kind === 'allow_once') && asked.options.some((o) => o.kind === 'reject_once'));
    const diffs = s.client.updates(s.sessionId).flatMap((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update' ? (u.content ?? []) : []));
    assert.ok(diffs.some((c) => c.type === 'diff' && c.path === s.ws.readme && (c.newText ?? '').includes('hello, edited')), 'a diff of the file');
    assert.equal(lastToolStatus(s, asked.toolCall.toolCallId), 'completed');
    assert.deepEqual(s.fake.modelRequests().map((r) => r.step), spec.editSteps);
    assert.equal(s.client.text(s.sessionId), DEFAULT_FINAL_TEXT);
  });

  timed('an edit asks permission; denied, the file is unchanged', async () => {
    const s = await harness.setup(editScenario, 'reject_once');
    assert.equal(await prompt(s, 'edit the readme'), spec.deniedStopReason);
    assert.equal(readFileSync(s.ws.readme, 'utf8'), README_TEXT);
    assert.equal(s.client.permissionRequests.length, 1);
    assert.equal(lastToolStatus(s, s.client.permissionRequests[0]!.toolCall.toolCallId), spec.deniedToolStatus);
    assert.deepEqual(s.client.writes, []);
  });

  timed('cancel mid-stream ends the turn cancelled and aborts the model request', async () => {
    const s = await harness.setup({ kind: 'slow', chunks: 400, delayMs: 25 });
    const turn = prompt(s, 'stream slowly');
    await waitFor('three slow chunks', () => s.client.text(s.sessionId).includes('slow 3 '), spec.timeoutMs / 2);
    const cancelledAt = Date.now();
    await s.client.cancel(s.sessionId);
    assert.equal(await turn, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 3000, `cancel took ${Date.now() - cancelledAt} ms`);
    assert.ok(!s.client.text(s.sessionId).includes('slow 400 '));
    await waitFor('the model stream aborted', () => s.fake.modelRequests().at(-1)?.aborted === true, 5000);
  });

  for (const how of spec.restores ?? (['load', 'resume'] as const)) {
    timed(`session/${how} in a new process ${how === 'load' ? 'replays the conversation' : 'restores it without replay'}; the next turn has its context`, async () => {
      const s = await harness.setup({ kind: 'text', text: 'First answer.' });
      assert.equal(await prompt(s, 'first prompt'), 'end_turn');
      await harness.stop(s.agent);
      s.fake.setScenario({ kind: 'text', text: 'Second answer.' });
      const next = await harness.start(s.fake, s.ws, s.home);
      if (spec.lists !== false) {
        const listed = await next.client.agent.request(methods.agent.session.list, { cwd: s.ws.dir });
        assert.ok(listed.sessions.some((x) => x.sessionId === s.sessionId), 'session/list knows it');
      }
      const params = { sessionId: s.sessionId, cwd: s.ws.dir, mcpServers: [] };
      await (how === 'load' ? next.client.agent.request(methods.agent.session.load, params) : next.client.agent.request(methods.agent.session.resume, params));
      if (how === 'load') {
        assert.match(next.client.text(s.sessionId, 'user_message_chunk'), /first prompt$/);
        assert.equal(next.client.text(s.sessionId), 'First answer.');
      } else {
        assert.equal(next.client.updates(s.sessionId).filter((u) => u.sessionUpdate.endsWith('_chunk')).length, 0, 'no replay');
      }
      assert.equal(await prompt({ client: next.client, sessionId: s.sessionId }, 'second prompt'), 'end_turn');
      assert.match(next.client.text(s.sessionId), /Second answer\.$/);
      const body = JSON.stringify(s.fake.modelRequests().at(-1)?.body);
      assert.ok(body.includes('first prompt') && body.includes('First answer.'), 'the model saw the earlier turn');
    });
  }
  return harness;
}
