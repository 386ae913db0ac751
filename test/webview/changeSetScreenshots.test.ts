/**
 * Screenshots of the change set view in the dark theme for a human to look at (test-results/webview-changeset.png
 * and webview-changeset-narrow.png), and the narrow sidebar's sideways scrolling.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openChangeSetHarness, openSample } from './changeSetKit';
import { ROOT } from './harness';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
});
after(async () => {
  await harness?.close();
});

describe('screenshots', () => {
  test('dark theme change set', async () => {
    await harness.page.setViewportSize({ width: 480, height: 900 });
    await openSample(harness);
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.screenshot({ path: join(dir, 'webview-changeset.png') });
    assert.deepEqual(harness.errors, []);
    assert.deepEqual(await harness.cspViolations(), []);
  });

  test('narrow sidebar: lines scroll sideways, line numbers stay', async () => {
    await harness.page.setViewportSize({ width: 260, height: 700 });
    await harness.settle();
    await harness.settle();
    const overflow = await harness.page.evaluate(() => {
      const diff = document.getElementById('cs-diff') as HTMLElement;
      diff.scrollLeft = 120;
      return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, diff: diff.scrollWidth - diff.clientWidth };
    });
    await harness.settle();
    assert.equal(overflow.page, 0, 'the page itself must not scroll sideways');
    assert.ok(overflow.diff > 0, 'long lines scroll inside the diff');
    const gutterLeft = await harness.page.evaluate(() => {
      const diff = document.getElementById('cs-diff') as HTMLElement;
      return (diff.querySelector('.cs-line .cs-gutter') as HTMLElement).getBoundingClientRect().left - diff.getBoundingClientRect().left;
    });
    assert.ok(Math.abs(gutterLeft) < 1, `gutter at ${gutterLeft}px`);
    await harness.page.screenshot({ path: join(ROOT, 'test-results', 'webview-changeset-narrow.png') });
  });
});
