/** A run waiting for the user's message: labelled so, no spinner, and End Run next to Send (posts endRun). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

describe('waiting for your message', () => {
  let harness: Harness;
  const end = () => harness.page.locator('#composer-end');

  before(async () => {
    harness = await openHarness();
  });
  after(async () => {
    await harness?.close();
  });

  const idleRun = sampleRun({ protocol: 'agency-proxy', state: 'idle', actions: { send: true, queues: false, stop: false, end: true, changeSet: false } });

  test('the header says "Waiting for your message" with a still icon, not a spinner', async () => {
    await harness.deliver(snapshot([{ id: 'u', kind: 'user', text: 'hi' }], idleRun));
    assert.equal((await harness.page.locator('#run-state').innerText()).trim(), 'Waiting for your message');
    const icon = harness.page.locator('#run-header .run-state-icon');
    const classes = (await icon.getAttribute('class')) ?? '';
    assert.match(classes, /codicon-comment-discussion/);
    assert.doesNotMatch(classes, /spin/);
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'running' }) });
    assert.match((await icon.getAttribute('class')) ?? '', /spin/, 'a running run does spin (the contrast is the point)');
  });

  test('End Run sits next to Send, Stop is hidden, and clicking it posts endRun', async () => {
    await harness.deliver({ type: 'run', run: idleRun });
    await harness.clearPosted();
    assert.equal(await end().isVisible(), true);
    assert.equal(await harness.page.locator('#composer-send').isVisible(), true);
    assert.equal(await harness.page.locator('#composer-stop').isHidden(), true);
    const order = await harness.page.locator('#composer .composer-actions button:visible').evaluateAll((els) => els.map((e) => e.id));
    assert.deepEqual(order, ['composer-end', 'composer-send']);
    await end().click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'endRun'), { type: 'endRun', runKey: RUN_KEY });
  });

  test('while the run answers there is no End Run; a run that only can be ended still shows the composer', async () => {
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'running', actions: { send: true, queues: false, stop: true, end: false, changeSet: false } }) });
    assert.equal(await end().isHidden(), true);
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'idle', actions: { send: false, queues: false, stop: false, end: true, changeSet: false } }) });
    assert.equal(await harness.page.locator('#composer').isVisible(), true);
    assert.equal(await end().isVisible(), true);
  });
});
