/** Hostile file names and diff lines in the change set view are kept as text: shown literally, never run. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HOSTILE_NAME } from '../unit/changeSets/samplePatch';
import { openChangeSetHarness, openSample, SAMPLE } from './changeSetKit';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
});
after(async () => {
  await harness?.close();
});

const texts = (selector: string) => harness.page.locator(selector).allInnerTexts();

describe('hostile file names and lines', () => {
  let dialogs = 0;
  before(async () => {
    harness.page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const hostile = { ...SAMPLE, title: '<img src=x onerror=window.__pwned=9>' };
    await openSample(harness, hostile);
    await harness.page.locator('#cs-files [data-file-index="7"] .cs-file-link').hover();
    await harness.page.locator('#cs-files [data-file-index="7"] .cs-file-link').click();
    await harness.settle();
    await harness.page.locator('#cs-diff .cs-file-row[data-file-index="7"] .cs-file-path').hover();
    await harness.page.waitForTimeout(300); // give any (wrongly) injected handler a chance to fire
  });

  test('are shown literally', async () => {
    assert.equal(await harness.page.locator('#cs-files [data-file-index="7"] .cs-file-name').innerText(), HOSTILE_NAME);
    assert.equal(await harness.page.locator('#cs-diff .cs-file-row[data-file-index="7"] .cs-file-path').innerText(), HOSTILE_NAME);
    const lines = await texts('#cs-diff .cs-file-row[data-file-index="7"] ~ .cs-line .cs-text');
    assert.deepEqual(lines, ['<script>window.__pwned = 4</script>', '<b onmouseover="window.__pwned = 5">bold</b>']);
  });

  test('never execute, add elements or trip the CSP', async () => {
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
    assert.equal(dialogs, 0);
    assert.deepEqual(await harness.cspViolations(), []);
    assert.deepEqual(harness.errors, []);
    const report = await harness.page.evaluate(() => {
      const all = [...document.querySelectorAll('#change-set *')];
      return {
        foreign: all.filter((el) => ['IMG', 'SCRIPT', 'B', 'SVG', 'IFRAME', 'A'].includes(el.tagName.toUpperCase())).length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
        scripts: document.querySelectorAll('script').length,
      };
    });
    assert.deepEqual(report, { foreign: 0, handlers: [], scripts: 1 });
  });
});
