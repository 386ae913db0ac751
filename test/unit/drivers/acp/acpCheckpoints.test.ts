/**
 * File checkpoints of an ACP session (issue #26), against the reference agent: one before the first prompt and one
 * at each end of turn, recorded by the window that writes the session; rewinding to the first puts the file back,
 * and redo brings the agent's edit again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { editedText } from '../../../fixtures/acp/editTool';
import { until } from '../driverKit';
import { idle, rig, run } from './acpDriverKit';
import { README_TEXT } from './acpWorkspace';

test('an ACP session is checkpointed at its start and each end of turn, and rewinds to its start and back', { timeout: 30_000 }, async () => {
  const r = await rig();
  const recorded: string[] = [];
  r.driver.checkpoints.onRecorded((c) => recorded.push(`${c.runId} ${c.checkpoint.id}`));
  const runId = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approval = await until('an approval', () => run(r, runId)?.pendingApprovals[0]);
  await r.driver.decideApproval(runId, approval, 'allow_once', 'transcript');
  await until('the turn ended', () => idle(r, runId));
  await until('two checkpoints', () => recorded.length === 2);
  assert.deepEqual(recorded, [`${runId} c1`, `${runId} c2`]);
  const [start, afterTurn] = await r.driver.checkpoints.store.list(runId);
  assert.deepEqual([start?.turn, afterTurn?.turn], [0, 1]);
  assert.equal(start?.trees[0]?.top, r.ws.dir);
  assert.notEqual(start?.trees[0]?.tree, afterTurn?.trees[0]?.tree, 'the turn changed the files');
  assert.equal(readFileSync(r.ws.readme, 'utf8'), editedText(README_TEXT));

  const preview = await r.driver.checkpoints.store.preview(runId, start!.id);
  assert.deepEqual(preview?.scopes[0]?.parsed?.files.map((f) => f.newPath), ['README.md']);
  const outcome = await r.driver.checkpoints.store.rewind(runId, start!.id);
  assert.ok(outcome.status === 'rewound', JSON.stringify(outcome));
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT);
  assert.equal((await r.driver.checkpoints.store.redo(runId, outcome.rewindId)).status, 'rewound');
  assert.equal(readFileSync(r.ws.readme, 'utf8'), editedText(README_TEXT));
});
