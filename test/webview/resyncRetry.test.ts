/**
 * A view that asked for a snapshot (it saw a patch gap) and never got one asks again, until one comes: a lost answer
 * (a webview torn down mid-reply, a host busy replaying journals) must not leave it waiting for ever.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openHarness();
  await harness.deliver(snapshot([{ id: 'x0', kind: 'text', text: 'hello', streaming: true }], sampleRun(), 3));
});
after(async () => {
  await harness?.close();
});

test('a resync that is not answered is asked again; a snapshot ends it', async () => {
  await harness.clearPosted();
  await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: 9, patches: [{ op: 'append', id: 'x0', field: 'text', chunk: '!' }] });
  const resyncs = async (): Promise<number> => (await harness.posted()).filter((m) => m.type === 'resync').length;
  await harness.waitForPost((m) => m.type === 'resync');
  // No patch arrives meanwhile (the old view only asked again on the next patch): the view asks again by itself.
  for (const deadline = Date.now() + 10_000; (await resyncs()) < 2; ) {
    assert.ok(Date.now() < deadline, 'asked again');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await harness.deliver(snapshot([{ id: 'x0', kind: 'text', text: 'hello!', streaming: true }], sampleRun(), 9));
  const settled = await resyncs();
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  assert.equal(await resyncs(), settled, 'no more once the snapshot came');
  assert.match(await harness.page.locator('[data-item-id="x0"]').innerText(), /hello!/);
});
