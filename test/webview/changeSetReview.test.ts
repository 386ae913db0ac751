/**
 * Review marks in the change-set view (issue #26): every hunk header and file header has a *Reviewed* checkbox, the
 * toolbar says "N of M hunks reviewed", a toggle posts `setReviewed` with the review keys of what it stands for and
 * the host's `reviewMarks` answer updates the rows in place (focus stays where the keyboard is), a file whose marks
 * the agent's later edits dropped says so, edits on disk (a local change set) offer Undo per hunk and per file, and a
 * refresh of another run's change set is ignored. A daemon's change set without marks shows none of it (the other
 * change-set tests).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseGitPatch } from '../../extension/changeSets/patchParser';
import { NO_MARKS, reviewProgress, reviewUnitsOf } from '../../extension/changeSets/reviewState';
import type { ChangeSetMessage, ChangeSetReview, WebviewToHost } from '../../extension/protocol/webviewMessages';
import { changeSetMessage, reviewView } from '../../extension/ui/changeSets/changeSetWebview';
import { SAMPLE_PATCH } from '../unit/changeSets/samplePatch';
import { openChangeSetHarness, openSample, RUN } from './changeSetKit';
import { RUN_KEY } from './fixtures';
import type { Harness } from './harness';

const FILES = parseGitPatch(SAMPLE_PATCH).files;
const UNITS = reviewUnitsOf(FILES);
const NONE: ChangeSetReview = reviewView(reviewProgress(NO_MARKS, UNITS));
const LOCAL: ChangeSetMessage = changeSetMessage(RUN, { source: 'local' }, FILES, undefined, NONE);

/** The review payload with `reviewed` units ([file, unit]) marked and `dropped` marks per file. */
function review(reviewed: readonly [number, number][], dropped: Readonly<Record<number, number>> = {}): ChangeSetReview {
  return {
    files: NONE.files.map((file, f) => ({ reviewed: file.reviewed.map((_, u) => reviewed.some(([rf, ru]) => rf === f && ru === u)), dropped: dropped[f] ?? 0 })),
  };
}

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
});
after(async () => {
  await harness?.close();
});

const hunkBox = (file: number, hunk: number) => harness.page.locator(`#cs-diff input.cs-reviewed-box[data-file="${file}"][data-hunk="${hunk}"]`);
const fileBox = (file: number) => harness.page.locator(`#cs-diff .cs-file-row[data-file-index="${file}"] input.cs-reviewed-box`);
const summary = () => harness.page.locator('#cs-review-summary').innerText();

describe('review marks of a local change set', () => {
  before(async () => {
    await openSample(harness, LOCAL);
  });

  test('every hunk and every file has a Reviewed checkbox; the summary counts the units', async () => {
    assert.equal(await summary(), '0 of 9 hunks reviewed');
    assert.equal(await hunkBox(0, 0).getAttribute('aria-label'), 'Reviewed: hunk 1 of 2 in src/config.ts');
    assert.equal(await hunkBox(0, 1).isChecked(), false);
    assert.equal(await fileBox(0).getAttribute('aria-label'), 'Reviewed: every hunk of src/config.ts');
    // A binary file and a mode-only change have no hunks: the file's checkbox is their one unit.
    assert.equal(await fileBox(4).count(), 1);
    assert.equal(await harness.page.locator('#cs-diff input.cs-reviewed-box[data-file="4"][data-hunk]').count(), 0);
  });

  test('a hunk toggle posts its key; the host’s answer checks it and makes the file mixed', async () => {
    await harness.clearPosted();
    await hunkBox(0, 1).click();
    const posted = await harness.waitForPost((m) => m.type === 'setReviewed');
    assert.deepEqual(posted, { type: 'setReviewed', runKey: RUN_KEY, fileIndex: 0, keys: [UNITS[0]![1]!.key], reviewed: true });
    await harness.deliver({ type: 'reviewMarks', runKey: RUN_KEY, review: review([[0, 1]]) });
    await harness.settle();
    assert.equal(await summary(), '1 of 9 hunks reviewed');
    assert.equal(await hunkBox(0, 1).isChecked(), true);
    assert.equal(await hunkBox(0, 0).isChecked(), false);
    assert.equal(await fileBox(0).evaluate((el) => (el as HTMLInputElement).indeterminate), true, 'some of the file: mixed');
    assert.equal(await harness.page.locator('#cs-diff .cs-hunk.cs-reviewed-row').count(), 1);
  });

  test('keyboard: Space on a focused file checkbox posts every key of the file; focus stays through the update', async () => {
    await harness.clearPosted();
    await fileBox(0).focus();
    await harness.page.keyboard.press('Space');
    const posted = await harness.waitForPost((m) => m.type === 'setReviewed');
    assert.deepEqual(posted, { type: 'setReviewed', runKey: RUN_KEY, fileIndex: 0, keys: UNITS[0]!.map((u) => u.key), reviewed: true });
    await harness.deliver({ type: 'reviewMarks', runKey: RUN_KEY, review: review([[0, 0], [0, 1]]) });
    await harness.settle();
    assert.equal(await summary(), '2 of 9 hunks reviewed');
    assert.equal(await fileBox(0).isChecked(), true);
    assert.equal(await fileBox(0).evaluate((el) => el === document.activeElement), true, 'the checkbox keeps the focus');
    // Tab goes on to the file's Undo, then to its diff button.
    await harness.page.keyboard.press('Tab');
    assert.equal(await harness.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), "Undo the agent's changes to src/config.ts (written back to the file; undoable)");
  });

  test('Undo on a hunk and on a file post what they stand for; only files edited in place have per-hunk Undo', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-diff .cs-hunk').nth(1).locator('.cs-undo').click();
    await harness.page.locator('#cs-diff .cs-file-row[data-file-index="1"] .cs-undo').click();
    const posts = (await harness.posted()).filter((m): m is Extract<WebviewToHost, { type: 'undoChange' }> => m.type === 'undoChange');
    assert.deepEqual(posts, [
      { type: 'undoChange', runKey: RUN_KEY, fileIndex: 0, hunkIndex: 1, keys: [UNITS[0]![1]!.key] },
      { type: 'undoChange', runKey: RUN_KEY, fileIndex: 1, keys: [UNITS[1]![0]!.key] },
    ]);
    // docs/new.md is added: undone as a whole, no Undo on its hunk.
    assert.equal(await harness.page.locator('#cs-diff .cs-hunk').nth(2).locator('.cs-undo').count(), 0);
  });

  test('a file whose marks the agent’s later edits dropped says so', async () => {
    await harness.deliver({ type: 'reviewMarks', runKey: RUN_KEY, review: review([[0, 0]], { 0: 1 }) });
    await harness.settle();
    const note = harness.page.locator('#cs-diff .cs-file-row[data-file-index="0"] .cs-review-dropped');
    assert.equal(await note.innerText(), '1 review mark dropped: a hunk changed or undone after your review');
    assert.equal(await note.getAttribute('role'), 'note');
    assert.equal(await summary(), '1 of 9 hunks reviewed');
  });

  test('marks of another run, and a refresh of another run’s change set, change nothing', async () => {
    await harness.deliver({ type: 'reviewMarks', runKey: 'scv:local:other', review: review([]) });
    await harness.deliver({ ...LOCAL, runKey: 'scv:local:other', refresh: true });
    await harness.settle();
    assert.equal(await summary(), '1 of 9 hunks reviewed');
    // A refresh of the shown one replaces it (after an Undo: one file fewer).
    const rest = FILES.slice(1);
    await harness.deliver({ ...changeSetMessage(RUN, { source: 'local' }, rest, undefined, reviewView(reviewProgress(NO_MARKS, reviewUnitsOf(rest)))), refresh: true });
    await harness.settle();
    assert.equal(await summary(), '0 of 7 hunks reviewed');
    assert.deepEqual(harness.errors, []);
  });
});

describe('a change set the view was sent without marks', () => {
  test('has no review controls and no summary', async () => {
    await openSample(harness);
    assert.equal(await harness.page.locator('#cs-diff .cs-review-controls').count(), 0);
    assert.equal(await harness.page.locator('#cs-review-summary').isVisible(), false);
  });
});
