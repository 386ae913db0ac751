/**
 * 100,000 items: the DOM stays bounded, the newest item is visible while pinned, the view holds still while the
 * user reads older items, "jump to latest" re-pins, and a reload restores the reading position.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RUN_KEY, sampleRun } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const COUNT = 100_000;

/** Scrolls the list to `fraction` of its height as the user would (a wheel step first, so it counts as theirs). */
async function userScrollTo(harness: Harness, fraction: number): Promise<void> {
  await harness.page.locator('#transcript').hover();
  await harness.page.mouse.wheel(0, -40);
  await harness.page.evaluate((f) => {
    const scroller = document.getElementById('transcript') as HTMLElement;
    scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * f;
  }, fraction);
  await harness.page.waitForTimeout(50);
  await harness.settle();
  await harness.settle();
}

/** Builds and posts the snapshot inside the page (faster than shipping 100k items over CDP). */
async function deliverBigSnapshot(harness: Harness, count: number): Promise<number> {
  const started = Date.now();
  await harness.page.evaluate(
    ({ count, run }) => {
      const items: unknown[] = [];
      for (let i = 0; i < count; i++) {
        const id = `item-${i}`;
        switch (i % 5) {
          case 0:
            items.push({ id, kind: 'user', text: `prompt ${i}` });
            break;
          case 1:
            items.push({ id, kind: 'text', text: `answer ${i} `.repeat(1 + (i % 13) * 4), streaming: false });
            break;
          case 2:
            items.push({ id, kind: 'tool', callId: `c${i}`, name: 'bash', input: { command: `echo ${i}` }, status: 'succeeded', output: `out ${i}\n`.repeat(1 + (i % 7)), truncated: false });
            break;
          case 3:
            items.push({ id, kind: 'usage', data: {}, summary: `usage ${i}` });
            break;
          default:
            items.push({ id, kind: 'notice', text: `notice ${i}`, level: 'info' });
        }
      }
      window.postMessage({ type: 'snapshot', run, items, seq: 0 }, '*');
    },
    { count, run: sampleRun() },
  );
  await harness.settle();
  await harness.settle();
  return Date.now() - started;
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
  let seq = 0;
  const add = async (from: number, n: number) => {
    const patches = Array.from({ length: n }, (_, k) => ({ op: 'add', item: { id: `new-${from + k}`, kind: 'text', text: `new item ${from + k}`, streaming: false } }));
    await harness.deliver({ type: 'patches', runKey: RUN_KEY, firstSeq: ++seq, patches });
    seq += n - 1;
  };

  before(async () => {
    harness = await openHarness({ width: 400, height: 700 });
  });
  after(async () => {
    await harness?.close();
  });

  test('100k items: bounded DOM, newest item visible at the bottom', async () => {
    const ms = await deliverBigSnapshot(harness, COUNT);
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
      await userScrollTo(harness, fraction);
      const m = await metrics(harness);
      assert.ok(m.coversTop && m.coversBottom, `viewport not covered at ${fraction}: ${JSON.stringify(m)}`);
      assert.ok(m.nodes < 3_000, `DOM has ${m.nodes} elements`);
      if (fraction === 0) {
        assert.equal(m.firstVisibleId, 'item-0');
      }
    }
  });

  test('a reloaded webview restores the reading position from setState', async () => {
    await deliverBigSnapshot(harness, 5_000);
    await userScrollTo(harness, 0.3);
    const before = await metrics(harness);
    assert.equal(before.jumpVisible, true);
    await harness.page.waitForTimeout(400); // the state write is debounced
    const state = await harness.page.evaluate(() => window.__state);
    await harness.reload(state);
    await deliverBigSnapshot(harness, 5_000);
    await harness.settle();
    const after = await metrics(harness);
    assert.equal(after.firstVisibleId, before.firstVisibleId);
    assert.ok(Math.abs((after.firstVisibleTop ?? 0) - (before.firstVisibleTop ?? 0)) <= 2);
    assert.equal(after.jumpVisible, true);
  });
});
