/**
 * The real codex-acp (2.6.0: a Node adapter over `codex app-server` of @openai/codex 0.166) through the extension's
 * ACP driver, against the fake model server (OpenAI Responses SSE), offline. The shared cases are in realAgentKit.ts;
 * Codex-specific: its approval and sandbox policy come from the session mode (`agent`, "Auto review", by default:
 * workspace edits without asking); in `read-only` the edit's permission request carries no diff (it came with the
 * tool call before, and the approval must still show it); the Authorization header and model slug it sends.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CODEX_MODEL, FAKE_API_KEY } from '../../../fixtures/acp/realAgents';
import { until } from '../driverKit';
import { idle, run } from './acpDriverKit';
import { LONG_FILE_EDITED, defineRealAgentTests, middleEdit } from './realAgentKit';

const TIMEOUT = 120_000;

const harness = defineRealAgentTests({
  kind: 'codex',
  askingMode: 'read-only',
  askingModeName: 'Read-only',
  // codex's reject option ("No, and tell Codex what to do differently") ends the turn cancelled.
  deniedTurn: 'cancelled',
  timeoutMs: TIMEOUT,
  // It reads and writes the disk itself: not through the editor (no undo there, unsaved edits unseen).
  writes: 'disk',
});

test('codex: without a start mode a session runs in Auto review — the run says it edits without asking, and the edit lands unasked', { timeout: TIMEOUT }, async () => {
  const s = await harness.setup(middleEdit);
  const runId = await s.rig.driver.startRun({ prompt: 'edit line 100', workspaceRoots: [s.ws.dir] });
  await until('the turn ended', () => idle(s.rig, runId) && s.rig.items(runId).some((i) => i.kind === 'turn'), TIMEOUT);
  assert.match(run(s.rig, runId)?.model ?? '', /Auto review ⚠ edits workspace files without asking; asks only for what it judges unsafe$/);
  assert.equal(readFileSync(s.file, 'utf8'), LONG_FILE_EDITED);
  assert.equal(s.rig.setup.store.state.approvals.size, 0, 'no approval was asked');
  const [request] = s.fake.modelRequests();
  assert.equal(request?.headers.authorization, `Bearer ${FAKE_API_KEY}`);
  assert.equal((request?.body as { model?: unknown }).model, CODEX_MODEL);
});
