/**
 * A profile's MCP servers through the real Claude Code, Codex and Gemini CLI, driven by the extension's ACP driver:
 * the profile lists the fixture MCP server (test/fixtures/mcp: one tool, `read_note`) and one that exits at once.
 * What a person sees: the run says which servers were passed (no agent confirms one); the agent starts the good one
 * (its log shows the MCP handshake and tools/list); the broken one is reported as the agent reports it — Claude Code
 * as a warning notice, Codex as a failed `mcp__broken__startup` tool row, Gemini CLI not at all (it drops it
 * silently: the run's "the agent does not confirm them" is all the person has). Where the fake model can use the
 * tool the way a model does (Claude Code: found with ToolSearch first, since it defers MCP tools; Gemini CLI: offered
 * directly), the person is asked before the call, the tool row shows the server's answer and the model gets it back.
 * Codex defers MCP tools behind its own `tool_search`, which the fake model does not script: no call there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import type { FakeScenario } from '../../../fixtures/fakeModel/scenarios';
import { DEFAULT_MCP_FINAL_TEXT, DEFAULT_TEXT } from '../../../fixtures/fakeModel/scenarios';
import { NOTE_TEXT, NOTE_TOOL, mcpFixtureEvents } from '../../../fixtures/mcp/mcpFixtureEvents';
import { mcpFixtureServer } from '../../../fixtures/mcp/mcpFixtureProcess';
import { later } from './acpDriverKit';
import { allowUntilTurnEnds } from './realAgentApprovals';
import type { RealAgentSpec } from './realAgentKit';
import { RealAgentHarness, itemText } from './realAgentKit';

const TIMEOUT = 120_000;

interface McpCase {
  readonly spec: RealAgentSpec;
  /** Whether the fake model calls the server's tool through this agent. */
  readonly callsTool: boolean;
  /** How the run shows the server that exited at once (undefined: it does not). */
  readonly refusal?: (items: readonly TranscriptItem[]) => boolean;
  /** The approval's title for the call. */
  readonly approvalTitle?: RegExp;
}

const BROKEN_STARTS = /MCP server .?broken.? failed to start/;

const CASES: readonly McpCase[] = [
  {
    spec: { kind: 'claude', askingMode: 'default', askingModeName: 'Manual', deniedTurn: 'completed', timeoutMs: TIMEOUT, writes: 'disk' },
    callsTool: true,
    refusal: (items) => items.some((i) => i.kind === 'notice' && i.level === 'warning' && BROKEN_STARTS.test(i.text)),
    approvalTitle: /^mcp__notes__read_note$/,
  },
  {
    spec: { kind: 'codex', askingMode: 'read-only', askingModeName: 'Read-only', deniedTurn: 'cancelled', timeoutMs: TIMEOUT, writes: 'disk' },
    callsTool: false,
    refusal: (items) => items.some((i) => i.kind === 'tool' && i.name === 'mcp__broken__startup' && i.status === 'failed' && BROKEN_STARTS.test(i.output ?? '')),
  },
  {
    spec: { kind: 'gemini', askingMode: 'default', askingModeName: 'Default', deniedTurn: 'completed', timeoutMs: TIMEOUT, writes: 'editor' },
    callsTool: true,
    approvalTitle: /^read_note \(notes MCP Server\)$/,
  },
];

for (const { spec, callsTool, refusal, approvalTitle } of CASES) {
  test(`${spec.kind}: a profile's MCP servers — the run says they were passed, the agent starts the good one, ${refusal ? 'reports the broken one' : 'drops the broken one silently'}${callsTool ? ', and its tool is used with the person asked first' : ''}`, { timeout: TIMEOUT }, async () => {
    const logDir = mkdtempSync(join(tmpdir(), `mcp-${spec.kind}-`));
    later(() => rmSync(logDir, { recursive: true, force: true }));
    const log = join(logDir, 'notes.log');
    const notes = await mcpFixtureServer('notes', log);
    const broken = { name: 'broken', command: process.execPath, args: ['-e', 'process.exit(3)'] };
    const scenario: FakeScenario = callsTool ? { kind: 'mcp', server: 'notes', tool: NOTE_TOOL, args: { name: 'alpha' } } : { kind: 'text' };
    const harness = new RealAgentHarness(spec);
    const s = await harness.setup(scenario, { startMode: spec.askingMode, mcpServers: [notes, broken] });
    const runId = await s.rig.driver.startRun({ prompt: 'read the note alpha', workspaceRoots: [s.ws.dir] });
    const asked = await allowUntilTurnEnds(s.rig, runId, TIMEOUT);
    const items = s.rig.items(runId);

    const notices = items.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    assert.ok(notices.includes('MCP servers passed to the agent: notes (stdio), broken (stdio); the agent does not confirm them.'), `the run says what it passed: ${JSON.stringify(notices)}`);
    const methods = mcpFixtureEvents(log).flatMap((e) => (e.event === 'message' ? [e.method] : []));
    assert.ok(methods.includes('initialize') && methods.includes('tools/list'), `the agent started the server and asked for its tools: ${JSON.stringify(methods)}`);
    if (refusal) {
      assert.ok(refusal(items), `the broken server is reported: ${JSON.stringify(items)}`);
    } else {
      const mentions = items.filter((i) => JSON.stringify(i).includes('broken'));
      assert.equal(mentions.length, 1, 'nothing but the run\'s own notice mentions the broken server');
    }

    if (!callsTool) {
      assert.equal(itemText(items, 'text'), DEFAULT_TEXT);
      assert.deepEqual(asked, []);
      return;
    }
    assert.equal(asked.length, 1, 'the person was asked once, before the call');
    const approval = items.find((i) => i.kind === 'approval' && i.approvalId === asked[0]);
    assert.match(approval?.kind === 'approval' ? approval.title : '', approvalTitle ?? /./, 'the approval names the tool');
    assert.deepEqual(mcpFixtureEvents(log).filter((e) => e.event === 'called'), [{ event: 'called', tool: NOTE_TOOL, args: { name: 'alpha' } }], 'the server ran the tool once, with the model\'s arguments');
    const row = items.find((i) => i.kind === 'tool' && (i.output ?? '').includes(NOTE_TEXT));
    assert.ok(row?.kind === 'tool' && row.status === 'succeeded', `the tool row shows the server's answer: ${JSON.stringify(items.filter((i) => i.kind === 'tool'))}`);
    assert.equal(row.output, `Note alpha: ${NOTE_TEXT}`);
    assert.ok(JSON.stringify(s.fake.modelRequests().at(-1)?.body).includes(NOTE_TEXT), 'the model got the answer back');
    assert.equal(itemText(items, 'text'), DEFAULT_MCP_FINAL_TEXT);
  });
}
