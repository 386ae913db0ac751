/**
 * The windowed transcript at 100,000 items, against the host's own window and request code (fakeHost.ts): the view
 * opens from the tail window, scrolls to the top, jumps to an approval it never held, finds across the whole run,
 * keeps streaming while the user reads far up, and a hidden-then-shown (reloaded) view comes back where it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findInTranscript } from '../../extension/model/transcriptSearch';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { TRANSCRIPT_WINDOW } from '../../extension/protocol/webviewMessages';
import { FakeHost, mixedItems } from './fakeHost';
import { sampleRun } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const COUNT = 100_000;
const APPROVAL: TranscriptItem = {
  id: 'card-old',
  kind: 'approval',
  approvalId: 'ap-old',
  title: 'Edit src/early.ts',
  detail: {},
  options: ['allow_once', 'deny'],
  status: 'pending',
  hasDiff: false,
};

/** What the viewport shows: the ids of the visible rows, and whether a placeholder is among them. */
async function viewport(harness: Harness): Promise<{ ids: string[]; placeholders: number; nodes: number }> {
  return harness.page.evaluate(() => {
    const box = (document.getElementById('transcript') as HTMLElement).getBoundingClientRect();
    const visible = [...document.querySelectorAll<HTMLElement>('.vl-window > *')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
    return {
      ids: visible.map((row) => row.dataset['itemId'] ?? '').filter((id) => id !== ''),
      placeholders: visible.filter((row) => row.classList.contains('item-placeholder')).length,
      nodes: document.getElementsByTagName('*').length,
    };
  });
}

/** Lets the view ask for what it lacks and the host answer, until the viewport holds items only. */
async function settleLoaded(harness: Harness, host: FakeHost): Promise<void> {
  for (let round = 0; round < 50; round++) {
    await host.idle();
    await harness.settle();
    if ((await viewport(harness)).placeholders === 0) {
      await harness.settle();
      return;
    }
  }
  throw new Error('placeholders in the viewport never got their items');
}

describe('windowed transcript at 100k items', () => {
  let harness: Harness;
  let host: FakeHost;

  before(async () => {
    harness = await openHarness({ width: 420, height: 700 });
    const items = mixedItems(COUNT);
    items.splice(10, 0, APPROVAL);
    host = new FakeHost(harness, sampleRun(), items);
    await host.sendSnapshot();
    await settleLoaded(harness, host);
  });
  after(async () => {
    await harness?.close();
  });

  test('opens from the tail window: the newest item is on screen, the DOM is bounded, nothing else was fetched', async () => {
    const shown = await viewport(harness);
    assert.equal(shown.ids.at(-1), `item-${COUNT - 1}`);
    assert.ok(shown.nodes < 3_000, `${shown.nodes} elements`);
    assert.deepEqual(host.answered.filter((m) => m.type === 'range'), [], 'the tail window filled the screen');
  });

  test('Home scrolls to the very top; the ranges it needs are fetched, each within rangeMax', async () => {
    await harness.page.locator('#transcript').focus();
    await harness.page.keyboard.press('Home');
    await settleLoaded(harness, host);
    const shown = await viewport(harness);
    assert.equal(shown.ids[0], 'item-0');
    const ranges = host.answered.filter((m) => m.type === 'range');
    assert.ok(ranges.length > 0);
    for (const range of ranges) {
      assert.ok(range.type === 'range' && range.end - range.start <= TRANSCRIPT_WINDOW.rangeMax, JSON.stringify(range));
    }
  });

  test('streaming while the user reads the top: the view stays, the tail is not fetched, Jump to latest shows it', async () => {
    const before = await viewport(harness);
    const asked = host.answered.length;
    await host.patch(Array.from({ length: 30 }, (_, k) => ({ op: 'add' as const, item: { id: `live-${k}`, kind: 'text' as const, text: `live ${k}`, streaming: false } })));
    await settleLoaded(harness, host);
    assert.deepEqual((await viewport(harness)).ids, before.ids);
    assert.equal(host.answered.length, asked, 'nothing was fetched for items off screen');
    await harness.page.locator('#jump-to-latest').click();
    await settleLoaded(harness, host);
    assert.equal((await viewport(harness)).ids.at(-1), 'live-29');
  });

  test("the header's approval button reveals the waiting card near the top, fetched on the way", async () => {
    await harness.page.locator('#run-approvals').click();
    await settleLoaded(harness, host);
    assert.ok((await viewport(harness)).ids.includes('card-old'));
    assert.equal(await harness.page.locator('[data-item-id="card-old"].flash').count(), 1);
  });

  test('Ctrl+F finds across the whole run on the host and walks the hits', async () => {
    const query = 'notice 1234';
    const expected = findInTranscript(host.transcript, query, false).hits;
    assert.ok(expected.length > 2);
    await harness.page.locator('#transcript').focus();
    await harness.page.keyboard.press('Control+f');
    assert.equal(await harness.page.locator('#find-bar').isVisible(), true);
    await harness.page.keyboard.type(query);
    await harness.waitForPost((m) => m.type === 'find' && m.query === query);
    await settleLoaded(harness, host);
    const idAt = (index: number) => host.transcript.at(index)?.id ?? '';
    const count = harness.page.locator('.find-count');
    // The first hit at or after where the user is (the card near the top).
    const first = expected.findIndex((index) => index >= 10);
    assert.equal(await count.innerText(), `${first + 1} of ${expected.length.toLocaleString()}`);
    const firstShown = await viewport(harness);
    assert.ok(firstShown.ids.includes(idAt(expected[first]!)), `${idAt(expected[first]!)} in ${firstShown.ids.join(' ')}`);
    const painted = await harness.page.evaluate(() => CSS.highlights.get('switchboard-find-current')?.size ?? 0);
    assert.ok(painted > 0, 'the match in the current hit is highlighted');
    await harness.page.keyboard.press('Enter');
    await settleLoaded(harness, host);
    assert.ok((await viewport(harness)).ids.includes(idAt(expected[first + 1]!)));
    assert.equal(await count.innerText(), `${first + 2} of ${expected.length.toLocaleString()}`);
    await harness.page.keyboard.press('Shift+Enter');
    await harness.page.keyboard.press('Shift+Enter');
    await settleLoaded(harness, host);
    // Back past the first hit wraps to the last one.
    const previous = expected[(first - 1 + expected.length) % expected.length]!;
    assert.ok((await viewport(harness)).ids.includes(idAt(previous)));
    assert.equal(await count.innerText(), `${((first - 1 + expected.length) % expected.length) + 1} of ${expected.length.toLocaleString()}`);
  });

  test('matches that stream in while the bar is open join the count; the hit the user is on stays', async () => {
    const query = 'notice 1234';
    const count = harness.page.locator('.find-count');
    const before = await count.innerText();
    const shown = (await viewport(harness)).ids;
    const total = findInTranscript(host.transcript, query, false).hits.length;
    await host.patch([{ op: 'add', item: { id: 'late-match', kind: 'notice', text: 'notice 1234 (late)', level: 'info' } }]);
    await harness.waitForPost((m) => m.type === 'find' && m.query === query && host.answered.filter((a) => a.type === 'find').length >= 2, 10_000);
    await host.idle();
    await harness.settle();
    assert.equal(await count.innerText(), before.replace(/of .*/, `of ${(total + 1).toLocaleString()}`));
    assert.deepEqual((await viewport(harness)).ids, shown, 'the view did not move');
  });

  test('Match Case, no results, and Escape closes the bar', async () => {
    await harness.page.locator('#find-bar .find-toggle').click();
    await harness.page.locator('.find-input').fill('NOTICE 1234');
    await harness.waitForPost((m) => m.type === 'find' && m.query === 'NOTICE 1234' && m.matchCase);
    await host.idle();
    await harness.settle();
    assert.equal(await harness.page.locator('.find-count').innerText(), 'No results');
    await harness.page.locator('.find-input').press('Escape');
    assert.equal(await harness.page.locator('#find-bar').isVisible(), false);
    assert.equal(await harness.page.evaluate(() => CSS.highlights.has('switchboard-find')), false);
  });

  test('hidden and shown again (a new webview with its saved state): back at the same item, mid-transcript', async () => {
    await harness.page.locator('#transcript').hover();
    await harness.page.mouse.wheel(0, -40);
    await harness.page.evaluate(() => {
      const scroller = document.getElementById('transcript') as HTMLElement;
      scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * 0.5;
    });
    await settleLoaded(harness, host);
    const before = await viewport(harness);
    const middle = Number(before.ids[0]?.replace('item-', ''));
    assert.ok(middle > 20_000 && middle < 80_000, `at ${before.ids[0]}`);
    await harness.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange'))); // flushes the state
    await harness.page.waitForFunction(() => JSON.stringify(window.__state).includes('anchorIndex'));
    const state = await harness.page.evaluate(() => window.__state);
    await harness.reload(state);
    await host.sendSnapshot();
    await settleLoaded(harness, host);
    assert.equal((await viewport(harness)).ids[0], before.ids[0]);
    assert.deepEqual(harness.errors, []);
  });
});
