/**
 * File checkpoints of A3S runs (issue #26), against the reference harness, which edits its workspace in place: one
 * when the run starts and one at its terminal state (A3S reports no turns of its own), in the run's workspace
 * folder; a run without a folder has none. Rewinding to the start removes what the run created.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { until } from '../driverKit';
import { connected, driverTestBed } from './a3sDriverKit';

const { startHarness, makeDriver } = driverTestBed('a3c-');

test('an A3S run is checkpointed at its start and its terminal state, and rewinds to its start', { timeout: 60_000 }, async () => {
  const { harness, workspace } = await startHarness();
  const { store, driver, connectionId } = makeDriver(harness.url);
  const recorded: string[] = [];
  driver.checkpoints.onRecorded((r) => recorded.push(`${r.checkpoint.id}:${r.checkpoint.turn}`));
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'edit the files please', workspaceRoots: [workspace] });
  assert.deepEqual(recorded, ['c1:0'], 'the start checkpoint is taken before the run is sent');
  await until('completed', () => store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'completed');
  await until('the terminal checkpoint', () => recorded.length === 2);
  assert.deepEqual(recorded, ['c1:0', 'c2:1']);
  assert.ok(existsSync(join(workspace, 'a3s-created.txt')), 'the run created a file');

  const preview = await driver.checkpoints.store.preview(runId, 'c1');
  assert.ok(preview?.scopes[0]?.entries.some((e) => e.path === 'a3s-created.txt' && e.change === 'delete'), JSON.stringify(preview?.scopes[0]?.entries));
  const outcome = await driver.checkpoints.store.rewind(runId, 'c1');
  assert.ok(outcome.status === 'rewound', JSON.stringify(outcome));
  assert.equal(existsSync(join(workspace, 'a3s-created.txt')), false);
});

test('an A3S run without a workspace folder has no checkpoints', { timeout: 60_000 }, async () => {
  const { harness } = await startHarness();
  const { store, driver, connectionId } = makeDriver(harness.url);
  await driver.connect();
  await connected(store, connectionId);
  const runId = await driver.startRun({ prompt: 'edit the files please', workspaceRoots: [] });
  await until('completed', () => store.state.runs.get(runKeyOf(connectionId, runId))?.state === 'completed');
  await driver.checkpoints.settled();
  assert.deepEqual(await driver.checkpoints.store.list(runId), []);
});
