/**
 * What frames the transcript: the ready handshake, the run header and its change set button, toasts, focusing the
 * composer, the empty state, and host messages that fail validation being dropped without breaking the view.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openEveryKindHarness } from './everyKindKit';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openEveryKindHarness();
});
after(async () => {
  await harness?.close();
});

describe('view chrome', () => {
  const text = (selector: string) => harness.page.locator(selector).first().innerText();

  test('posts ready once and shows the header', async () => {
    const posted = await harness.posted();
    assert.equal(posted.filter((m) => m.type === 'ready').length, 1);
    assert.equal(await text('#run-title'), 'Refactor the config loader');
    assert.match(await text('#run-state'), /Running/);
    assert.match(await text('#run-model'), /anthropic \/ claude-sonnet-4/);
    assert.equal((await text('#run-approvals')).trim(), '1');
  });

  test('header change set button and pending approvals', async () => {
    await harness.clearPosted();
    await harness.page.locator('#run-change-set').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'showChangeSet'), { type: 'showChangeSet', runKey: RUN_KEY });
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'completed', pendingApprovals: 0, actions: { send: false, queues: false, stop: false, end: false, changeSet: false } }) });
    assert.match(await text('#run-state'), /Completed/);
    assert.equal(await harness.page.locator('#run-approvals').count(), 0);
    assert.equal(await harness.page.locator('#composer').isHidden(), true);
  });

  test('toast and focusComposer', async () => {
    await harness.deliver({ type: 'run', run: sampleRun() });
    await harness.deliver({ type: 'toast', level: 'error', text: 'Send refused: run is busy' });
    assert.match(await text('#toasts .toast-error'), /Send refused/);
    await harness.deliver({ type: 'focusComposer' });
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'composer-input');
  });

  test('invalid host messages are dropped without breaking the view', async () => {
    await harness.deliver({ type: 'snapshot', run: null, items: 'nope', seq: 0 });
    await harness.deliver({ type: 'unknown' });
    assert.equal(await text('#run-title'), 'Refactor the config loader');
  });

  test('empty state when no run is selected', async () => {
    await harness.deliver(snapshot([], null));
    assert.match(await text('#empty-state'), /No run selected — pick one in Connections or run 'Agent Switchboard: New Run…'/);
    assert.equal(await harness.page.locator('#run-header').isHidden(), true);
    assert.equal(await harness.page.locator('#composer').isHidden(), true);
    assert.deepEqual(harness.errors.filter((e) => !e.includes('dropping invalid')), []);
  });
});
