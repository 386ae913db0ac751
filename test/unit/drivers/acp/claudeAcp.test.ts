/**
 * The real claude-agent-acp (0.101.0: Claude Code through the Claude Agent SDK 0.3) through the extension's ACP
 * driver, against the fake model server (Anthropic Messages SSE), offline. The shared cases are in realAgentKit.ts;
 * Claude-specific: sessions start in `auto` (edits without asking) unless the client picks a mode, and the run says
 * so; the x-api-key header; the CLI child it runs (killed with its process group).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FAKE_API_KEY } from '../../../fixtures/acp/realAgents';
import { until } from '../driverKit';
import { idle, run } from './acpDriverKit';
import { LONG_FILE_EDITED, defineRealAgentTests, middleEdit } from './realAgentKit';

const TIMEOUT = 120_000;

const harness = defineRealAgentTests({
  kind: 'claude',
  askingMode: 'default',
  askingModeName: 'Manual',
  // A reject marks the tool call failed and the model is told; the turn goes on and ends normally.
  deniedTurn: 'completed',
  timeoutMs: TIMEOUT,
  // It reads and writes the disk itself: not through the editor (no undo there, unsaved edits unseen).
  writes: 'disk',
});

test('claude: without a start mode a session runs in Auto — the run says it acts without asking, and an edit lands unasked', { timeout: TIMEOUT }, async () => {
  const s = await harness.setup(middleEdit);
  const runId = await s.rig.driver.startRun({ prompt: 'edit line 100', workspaceRoots: [s.ws.dir] });
  await until('the turn ended', () => idle(s.rig, runId) && s.rig.items(runId).some((i) => i.kind === 'turn'), TIMEOUT);
  assert.match(run(s.rig, runId)?.model ?? '', /Auto ⚠ decides permissions itself, without asking$/);
  assert.equal(readFileSync(s.file, 'utf8'), LONG_FILE_EDITED, 'what today\'s Claude Code does in its default mode');
  assert.equal(s.rig.setup.store.state.approvals.size, 0, 'no approval was asked');
  assert.equal(s.fake.modelRequests().find((r) => r.step !== 'none')?.headers['x-api-key'], FAKE_API_KEY);
});
