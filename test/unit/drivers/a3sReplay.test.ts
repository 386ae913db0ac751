/** A reload reproduces a finished A3S run exactly: its fields and its whole transcript, closing line included. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { RunStore } from '../../../extension/model/runStore';
import { connected, driverTestBed } from '../a3s/driverKit';
import { until } from './driverTestKit';

const { startHarness, makeDriver } = driverTestBed('a3sr-');

function seen(store: RunStore, key: string) {
  const run = store.state.runs.get(key)!;
  const items = store.transcript(key)!.snapshot().map(({ id: _id, ...rest }) => rest);
  return { title: run.title, provider: run.provider, model: run.model, state: run.state, items };
}

test('a finished A3S run comes back with its model and its whole transcript', async () => {
  const { harness } = await startHarness();
  const first = makeDriver(harness.url);
  await first.driver.connect();
  await connected(first.store, first.connectionId);
  const runId = await first.driver.startRun({ prompt: 'edit the files please', workspaceRoots: [] });
  const key = runKeyOf(first.connectionId, runId);
  await until('the closing line', () => first.store.transcript(key)?.snapshot().some((i) => i.kind === 'notice' && i.state === 'completed'));
  await until('change set', () => first.store.state.changeSets.get(key)?.status === 'ready');
  const before = seen(first.store, key);
  await first.driver.flushStorage?.();
  await first.driver.dispose();
  const second = makeDriver(harness.url, first.storageDir);
  await second.driver.connect();
  await connected(second.store, second.connectionId);
  await until('restored', () => second.store.state.runs.get(key));
  await second.driver.flushStorage?.();
  assert.deepEqual(seen(second.store, key), before);
  await second.driver.dispose();
});
