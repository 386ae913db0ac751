/**
 * A transcript in an editor tab: the snapshot names the tab's run (`tabRunKey`), which the webview stores with
 * setState at once (the host's serializer reads it after a reload), and while that run is not known yet the tab
 * says it is waiting for it rather than "No run selected".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

describe('transcript in an editor tab', () => {
  let harness: Harness;

  before(async () => {
    harness = await openHarness();
  });
  after(async () => {
    await harness?.close();
  });

  test('a tab waiting for its run says so and stores the run key in its state', async () => {
    await harness.deliver({ ...snapshot([], null), tabRunKey: RUN_KEY });
    assert.match(await harness.page.locator('#empty-state').innerText(), /Waiting for this run/);
    const state = (await harness.page.evaluate(() => window.__state)) as { tabRunKey?: string } | null;
    assert.equal(state?.tabRunKey, RUN_KEY);
  });

  test('the run appears: its transcript and draft are shown, and the state still names the run', async () => {
    await harness.deliver({ ...snapshot([{ id: 'u', kind: 'user', text: 'restored prompt' }], sampleRun()), tabRunKey: RUN_KEY, draft: 'draft from the sidebar' });
    assert.equal(await harness.page.locator('#empty-state').isHidden(), true);
    assert.match(await harness.page.locator('#transcript').innerText(), /restored prompt/);
    assert.equal(await harness.page.locator('#composer-input').inputValue(), 'draft from the sidebar');
    const state = (await harness.page.evaluate(() => window.__state)) as { tabRunKey?: string } | null;
    assert.equal(state?.tabRunKey, RUN_KEY);
  });

  test('the sidebar (no tabRunKey) keeps the usual empty text and stores no run key', async () => {
    await harness.reload(null);
    await harness.deliver(snapshot([], null));
    assert.match(await harness.page.locator('#empty-state').innerText(), /No run selected/);
    const state = (await harness.page.evaluate(() => window.__state)) as { tabRunKey?: string } | null;
    assert.equal(state?.tabRunKey, undefined);
  });
});
