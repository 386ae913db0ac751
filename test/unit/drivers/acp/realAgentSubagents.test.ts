/**
 * A subagent of the real Claude Code shown as a child run under its parent, through the extension's ACP driver: the
 * fake model calls Claude Code's `Agent` tool; Claude Code starts the subagent (its own model requests, which begin
 * with the prompt the call gave it) and, since the client advertises `subagents`, reports it with `subagent_update`.
 * The child run has the parent's session as its parent, the subagent's title and its own transcript (the subagent's
 * answer, not the parent's); on the board it is a row under the parent's, not one of its own.
 *
 * What the parent told the subagent is a message row in both transcripts ("To subagent …" in the parent's, "From
 * <the parent's title>" in the child's), as claude-agent-acp sends it (`session_message`, one view per session),
 * never raw data; so is what the adapter sends as the subagent's reply in the parent's.
 *
 * Claude Code 0.101 runs the subagent in the background: the parent's turn ends with the call's "launched" result
 * while the subagent may still be answering. Codex 2.6 advertises `subagents` but offers the model no tool to start
 * one with this configuration; Gemini CLI 0.61 does not advertise them: neither is tested here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardGroups, DEFAULT_FAILED_WINDOW_MS } from '../../../../extension/model/boardGroups';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { DEFAULT_CHILD_TEXT, DEFAULT_SUBAGENT_FINAL_TEXT } from '../../../fixtures/fakeModel/scenarios';
import { until } from '../driverKit';
import { run } from './acpDriverKit';
import { allowUntilTurnEnds } from './realAgentApprovals';
import { RealAgentHarness, itemText } from './realAgentKit';

const TIMEOUT = 120_000;
const SUBAGENT_PROMPT = 'As a subagent: list the files of the workspace.';

test('claude: a subagent started with the Agent tool is a child run under its parent, with its own transcript, on the board under the parent\'s row', { timeout: TIMEOUT }, async () => {
  const harness = new RealAgentHarness({ kind: 'claude', askingMode: 'default', askingModeName: 'Manual', deniedTurn: 'completed', timeoutMs: TIMEOUT, writes: 'disk' });
  const s = await harness.setup({ kind: 'subagent', description: 'Explore the workspace', prompt: SUBAGENT_PROMPT }, { startMode: 'default' });
  const runId = await s.rig.driver.startRun({ prompt: 'delegate the exploring', workspaceRoots: [s.ws.dir] });
  await allowUntilTurnEnds(s.rig, runId, TIMEOUT);
  // Claude Code 0.101 runs the Agent tool's subagent in the background (see acpSessionMessages.ts): the parent answers
  // once the launch returns, and may answer again when the report arrives (seen once, in CI) — the fake model gives the
  // same answer to both. Either way its text is that answer only (the child's words are asserted out of it below).
  const parentText = itemText(s.rig.items(runId), 'text');
  assert.ok(parentText.length > 0 && parentText.split(DEFAULT_SUBAGENT_FINAL_TEXT).every((rest) => rest === ''), `the parent's answer: ${parentText}`);

  const child = await until('the child run', () => [...s.rig.setup.store.state.runs.values()].find((r) => r.parentRunId === runId), TIMEOUT);
  assert.equal(child.title, 'Explore the workspace', 'titled as the Agent call described it');
  assert.notEqual(child.runId, runId);
  await until('the subagent\'s answer in the child\'s transcript', () => itemText(s.rig.items(child.runId), 'text').includes(DEFAULT_CHILD_TEXT), TIMEOUT);
  assert.ok(!itemText(s.rig.items(runId), 'text').includes(DEFAULT_CHILD_TEXT), 'not in the parent\'s');
  assert.ok(s.fake.requests.some((r) => r.step === 'child' && JSON.stringify(r.body).includes(SUBAGENT_PROMPT)), 'the subagent asked the model with its own prompt');

  const messages = (id: string) => s.rig.items(id).flatMap((i) => (i.kind === 'message' ? [[i.from, i.body]] : []));
  const parentMessages = messages(runId);
  assert.deepEqual(parentMessages[0], ['To subagent Explore the workspace', SUBAGENT_PROMPT], 'the instructions, in the parent\'s');
  // claude-agent-acp 0.101 takes this launch for a foreground one (no `run_in_background` in its input) and sends
  // the result Claude Code gave the model for it ("Async agent launched successfully. (This tool result is internal
  // metadata …") as the subagent's reply: shown as the adapter sent it, as a message from the subagent.
  assert.deepEqual(parentMessages.slice(1).map(([from]) => from), ['From subagent Explore the workspace'], 'the reply the adapter sent');
  await until('the instructions in the child\'s transcript', () => messages(child.runId).length > 0, TIMEOUT);
  assert.deepEqual(messages(child.runId), [[`From ${run(s.rig, runId)?.title}`, SUBAGENT_PROMPT]], 'the child got them from its parent');
  assert.deepEqual([...s.rig.items(runId), ...s.rig.items(child.runId)].filter((i) => i.kind === 'raw'), [], 'no raw rows');

  const groups = boardGroups(s.rig.setup.store.state, { lastLine: () => undefined, changeStats: () => undefined, questions: () => 0 }, { doneLimit: 20, acknowledged: new Set(), failedWindowMs: DEFAULT_FAILED_WINDOW_MS, now: Date.now() });
  const rows = groups.flatMap((g) => g.rows);
  const parentKey = runKeyOf(s.rig.setup.connectionId, runId);
  assert.deepEqual(rows.find((r) => r.runKey === parentKey)?.children?.map((c) => c.title), ['Explore the workspace'], 'under the parent\'s row');
  assert.ok(!rows.some((r) => r.runKey === child.key), 'not a row of its own');
  assert.equal(run(s.rig, child.runId)?.parentRunId, runId);
});
