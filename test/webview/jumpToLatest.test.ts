/**
 * "Jump to latest" has a strip of its own under the transcript: whatever the reading position, it never covers a
 * row's controls (it used to float over the approval card's buttons). Screenshot: test-results/webview-jump-to-latest.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';
import { snapshot } from './fixtures';

const items = (): TranscriptItem[] => [
  ...Array.from({ length: 30 }, (_, i): TranscriptItem => ({ id: `x${i}`, kind: 'text', text: `Line ${i} of the answer, long enough to wrap once or twice in a narrow sidebar.`, streaming: false })),
  {
    id: 'a1',
    kind: 'approval',
    approvalId: 'ap-1',
    title: 'Run shell command',
    summary: 'npm run build',
    detail: { command: 'npm run build' },
    options: ['allow_once', 'allow_similar', 'deny'],
    status: 'pending',
    hasDiff: false,
  },
  { id: 'x-last', kind: 'text', text: 'Waiting for your decision.', streaming: false },
];

interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

describe('jump to latest', () => {
  let harness: Harness;
  before(async () => {
    harness = await openHarness({ width: 360, height: 600 });
    await harness.deliver(snapshot(items()));
    await harness.settle();
  });
  after(async () => {
    await harness?.close();
  });

  test('scrolled so the approval buttons sit at the bottom, the pill covers none of them', async () => {
    await harness.page.locator('#transcript').hover();
    await harness.page.mouse.wheel(0, -40);
    // The user's reading position: the card's buttons just above the bottom edge of the transcript (set twice: the
    // first scroll unpins, which shows the pill and may change the transcript's height).
    for (let i = 0; i < 2; i++) {
      await harness.page.evaluate(() => {
        const scroller = document.getElementById('transcript') as HTMLElement;
        const buttons = document.querySelector('[data-item-id="a1"] .approval-decide') as HTMLElement;
        const gap = scroller.getBoundingClientRect().bottom - buttons.getBoundingClientRect().bottom;
        scroller.scrollTop += 8 - gap;
      });
      await harness.page.waitForTimeout(50);
      await harness.settle();
      await harness.settle();
    }
    const { pill, scroller, buttons } = await harness.page.evaluate(() => {
      const rect = (el: Element): Rect => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      };
      const pillEl = document.getElementById('jump-to-latest') as HTMLElement;
      return {
        pill: pillEl.hidden ? null : rect(pillEl),
        scroller: rect(document.getElementById('transcript')!),
        buttons: [...document.querySelectorAll('#transcript button')].map(rect).filter((r) => r.bottom > 0 && r.top < window.innerHeight),
      };
    });
    assert.ok(pill, 'the pill shows while reading older items');
    assert.ok(buttons.length > 0, 'buttons are in view');
    const decide = await harness.page.locator('[data-item-id="a1"] .approval-decide').first().boundingBox();
    assert.ok(decide && decide.y + decide.height <= scroller.bottom + 0.5, 'the approval buttons are in view, above the pill');
    assert.ok(pill.top >= scroller.bottom - 0.5, `the pill (top ${pill.top}) is below the scroller (bottom ${scroller.bottom})`);
    for (const b of buttons) {
      const overlaps = b.left < pill.right && b.right > pill.left && b.top < pill.bottom && b.bottom > pill.top;
      assert.ok(!overlaps, `a button at ${JSON.stringify(b)} is under the pill ${JSON.stringify(pill)}`);
    }
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.screenshot({ path: join(dir, 'webview-jump-to-latest.png') });
  });

  test('jumping to the latest hides the pill and gives its strip back to the transcript', async () => {
    const before = await harness.page.evaluate(() => document.getElementById('transcript')!.clientHeight);
    await harness.page.locator('#jump-to-latest').click();
    await harness.settle();
    await harness.settle();
    const state = await harness.page.evaluate(() => ({
      hidden: (document.getElementById('jump-to-latest') as HTMLElement).hidden,
      height: document.getElementById('transcript')!.clientHeight,
      last: document.querySelector('[data-item-id="x-last"]')!.getBoundingClientRect().bottom,
      bottom: document.getElementById('transcript')!.getBoundingClientRect().bottom,
    }));
    assert.equal(state.hidden, true);
    assert.ok(state.height > before, `the transcript grew back (${before} → ${state.height})`);
    assert.ok(Math.abs(state.bottom - state.last) <= 1, 'pinned to the newest item');
  });
});
