/**
 * The change set in the transcript view: the file list with +/− counts and badges, the rendered diff (line numbers,
 * notes for binary and mode-only files, no-newline markers), the buttons' messages, Back/Escape, and which run's
 * change set it shows. Hostile names, a 100k-line patch and the screenshots have files of their own
 * (changeSetHostileNames, changeSetLargePatch, changeSetScreenshots).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HOSTILE_NAME } from '../unit/changeSets/samplePatch';
import { openChangeSetHarness, openSample, RUN, SAMPLE } from './changeSetKit';
import { everyKind, RUN_KEY, sampleRun, snapshot } from './fixtures';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
});
after(async () => {
  await harness?.close();
});

const texts = (selector: string) => harness.page.locator(selector).allInnerTexts();

describe('a small change set', () => {
  before(async () => {
    await openSample(harness);
  });

  test('replaces the transcript and the side panels', async () => {
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    assert.equal(await harness.page.locator('#transcript').isVisible(), false);
    assert.equal(await harness.page.locator('#run-header').isVisible(), true);
    assert.equal(await harness.page.locator('#cs-summary').innerText(), '8 files changed · +8 −6');
    assert.equal(await harness.page.locator('#change-set').getAttribute('aria-label'), 'Change set of Bump the retries');
  });

  test('file list: one entry per file with badge, name, folder and counts', async () => {
    const entries = harness.page.locator('#cs-files .cs-file-entry');
    assert.equal(await entries.count(), 8);
    assert.deepEqual(await texts('#cs-files .cs-status'), ['M', 'A', 'D', 'R', 'M', 'A', 'M', 'M']);
    assert.deepEqual(await texts('#cs-files .cs-file-name'), ['config.ts', 'new.md', 'removed.txt', 'renamed.ts', 'logo.png', 'café 🍵.txt', 'run.sh', HOSTILE_NAME]);
    const renamed = harness.page.locator('#cs-files [data-file-index="3"]');
    assert.equal(await renamed.locator('.cs-file-dir').innerText(), 'lib · from lib/ren.ts');
    assert.equal((await renamed.locator('.cs-counts').innerText()).replace(/\s+/g, ' '), '+1 −1');
    assert.equal(await harness.page.locator('#cs-files [data-file-index="4"] .cs-counts').innerText(), 'binary');
    assert.match((await renamed.locator('.cs-file-link').getAttribute('aria-label')) ?? '', /^Show in the diff: lib\/ren\.ts → lib\/renamed\.ts, renamed, 1 addition, 1 deletion$/);
  });

  test('diff: file headers, hunk headers, numbered lines, notes and no-newline markers', async () => {
    assert.equal(await harness.page.locator('#cs-diff .cs-file-row').count(), 8);
    assert.deepEqual((await texts('#cs-diff .cs-file-path')).slice(0, 6), [
      'src/config.ts',
      'docs/new.md',
      'old/removed.txt',
      'lib/ren.ts → lib/renamed.ts',
      'img/logo.png',
      'été/café 🍵.txt',
    ]);
    const firstLines = await harness.page.$$eval('#cs-diff .cs-line', (rows) =>
      rows.slice(0, 4).map((row) => [...row.querySelectorAll('.cs-ln, .cs-sign, .cs-text')].map((cell) => cell.textContent).join('|')),
    );
    assert.deepEqual(firstLines, [
      "1|1| |import { readFileSync } from 'node:fs';",
      '2||−|const retries = 3;',
      '|2|+|const retries = 5;',
      "|3|+|const html = '<script>window.__pwned = 1</script>';",
    ]);
    assert.deepEqual((await texts('#cs-diff .cs-hunk .cs-text')).slice(0, 2), ['@@ -1,4 +1,5 @@ export function loadConfig() {', '@@ -10,2 +11,2 @@ export function loadConfig() {']);
    assert.deepEqual(await texts('#cs-diff .cs-noeol .cs-text'), ['No newline at end of file', 'No newline at end of file']);
    assert.deepEqual(await texts('#cs-diff .cs-note'), ['Binary file — not shown here; open it in the diff editor.', 'File mode 100644 → 100755']);
    assert.equal(await harness.page.locator('#cs-diff .cs-add').count(), 8);
    assert.equal(await harness.page.locator('#cs-diff .cs-del').count(), 6);
  });

  test('theme colours: added and removed lines use the diff editor backgrounds', async () => {
    const colours = await harness.page.evaluate(() => ({
      add: getComputedStyle(document.querySelector('#cs-diff .cs-add') as Element).backgroundColor,
      del: getComputedStyle(document.querySelector('#cs-diff .cs-del') as Element).backgroundColor,
      font: getComputedStyle(document.querySelector('#cs-diff .cs-text') as Element).fontFamily,
    }));
    assert.equal(colours.add, 'rgba(155, 185, 85, 0.2)');
    assert.equal(colours.del, 'rgba(255, 0, 0, 0.2)');
    assert.match(colours.font, /Droid Sans Mono/);
  });

  test('"Open all changes" and "Open in diff editor" (list and diff header) post their messages', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-open-all').click();
    await harness.page.locator('#cs-files [data-file-index="3"] .cs-open-file').click();
    await harness.page.locator('#cs-diff [data-file-index="5"] .cs-open-file').click();
    assert.deepEqual(await harness.posted(), [
      { type: 'openAllChanges', runKey: RUN_KEY },
      { type: 'openChangeSetFile', runKey: RUN_KEY, fileIndex: 3 },
      { type: 'openChangeSetFile', runKey: RUN_KEY, fileIndex: 5 },
    ]);
    assert.equal(await harness.page.locator('#cs-open-all').getAttribute('aria-label'), 'Open all changes in the diff editor');
    assert.equal(await harness.page.locator('#cs-files [data-file-index="3"] .cs-open-file').getAttribute('aria-label'), 'Open lib/ren.ts → lib/renamed.ts in the diff editor');
  });

  test('keyboard: Up/Down move through the files, Enter scrolls the diff to one', async () => {
    await harness.page.locator('#cs-files [data-file-index="0"] .cs-file-link').focus();
    await harness.page.keyboard.press('ArrowDown');
    await harness.page.keyboard.press('ArrowDown');
    assert.equal(await harness.page.evaluate(() => document.activeElement?.closest('[data-file-index]')?.getAttribute('data-file-index')), '2');
    await harness.page.keyboard.press('ArrowUp');
    await harness.page.keyboard.press('Enter');
    await harness.settle();
    await harness.settle();
    const top = await harness.page.evaluate(() => {
      const scroller = document.getElementById('cs-diff') as HTMLElement;
      const header = scroller.querySelector('.cs-file-row[data-file-index="1"]') as HTMLElement;
      return header.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    });
    assert.ok(Math.abs(top) < 1, `file 1's header is ${top}px from the top`);
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'cs-diff');
  });

  test('Back returns to the transcript; the header button is focused again', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-back').click();
    await harness.settle();
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    assert.equal(await harness.page.locator('#transcript').isVisible(), true);
    assert.ok((await harness.page.locator('[data-item-id]').count()) > 0);
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'run-change-set');
    assert.deepEqual(await harness.posted(), []);
    assert.equal(await harness.page.locator('#cs-diff .cs-row').count(), 0, 'rows are dropped when closed');
  });

  test('Escape also returns to the transcript', async () => {
    await harness.deliver(SAMPLE);
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    await harness.page.keyboard.press('Escape');
    await harness.settle();
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    assert.equal(await harness.page.locator('#transcript').isVisible(), true);
  });

  test('the header button asks the host to show the change set', async () => {
    await harness.clearPosted();
    await harness.page.locator('#run-change-set').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'showChangeSet'), { type: 'showChangeSet', runKey: RUN_KEY });
  });

  test('a change set of another run is ignored; showing another run closes it', async () => {
    await harness.deliver({ ...SAMPLE, runKey: 'other::run' });
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    await harness.deliver(SAMPLE);
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    await harness.deliver(snapshot([{ id: 'u', kind: 'user', text: 'other run' }], sampleRun({ key: 'other::run' })));
    assert.equal(await harness.page.locator('#change-set').isVisible(), false);
    assert.equal(await harness.page.locator('#transcript').isVisible(), true);
  });

  test('a locally computed, empty change set', async () => {
    await harness.deliver(snapshot(everyKind(), RUN));
    await harness.deliver({ ...SAMPLE, source: 'local', files: [] });
    assert.equal(await harness.page.locator('#cs-title').innerText(), 'Change set (computed locally)');
    assert.equal(await harness.page.locator('#cs-summary').innerText(), 'No files changed');
    assert.equal(await harness.page.locator('.cs-files-section').isVisible(), false);
    await harness.page.locator('#cs-back').click();
  });
});
