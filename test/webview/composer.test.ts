/** The composer (send / queue / stop, drafts) and the SCV queue panel post exactly the right messages. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { RunSummary } from '../../extension/protocol/webviewMessages';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const QUEUE: NonNullable<RunSummary['queue']> = [
  { queueId: 'q1', revision: 3, prompt: 'first queued prompt', submitter: 'alice' },
  { queueId: 'q2', revision: 7, prompt: 'second queued prompt' },
  { queueId: 'q3', revision: 1, prompt: 'third queued prompt' },
];

describe('composer and queue', () => {
  let harness: Harness;
  const input = () => harness.page.locator('#composer-input');
  const send = () => harness.page.locator('#composer-send');

  before(async () => {
    harness = await openHarness();
  });
  beforeEach(async () => {
    await harness.deliver(snapshot([{ id: 'u', kind: 'user', text: 'hi' }], sampleRun({ queue: QUEUE, actions: { send: true, queues: true, stop: true, end: false, changeSet: false } })));
    await harness.clearPosted();
  });
  after(async () => {
    await harness?.close();
  });

  test('the textarea is labelled', async () => {
    assert.equal(await harness.page.getByLabel('Message to the agent').count(), 1);
  });

  test('Ctrl+Enter sends and clears; empty text does not send', async () => {
    await input().fill('please add tests');
    await input().press('Control+Enter');
    const sent = await harness.waitForPost((m) => m.type === 'send');
    assert.deepEqual(sent, { type: 'send', runKey: RUN_KEY, text: 'please add tests' });
    assert.equal(await input().inputValue(), '');
    await input().press('Control+Enter');
    await input().fill('   ');
    assert.equal(await send().isDisabled(), true);
    assert.equal((await harness.posted()).filter((m) => m.type === 'send').length, 1);
  });

  test('Cmd+Enter sends too', async () => {
    await input().fill('mac user');
    await input().press('Meta+Enter');
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'send'), { type: 'send', runKey: RUN_KEY, text: 'mac user' });
  });

  test('the button reads "Queue" while a turn runs on a queueing daemon, "Send" otherwise', async () => {
    assert.equal((await send().innerText()).trim(), 'Queue');
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'idle', queue: QUEUE, actions: { send: true, queues: true, stop: true, end: false, changeSet: false } }) });
    assert.equal((await send().innerText()).trim(), 'Send');
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'running', actions: { send: true, queues: false, stop: true, end: false, changeSet: false } }) });
    assert.equal((await send().innerText()).trim(), 'Send');
  });

  test('Stop posts stop, also from the keyboard', async () => {
    await harness.page.locator('#composer-stop').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'stop'), { type: 'stop', runKey: RUN_KEY });
    await harness.clearPosted();
    await harness.page.locator('#composer-stop').focus();
    await harness.page.keyboard.press('Space');
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'stop'), { type: 'stop', runKey: RUN_KEY });
  });

  test('no send action: the input is hidden, Stop stays; no stop action: Stop hidden', async () => {
    await harness.deliver({ type: 'run', run: sampleRun({ actions: { send: false, queues: false, stop: true, end: false, changeSet: false } }) });
    assert.equal(await input().isHidden(), true);
    assert.equal(await send().isHidden(), true);
    assert.equal(await harness.page.locator('#composer-stop').isVisible(), true);
    await harness.deliver({ type: 'run', run: sampleRun({ actions: { send: true, queues: false, stop: false, end: false, changeSet: false } }) });
    assert.equal(await input().isVisible(), true);
    assert.equal(await harness.page.locator('#composer-stop').isHidden(), true);
  });

  test('the draft comes with the snapshot, per run, and a resync does not overwrite typing', async () => {
    const run2 = sampleRun({ key: 'scv:local:run-2', runId: 'run-2' });
    await harness.deliver({ ...snapshot([], run2), draft: 'half-written thought' });
    assert.equal(await input().inputValue(), 'half-written thought');
    await harness.deliver(snapshot([], sampleRun()));
    assert.equal(await input().inputValue(), '', 'a run without a draft shows an empty composer');
    await harness.deliver({ ...snapshot([], run2), draft: 'the other draft' });
    assert.equal(await input().inputValue(), 'the other draft');
    await input().fill('typed since');
    await harness.deliver({ ...snapshot([], run2), draft: 'the other draft' });
    assert.equal(await input().inputValue(), 'typed since', 'a snapshot of the same run keeps the text being typed');
    await input().fill('');
  });

  test('draft changes are posted to the host after a pause, the last text per run', async () => {
    await input().pressSequentially('abc');
    const draft = await harness.waitForPost((m) => m.type === 'draft' && m.text === 'abc');
    assert.deepEqual(draft, { type: 'draft', runKey: RUN_KEY, text: 'abc' });
    // Switching runs reports what was typed into the run being left, at once.
    await harness.clearPosted();
    await input().fill('left behind');
    await harness.deliver(snapshot([], sampleRun({ key: 'scv:local:run-2', runId: 'run-2' })));
    assert.deepEqual(await harness.posted(), [{ type: 'draft', runKey: RUN_KEY, text: 'left behind' }]);
  });

  test('sending reports no stale draft after the send', async () => {
    await input().fill('send me');
    await input().press('Control+Enter');
    await harness.waitForPost((m) => m.type === 'send');
    await harness.page.waitForTimeout(400); // longer than the draft delay: a pending report would have gone out
    assert.deepEqual((await harness.posted()).filter((m) => m.type === 'draft'), []);
  });

  test('a draft changed in another view of the run is taken, unless the user is typing here', async () => {
    await harness.page.locator('#transcript').focus();
    await harness.deliver({ type: 'draft', runKey: RUN_KEY, text: 'typed in the editor tab' });
    assert.equal(await input().inputValue(), 'typed in the editor tab');
    await harness.deliver({ type: 'draft', runKey: 'scv:local:other', text: 'another run' });
    assert.equal(await input().inputValue(), 'typed in the editor tab', 'another run’s draft is not this one');
    await input().fill('mine');
    await harness.deliver({ type: 'draft', runKey: RUN_KEY, text: 'theirs' });
    assert.equal(await input().inputValue(), 'mine', 'the composer being typed in keeps its text');
    await input().fill('');
  });

  test('queue entries render with their positions', async () => {
    const prompts = await harness.page.locator('#queue .queue-prompt').allInnerTexts();
    assert.deepEqual(prompts, QUEUE.map((e) => e.prompt));
    assert.equal(await harness.page.locator('#queue [data-queue-id="q1"] .queue-up').isDisabled(), true);
    assert.equal(await harness.page.locator('#queue [data-queue-id="q3"] .queue-down').isDisabled(), true);
  });

  test('move up / down post queueMove with the revision and the right beforeQueueId', async () => {
    const entry = (id: string) => harness.page.locator(`#queue [data-queue-id="${id}"]`);
    await entry('q2').locator('.queue-up').click();
    await entry('q1').locator('.queue-down').click();
    await entry('q2').locator('.queue-down').click();
    const moves = (await harness.posted()).filter((m) => m.type === 'queueMove');
    assert.deepEqual(moves, [
      { type: 'queueMove', runKey: RUN_KEY, queueId: 'q2', revision: 7, beforeQueueId: 'q1' },
      { type: 'queueMove', runKey: RUN_KEY, queueId: 'q1', revision: 3, beforeQueueId: 'q3' },
      { type: 'queueMove', runKey: RUN_KEY, queueId: 'q2', revision: 7, beforeQueueId: null },
    ]);
  });

  test('remove posts queueRemove with the revision', async () => {
    await harness.page.locator('#queue [data-queue-id="q3"] .queue-remove').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'queueRemove'), { type: 'queueRemove', runKey: RUN_KEY, queueId: 'q3', revision: 1 });
  });

  test('inline edit posts queueEdit with the revision it started from; Escape cancels', async () => {
    const entry = harness.page.locator('#queue [data-queue-id="q2"]');
    await entry.locator('.queue-edit').click();
    const editor = entry.locator('textarea');
    assert.equal(await editor.inputValue(), 'second queued prompt');
    await editor.fill('second prompt, edited');
    // A header update while editing keeps the editor and the revision the user saw.
    await harness.deliver({ type: 'run', run: sampleRun({ queue: QUEUE.map((e) => (e.queueId === 'q2' ? { ...e, revision: 8 } : e)), actions: { send: true, queues: true, stop: true, end: false, changeSet: false } }) });
    assert.equal(await entry.locator('textarea').inputValue(), 'second prompt, edited');
    await entry.locator('.queue-save').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'queueEdit'), {
      type: 'queueEdit',
      runKey: RUN_KEY,
      queueId: 'q2',
      revision: 7,
      prompt: 'second prompt, edited',
    });
    assert.equal(await entry.locator('textarea').count(), 0);

    await entry.locator('.queue-edit').click();
    await entry.locator('textarea').press('Escape');
    assert.equal(await entry.locator('textarea').count(), 0);
    assert.equal((await harness.posted()).filter((m) => m.type === 'queueEdit').length, 1);
  });

  test('pause / resume', async () => {
    await harness.page.locator('#queue-pause').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'queuePause'), { type: 'queuePause', runKey: RUN_KEY, paused: true });
    await harness.deliver({ type: 'run', run: sampleRun({ queue: QUEUE, queuePaused: true, actions: { send: true, queues: true, stop: true, end: false, changeSet: false } }) });
    await harness.clearPosted();
    assert.match(await harness.page.locator('#queue-pause').innerText(), /Resume/);
    await harness.page.locator('#queue-pause').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'queuePause'), { type: 'queuePause', runKey: RUN_KEY, paused: false });
  });

  test('keyboard focus survives a queue re-render', async () => {
    await harness.page.locator('#queue [data-queue-id="q3"] .queue-up').focus();
    await harness.page.keyboard.press('Enter');
    await harness.waitForPost((m) => m.type === 'queueMove');
    const moved = [QUEUE[0], QUEUE[2], QUEUE[1]].map((e) => ({ ...(e as NonNullable<typeof e>), revision: (e?.revision ?? 0) + 1 }));
    await harness.deliver({ type: 'run', run: sampleRun({ queue: moved, actions: { send: true, queues: true, stop: true, end: false, changeSet: false } }) });
    const focused = await harness.page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { queueId: el?.closest('li')?.dataset['queueId'], up: el?.classList.contains('queue-up') };
    });
    assert.deepEqual(focused, { queueId: 'q3', up: true });
  });

  test('every button has an accessible name', async () => {
    const unnamed = await harness.page.$$eval('button', (buttons) => buttons.filter((b) => !(b.getAttribute('aria-label') || b.textContent?.trim())).map((b) => b.outerHTML));
    assert.deepEqual(unnamed, []);
    assert.deepEqual(harness.errors, []);
  });
});
