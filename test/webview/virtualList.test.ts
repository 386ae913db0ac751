/**
 * 100,000 items: the DOM stays bounded, the newest item is visible while pinned, the view holds still while the
 * user reads older items, "jump to latest" re-pins, and a reload restores the reading position.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sampleRun } from './fixtures';
import { FakeHost, mixedItems } from './fakeHost';
import { openHarness } from './harness';
import type { Harness } from './harness';

const COUNT = 100_000;

/** Scrolls the list to `fraction` of its height as the user would (a wheel step first, so it counts as theirs). */
async function userScrollTo(harness: Harness, fraction: number, host?: FakeHost): Promise<void> {
  await harness.page.locator('#transcript').hover();
  await harness.page.mouse.wheel(0, -40);
  await harness.page.evaluate((f) => {
    const scroller = document.getElementById('transcript') as HTMLElement;
    scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * f;
  }, fraction);
  await harness.page.waitForTimeout(50);
  await settleLoaded(harness, host);
}

/**
 * A host with `count` mixed items sends its snapshot (the tail window); returns how long until it was shown. A fresh
 * FakeHost per call: the webview asks it for the ranges it scrolls into.
 */
let lastHost: FakeHost | undefined;
async function deliverBigSnapshot(harness: Harness, count: number): Promise<{ ms: number; host: FakeHost }> {
  lastHost?.close();
  const host = new FakeHost(harness, sampleRun(), mixedItems(count));
  lastHost = host;
  const started = Date.now();
  await host.sendSnapshot();
  await settleLoaded(harness, host);
  return { ms: Date.now() - started, host };
}

/** Waits until the rows in the viewport are items, not placeholders (their ranges were asked for and delivered). */
async function settleLoaded(harness: Harness, host: FakeHost | undefined): Promise<void> {
  for (let round = 0; round < 50; round++) {
    await host?.idle();
    await harness.settle();
    const waiting = await harness.page.evaluate(() => {
      const box = (document.getElementById('transcript') as HTMLElement).getBoundingClientRect();
      return [...document.querySelectorAll('.item-placeholder')].some((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      });
    });
    if (!waiting) {
      await harness.settle();
      return;
    }
  }
  throw new Error('placeholders in the viewport never got their items');
}

async function metrics(harness: Harness) {
  return harness.page.evaluate(() => {
    const scroller = document.getElementById('transcript') as HTMLElement;
    const box = scroller.getBoundingClientRect();
    const rows = [...document.querySelectorAll<HTMLElement>('[data-item-id]')];
    const visible = rows.filter((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
    const first = visible[0];
    const last = visible[visible.length - 1];
    return {
      nodes: document.getElementsByTagName('*').length,
      rows: rows.length,
      firstVisibleId: first?.dataset['itemId'] ?? null,
      firstVisibleTop: first ? first.getBoundingClientRect().top - box.top : null,
      lastVisibleId: last?.dataset['itemId'] ?? null,
      lastVisibleBottomGap: last ? box.bottom - last.getBoundingClientRect().bottom : null,
      coversTop: visible.length > 0 && (first?.getBoundingClientRect().top ?? 1) <= box.top + 0.5,
      coversBottom: visible.length > 0 && (last?.getBoundingClientRect().bottom ?? 0) >= box.bottom - 0.5,
      scrollTop: scroller.scrollTop,
      scrollHeight: scroller.scrollHeight,
      clientHeight: scroller.clientHeight,
      jumpVisible: !(document.getElementById('jump-to-latest') as HTMLElement).hidden,
    };
  });
}

describe('virtualized transcript', () => {
  let harness: Harness;
  let host: FakeHost | undefined;
  const add = async (from: number, n: number) => {
    const patches = Array.from({ length: n }, (_, k) => ({ op: 'add' as const, item: { id: `new-${from + k}`, kind: 'text' as const, text: `new item ${from + k}`, streaming: false } }));
    await host!.patch(patches);
    await settleLoaded(harness, host);
  };

  before(async () => {
    harness = await openHarness({ width: 400, height: 700 });
  });
  after(async () => {
    await harness?.close();
  });

  test('100k items: bounded DOM, newest item visible at the bottom', async () => {
    const big = await deliverBigSnapshot(harness, COUNT);
    host = big.host;
    const ms = big.ms;
    const m = await metrics(harness);
    assert.ok(m.nodes < 3_000, `DOM has ${m.nodes} elements`);
    assert.ok(m.rows < 150, `${m.rows} rows mounted`);
    assert.equal(m.lastVisibleId, `item-${COUNT - 1}`);
    assert.ok(Math.abs(m.lastVisibleBottomGap ?? 99) <= 1, `bottom gap ${m.lastVisibleBottomGap}`);
    assert.equal(m.jumpVisible, false);
    assert.ok(ms < 15_000, `snapshot took ${ms} ms`);
    assert.deepEqual(harness.errors, []);
  });

  test('appends while pinned keep the newest item in view', async () => {
    await add(0, 3);
    await harness.settle();
    const m = await metrics(harness);
    assert.equal(m.lastVisibleId, 'new-2');
    assert.ok(Math.abs(m.lastVisibleBottomGap ?? 99) <= 1);
  });

  test('a scroll that is not the user (hidden webview reset, script) keeps the list pinned', async () => {
    await harness.page.evaluate(() => {
      (document.getElementById('transcript') as HTMLElement).scrollTop = 0;
    });
    await harness.page.waitForTimeout(50);
    await harness.settle();
    await harness.settle();
    let m = await metrics(harness);
    assert.equal(m.jumpVisible, false);
    assert.equal(m.lastVisibleId, 'new-2');
    await harness.page.evaluate(() => {
      const container = document.getElementById('transcript-container') as HTMLElement;
      container.hidden = true;
      void container.offsetHeight;
      container.hidden = false;
    });
    await harness.page.waitForTimeout(50);
    await harness.settle();
    await harness.settle();
    m = await metrics(harness);
    assert.equal(m.jumpVisible, false);
    assert.ok(Math.abs(m.lastVisibleBottomGap ?? 99) <= 1, `bottom gap ${m.lastVisibleBottomGap}`);
  });

  test('scrolling up unpins, shows "jump to latest", and new items do not move the view', async () => {
    await harness.page.locator('#transcript').hover();
    await harness.page.mouse.wheel(0, -1500);
    await harness.page.waitForTimeout(100);
    await harness.settle();
    const before = await metrics(harness);
    assert.equal(before.jumpVisible, true);
    await add(3, 20);
    await harness.settle();
    const after = await metrics(harness);
    assert.equal(after.firstVisibleId, before.firstVisibleId);
    assert.ok(Math.abs((after.firstVisibleTop ?? 0) - (before.firstVisibleTop ?? 0)) <= 1, `moved from ${before.firstVisibleTop} to ${after.firstVisibleTop}`);
    assert.equal(after.jumpVisible, true);
  });

  test('jump to latest re-pins', async () => {
    await harness.page.locator('#jump-to-latest').click();
    await harness.settle();
    await harness.settle();
    const m = await metrics(harness);
    assert.equal(m.lastVisibleId, 'new-22');
    assert.ok(Math.abs(m.lastVisibleBottomGap ?? 99) <= 1);
    assert.equal(m.jumpVisible, false);
  });

  test('jumping into the middle renders a full viewport there, still bounded', async () => {
    for (const fraction of [0.5, 0.1, 0.77, 0]) {
      await userScrollTo(harness, fraction, host);
      const m = await metrics(harness);
      assert.ok(m.coversTop && m.coversBottom, `viewport not covered at ${fraction}: ${JSON.stringify(m)}`);
      assert.ok(m.nodes < 3_000, `DOM has ${m.nodes} elements`);
      if (fraction === 0) {
        assert.equal(m.firstVisibleId, 'item-0');
      }
    }
  });

  test('a reloaded webview restores the reading position from setState', async () => {
    host = (await deliverBigSnapshot(harness, 5_000)).host;
    await userScrollTo(harness, 0.3, host);
    const before = await metrics(harness);
    assert.equal(before.jumpVisible, true);
    await harness.page.waitForTimeout(400); // the state write is debounced
    const state = await harness.page.evaluate(() => window.__state);
    await harness.reload(state);
    host = (await deliverBigSnapshot(harness, 5_000)).host;
    const after = await metrics(harness);
    assert.equal(after.firstVisibleId, before.firstVisibleId);
    assert.ok(Math.abs((after.firstVisibleTop ?? 0) - (before.firstVisibleTop ?? 0)) <= 2);
    assert.equal(after.jumpVisible, true);
  });
});
