/**
 * A representative transcript in the dark theme for a human to look at (test-results/webview-transcript.png), and
 * the narrow sidebar without horizontal overflow (webview-transcript-narrow.png).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { everyKind, sampleRun, snapshot } from './fixtures';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openHarness();
});
after(async () => {
  await harness?.close();
});

function transcript(): TranscriptItem[] {
  const items = everyKind();
  items.push({ id: 'live', kind: 'text', text: 'Now updating `loadConfig` to handle **empty** files', streaming: true });
  return items;
}

const RUN = sampleRun({
  state: 'waiting_approval',
  stateDetail: 'turn 3',
  actions: { send: true, queues: true, stop: true, end: false, changeSet: true },
  queue: [
    { queueId: 'q1', revision: 1, prompt: 'Then run the whole test suite and summarise failures.', submitter: 'you' },
    { queueId: 'q2', revision: 4, prompt: 'Also update the README.' },
  ],
});

describe('screenshot', () => {
  test('dark theme transcript', async () => {
    await harness.page.setViewportSize({ width: 420, height: 1900 });
    await harness.deliver(snapshot(transcript(), RUN));
    // Open the reasoning without a click (a click scrolls it into view, which unpins the list).
    await harness.page.locator('[data-item-id="r1"] details').evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await harness.page.evaluate(() => document.fonts.ready);
    await harness.settle();
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.screenshot({ path: join(dir, 'webview-transcript.png') });
    assert.deepEqual(harness.errors, []);
    assert.deepEqual(await harness.cspViolations(), []);
  });

  test('narrow sidebar: no horizontal overflow', async () => {
    await harness.page.setViewportSize({ width: 240, height: 900 });
    await harness.settle();
    await harness.settle();
    const overflow = await harness.page.evaluate(() => {
      const scroller = document.getElementById('transcript') as HTMLElement;
      const wide = [...document.querySelectorAll<HTMLElement>('#app *')].filter((el) => {
        if (el.closest('pre, .md-table')) {
          return false;
        } // these scroll on their own
        return el.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
      });
      return { scroll: scroller.scrollWidth - scroller.clientWidth, wide: wide.slice(0, 5).map((el) => el.className) };
    });
    assert.equal(overflow.scroll, 0);
    assert.deepEqual(overflow.wide, []);
    await harness.page.screenshot({ path: join(ROOT, 'test-results', 'webview-transcript-narrow.png') });
  });
});
