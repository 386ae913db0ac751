/** A reload reproduces a finished A3S run exactly: its fields and its whole transcript, closing line included. */
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { connected, driverTestBed } from './a3sDriverKit';
import { until } from '../driverKit';

const { startHarness, makeDriver } = driverTestBed('a3sr-');

function seen(store: RunStore, key: string) {
  const run = store.state.runs.get(key)!;
  const items = store.transcript(key)!.snapshot().map(({ id: _id, ...rest }) => rest);
  return { title: run.title, provider: run.provider, model: run.model, state: run.state, items };
}

/** A run of `prompt` on a fresh harness, followed by a first driver until its closing line. */
async function finishedRun(prompt: string) {
  const { harness } = await startHarness();
  const first = makeDriver(harness.url);
  await first.driver.connect();
  await connected(first.store, first.connectionId);
  const runId = await first.driver.startRun({ prompt, workspaceRoots: [] });
  const key = runKeyOf(first.connectionId, runId);
  await until('the closing line', () => first.store.transcript(key)?.snapshot().some((i) => i.kind === 'notice' && i.state === 'completed'), 60_000);
  return { harness, first, key };
}

test('a finished A3S run comes back with its model and its whole transcript', async () => {
  const { harness, first, key } = await finishedRun('edit the files please');
  await until('change set', () => first.store.state.changeSets.get(key)?.status === 'ready');
  const before = seen(first.store, key);
  await first.driver.flushStorage?.();
  await first.driver.dispose();
  const second = makeDriver(harness.url, first.storageDir);
  await second.driver.connect();
  await connected(second.store, second.connectionId);
  await until('restored', () => second.store.state.runs.get(key));
  // Finished with a ready change set: it comes back from its summary, its transcript and change set when opened.
  const summarized = second.store.state.runs.get(key)!;
  assert.notEqual(summarized.unloaded, undefined, 'shown from its summary');
  assert.equal(second.store.transcript(key), undefined);
  await second.driver.history!.load(summarized.runId);
  await second.driver.flushStorage?.();
  assert.deepEqual(seen(second.store, key), before);
  await second.driver.dispose();
});

test('a long A3S run comes back from its checkpoint (model and book) as a whole replay brings it back', async () => {
  // 600 quick tool calls: 2,400 events and more journal records (the kit checkpoints runs of 2,000 and more).
  const { harness, first, key } = await finishedRun('long steps:600');
  const before = seen(first.store, key);
  const lastSequence = first.store.state.runs.get(key)!.lastSequence;
  await first.driver.flushStorage?.();
  await first.driver.dispose(); // closing the journal writes the checkpoint
  const checkpoints = () => readdirSync(first.storageDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ckpt'));
  assert.equal(checkpoints().length, 1);
  for (const whole of [false, true]) {
    if (whole) {
      checkpoints().forEach((f) => rmSync(join(first.storageDir, f)));
    }
    const next = makeDriver(harness.url, first.storageDir);
    let patches = 0;
    next.store.onDidPatch((event) => (patches += event.runKey === key ? 1 : 0));
    await next.driver.connect();
    await connected(next.store, next.connectionId);
    await until('restored', () => next.store.state.runs.get(key)?.state === 'completed');
    // A finished run may come back from its summary (issue #25 §2): opened, as the view would.
    await next.driver.history!.load(next.store.state.runs.get(key)!.runId);
    await next.driver.flushStorage?.();
    assert.deepEqual(seen(next.store, key), before, whole ? 'a whole replay' : 'from the checkpoint');
    assert.equal(next.store.state.runs.get(key)!.lastSequence, lastSequence);
    assert.ok(whole ? patches > 600 : patches < 10, `${patches} patches`);
    assert.deepEqual(next.logs.filter((l) => /checkpoint/.test(l.message)), []);
    await next.driver.dispose();
  }
});
