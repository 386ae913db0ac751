/**
 * A long SCV session comes back from its run checkpoint (kit/runCheckpoints.ts) as a whole journal replay brings it
 * back: the same items, fields and closing line, with the checkpoint restored whole (a handful
 * of patches instead of one per item). SCV keeps no per-record books, so its checkpoints carry none.
 */
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { until } from '../driverKit';
import { CONNECTION, connected, scvDriverSetup, turns } from './scvDriverKit';

function seen(store: RunStore, key: string) {
  const { title, state, stateDetail, lastSequence, itemCount } = store.state.runs.get(key)!;
  return { title, state, stateDetail, lastSequence, itemCount, items: store.transcript(key)!.snapshot() };
}

test('a long SCV session comes back from its checkpoint as a whole replay brings it back', async () => {
  const s = await scvDriverSetup({ stepDelayMs: 0 });
  try {
    const runId = await connected(s);
    const key = runKeyOf(CONNECTION, runId);
    // 800 quick tool calls: 2,400 events and more journal records (the kit checkpoints runs of 2,000 and more).
    await s.driver.sendMessage(runId, 'long steps:800');
    await until('the turn completed', () => turns(s, runId, 'completed') === 1, 60_000);
    await s.driver.disconnect();
    await s.driver.dispose(); // closing the journal writes the checkpoint
    const transcripts = join(s.storage, 'transcripts');
    const checkpoints = () => readdirSync(transcripts, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ckpt'));
    assert.equal(checkpoints().length, 1);

    // A window reload with the daemon still there: the stored session comes back as it ended (interrupted when the
    // connection closed), the driver starts a fresh session beside it.
    const fromCheckpoint = s.reload();
    let patches = 0;
    fromCheckpoint.store.onDidPatch((event) => (patches += event.runKey === key ? 1 : 0));
    await connected(fromCheckpoint);
    await until('restored', () => fromCheckpoint.store.state.runs.get(key)?.state === 'interrupted');
    // An ended session comes back from its summary (issue #25 §2); opening it replays the checkpoint.
    await until('shown from its summary', () => fromCheckpoint.store.state.runs.get(key)?.unloaded !== undefined);
    await fromCheckpoint.driver.history.load(runId);
    await fromCheckpoint.driver.flushStorage?.();
    assert.ok(patches < 10, `restored whole: ${patches} patches`);
    const restored = seen(fromCheckpoint.store, key);
    assert.ok(restored.items.some((i) => i.kind === 'notice' && i.state === 'interrupted'), 'the closing line');
    assert.ok(restored.itemCount > 800);
    await fromCheckpoint.driver.disconnect();
    await fromCheckpoint.driver.dispose();

    checkpoints().forEach((f) => rmSync(join(transcripts, f)));
    const whole = s.reload();
    await connected(whole);
    await until('restored', () => whole.store.state.runs.get(key)?.state === 'interrupted');
    await until('shown from its summary', () => whole.store.state.runs.get(key)?.unloaded !== undefined);
    await whole.driver.history.load(runId);
    await whole.driver.flushStorage?.();
    assert.deepEqual(seen(whole.store, key), restored);
    assert.deepEqual([...fromCheckpoint.logs, ...whole.logs].filter((l) => /checkpoint/.test(l)), []);
  } finally {
    await s.cleanup();
  }
});
