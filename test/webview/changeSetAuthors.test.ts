/**
 * Who changed each file of a shared tree's change set (issue #26), in the change-set view: a file another run
 * reported is labelled "by <its title>" and can be hidden with "Other runs' edits"; one nobody reported, while another
 * run worked in the folder, says "shared tree" (a guess) and is never hidden. Titles are agent text: shown as text.
 * Screenshot: test-results/webview-changeset-authors.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FileAuthor } from '../../extension/model/boardRows';
import { withAuthors } from '../../extension/ui/changeSets/changeSetWebview';
import { openChangeSetHarness, openSample, SAMPLE } from './changeSetKit';
import { ROOT } from './harness';
import type { Harness } from './harness';

const HOSTILE_TITLE = 'Fix <img src=x onerror=alert(1)> docs';

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
});
after(async () => {
  await harness?.close();
});

const texts = (selector: string) => harness.page.locator(selector).allInnerTexts();

describe('a change set with other runs\' edits', () => {
  const authors = new Map<string, FileAuthor>([
    ['src/config.ts', { kind: 'self' }],
    ['docs/new.md', { kind: 'run', runKey: 'acp::s1', title: HOSTILE_TITLE }],
    ['run.sh', { kind: 'shared' }],
  ]);
  const message = withAuthors(SAMPLE, authors);

  before(async () => {
    await openSample(harness, message);
  });

  test('the host leaves a message with only the run\'s own files as it was', () => {
    assert.equal(withAuthors(SAMPLE, new Map([['src/config.ts', { kind: 'self' }]])), SAMPLE);
  });

  test('labels: "by <run>" for another run\'s reported edit, "shared tree" for a guess, nothing for the run\'s own', async () => {
    assert.deepEqual(await texts('#cs-files .cs-file-by'), [`by ${HOSTILE_TITLE}`, 'shared tree']);
    assert.equal(await harness.page.locator('#cs-files img').count(), 0, 'the title is text, not markup');
    const newMd = harness.page.locator('#cs-files [data-file-index="1"] .cs-file-link');
    assert.match((await newMd.getAttribute('aria-label')) ?? '', /, by Fix <img src=x onerror=alert\(1\)> docs$/);
    assert.match((await harness.page.locator('#cs-files .cs-file-by-shared').getAttribute('title')) ?? '', /guess/);
    assert.equal(await harness.page.locator('#cs-others').isVisible(), true);
    assert.equal((await harness.page.locator('#cs-others').innerText()).trim(), "Other runs' edits (1)");
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await harness.page.screenshot({ path: join(ROOT, 'test-results', 'webview-changeset-authors.png') });
  });

  test('"Other runs\' edits" off hides the other run\'s files from the list and the diff, and says so; on shows them again', async () => {
    await harness.page.locator('#cs-others-toggle').uncheck();
    await harness.settle();
    assert.equal(await harness.page.locator('#cs-files .cs-file-entry').count(), 7);
    assert.deepEqual(await texts('#cs-files .cs-file-by'), ['shared tree'], 'a guess is never hidden');
    assert.ok(!(await texts('#cs-diff .cs-file-path')).includes('docs/new.md'));
    assert.match(await harness.page.locator('#cs-summary').innerText(), /^7 files changed · .* · 1 by other runs hidden$/);
    await harness.page.locator('#cs-others-toggle').check();
    await harness.settle();
    assert.equal(await harness.page.locator('#cs-files .cs-file-entry').count(), 8);
    assert.deepEqual(harness.errors, []);
    assert.deepEqual(await harness.cspViolations(), []);
  });

  test('a change set of the run\'s own files has no toggle', async () => {
    await openSample(harness);
    assert.equal(await harness.page.locator('#cs-others').isVisible(), false);
    assert.equal(await harness.page.locator('#cs-files .cs-file-by').count(), 0);
  });
});
