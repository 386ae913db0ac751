/**
 * Notes to the agent in the change-set view (issue #26): selecting lines of a hunk by their numbers (click,
 * Shift+click) and from the keyboard (↑/↓, Shift+↑/↓, Enter, Escape), the inline editor (Ctrl+Enter saves, Escape
 * cancels), the notes the host sends shown under their lines (escaped), Edit and Delete, and the notes bar's Send
 * and Discard — each as the message the host gets.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ReviewNote } from '../../extension/protocol/webviewMessages';
import { openChangeSetHarness, openSample } from './changeSetKit';
import { RUN_KEY } from './fixtures';
import type { Harness } from './harness';
import { ROOT } from './harness';

let harness: Harness;
before(async () => {
  harness = await openChangeSetHarness();
  await openSample(harness);
});
after(async () => {
  await harness?.close();
});

/** The gutter of the first line whose numbers are `old` and `new` ('' where it has none). */
async function gutter(old: string, new_: string) {
  const row = await harness.page.$$eval(
    '#cs-diff .cs-line[data-row]',
    (lines, [o, n]) => lines.find((l) => [...l.querySelectorAll('.cs-ln')].map((c) => c.textContent).join('|') === `${o}|${n}`)?.getAttribute('data-row'),
    [old, new_],
  );
  assert.ok(row, `a line numbered ${old}|${new_}`);
  return harness.page.locator(`#cs-diff .cs-line[data-row="${row}"] .cs-gutter`);
}
const selectedTexts = () => harness.page.locator('#cs-diff .cs-line.cs-selected .cs-text').allInnerTexts();
const status = () => harness.page.locator('#cs-notes-status').innerText();
const activeClass = () => harness.page.evaluate(() => document.activeElement?.className ?? '');

const NOTE: ReviewNote = {
  id: 'n1',
  path: 'src/config.ts',
  startLine: 2,
  endLine: 3,
  quote: ['+const retries = 5;', "+const html = '<script>window.__pwned = 1</script>';"],
  text: 'Keep 3 retries <b>please</b>',
};

describe('notes to the agent', () => {
  test('click a line number, Shift+click another: the lines between are selected, within the hunk', async () => {
    await (await gutter('', '2')).click(); // the added line 2 (new side)
    await (await gutter('', '3')).click({ modifiers: ['Shift'] });
    await harness.settle();
    assert.deepEqual(await selectedTexts(), ['const retries = 5;', "const html = '<script>window.__pwned = 1</script>';"]);
    assert.equal(await status(), '2 lines selected (src/config.ts:2-3)');
    assert.equal(await harness.page.locator('#cs-add-note').isVisible(), true);
    assert.equal(await harness.page.locator('#cs-send-notes').isVisible(), false, 'no notes yet: nothing to send');
  });

  test('Add note opens the editor under the lines; Ctrl+Enter posts the note with its place and quoted lines', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-add-note').click();
    await harness.settle();
    const input = harness.page.locator('.cs-note-editor textarea');
    await input.waitFor();
    assert.equal(await input.getAttribute('aria-label'), 'Note for the agent on src/config.ts:2-3');
    await harness.page.waitForFunction(() => document.activeElement?.classList.contains('cs-note-input'));
    await harness.page.keyboard.type(NOTE.text);
    await harness.page.keyboard.press('Control+Enter');
    const posted = await harness.waitForPost((m) => m.type === 'noteAdd');
    assert.deepEqual(posted, {
      type: 'noteAdd',
      runKey: RUN_KEY,
      anchor: { path: NOTE.path, startLine: 2, endLine: 3, quote: NOTE.quote },
      text: NOTE.text,
    });
    await harness.settle();
    assert.equal(await harness.page.locator('.cs-note-editor').count(), 0, 'the editor closed');
    assert.deepEqual(await selectedTexts(), [], 'the selection went with it');
  });

  test('the notes the host sends show under their last line, escaped; the bar counts them', async () => {
    await harness.deliver({ type: 'reviewNotes', runKey: RUN_KEY, notes: [NOTE] });
    await harness.settle();
    const card = harness.page.locator('.cs-note-card[data-note-id="n1"]');
    assert.equal(await card.locator('.cs-note-place').innerText(), 'src/config.ts:2-3');
    assert.equal(await card.locator('.cs-note-body').innerText(), 'Keep 3 retries <b>please</b>');
    assert.equal(await card.locator('b').count(), 0, 'the note is text, never markup');
    const above = await card.evaluate((el) => el.parentElement?.querySelector('.cs-line .cs-text')?.textContent);
    assert.equal(above, "const html = '<script>window.__pwned = 1</script>';", 'under the note\u2019s last line');
    assert.equal(await status(), '1 note');
    assert.equal(await harness.page.locator('#cs-send-notes').isVisible(), true);
    assert.equal(await harness.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    // With a selection below it, for the picture: a note, selected lines and the bar.
    await (await gutter('3', '4')).click();
    await (await gutter('4', '5')).click({ modifiers: ['Shift'] });
    await harness.settle();
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.screenshot({ path: join(dir, 'webview-changeset-notes.png') });
    await harness.page.keyboard.press('Escape');
  });

  test('Edit opens the note in the editor; Save posts the new text; Delete posts the removal', async () => {
    await harness.clearPosted();
    await harness.page.locator('.cs-note-card[data-note-id="n1"] .cs-note-edit').click();
    await harness.settle();
    const input = harness.page.locator('.cs-note-editor textarea');
    assert.equal(await input.inputValue(), NOTE.text);
    await input.fill('Use 4 retries');
    await harness.page.locator('.cs-note-editor .cs-note-save').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'noteEdit'), { type: 'noteEdit', runKey: RUN_KEY, noteId: 'n1', text: 'Use 4 retries' });
    await harness.deliver({ type: 'reviewNotes', runKey: RUN_KEY, notes: [{ ...NOTE, text: 'Use 4 retries' }] });
    await harness.settle();
    assert.equal(await harness.page.locator('.cs-note-card[data-note-id="n1"] .cs-note-body').innerText(), 'Use 4 retries');
    await harness.page.locator('.cs-note-card[data-note-id="n1"] .cs-note-delete').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'noteRemove'), { type: 'noteRemove', runKey: RUN_KEY, noteId: 'n1' });
  });

  test('Send notes and Discard on the bar post their requests', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-send-notes').click();
    await harness.page.locator('#cs-discard-notes').click();
    assert.deepEqual(await harness.posted(), [
      { type: 'notesSend', runKey: RUN_KEY },
      { type: 'notesDiscard', runKey: RUN_KEY },
    ]);
    await harness.deliver({ type: 'reviewNotes', runKey: RUN_KEY, notes: [] });
    await harness.settle();
    assert.equal(await harness.page.locator('.cs-note-card').count(), 0);
    assert.equal(await harness.page.locator('#cs-send-notes').isVisible(), false);
  });

  test('keyboard: ↓ selects a line, Shift+↓ extends (not past the hunk), Enter opens the editor, Escape cancels, then clears', async () => {
    await harness.clearPosted();
    await harness.page.locator('#cs-diff').evaluate((el) => el.scrollTo(0, 0));
    await harness.settle();
    await harness.page.locator('#cs-diff').focus();
    await harness.page.keyboard.press('ArrowDown');
    await harness.settle();
    assert.deepEqual(await selectedTexts(), ["import { readFileSync } from 'node:fs';"]);
    await harness.page.keyboard.press('Shift+ArrowDown');
    await harness.page.keyboard.press('Shift+ArrowDown');
    await harness.settle();
    assert.equal(await status(), '3 lines selected (src/config.ts:1-2)', 'an unchanged, a removed and an added line');
    for (let i = 0; i < 8; i++) {
      await harness.page.keyboard.press('Shift+ArrowDown');
    }
    await harness.settle();
    assert.equal((await selectedTexts()).length, 6, 'the six lines of the first hunk, no more');
    await harness.page.keyboard.press('Enter');
    await harness.page.waitForFunction(() => document.activeElement?.classList.contains('cs-note-input'));
    await harness.page.keyboard.type('draft');
    await harness.page.keyboard.press('Escape');
    await harness.settle();
    assert.equal(await harness.page.locator('.cs-note-editor').count(), 0, 'Escape closed the editor');
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'cs-diff', 'focus back on the diff');
    assert.equal(await harness.page.locator('#change-set').isVisible(), true, 'and not the change set');
    await harness.page.keyboard.press('Escape');
    await harness.settle();
    assert.deepEqual(await selectedTexts(), [], 'the second Escape cleared the selection');
    assert.equal(await harness.page.locator('#change-set').isVisible(), true);
    assert.deepEqual((await harness.posted()).filter((m) => m.type.startsWith('note')), [], 'nothing was saved');
    assert.ok(!(await activeClass()).includes('cs-note-input'));
  });

  test('removed lines alone are anchored at the new-side line after them', async () => {
    await (await gutter('11', '')).click(); // `-export const version = 1;` (old line 11) in the second hunk
    await harness.settle();
    assert.deepEqual(await selectedTexts(), ['export const version = 1;']);
    assert.equal(await status(), '1 line selected (src/config.ts:12)');
    await harness.page.keyboard.press('Escape');
  });
});
