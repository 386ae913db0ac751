/**
 * The host puts a mention of the editor's selection into the composer (`focusComposer` with `insert`): at the caret,
 * a space before it when it would touch a word, the draft kept, and focus in the textarea.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

describe('composer insert', () => {
  let harness: Harness;
  const input = () => harness.page.locator('#composer-input');

  before(async () => {
    harness = await openHarness();
    await harness.deliver(snapshot([], sampleRun()));
  });
  after(async () => {
    await harness?.close();
  });

  test('inserts at the caret with a separating space and focuses the textarea', async () => {
    await input().fill('explain');
    await harness.deliver({ type: 'focusComposer', insert: '@src/app.ts:3-9 ' });
    assert.equal(await input().inputValue(), 'explain @src/app.ts:3-9 ');
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'composer-input');
    await harness.page.keyboard.type('please');
    assert.equal(await input().inputValue(), 'explain @src/app.ts:3-9 please', 'the caret is after the mention');
    await input().fill('');
    await harness.deliver({ type: 'focusComposer', insert: '@README.md ' });
    assert.equal(await input().inputValue(), '@README.md ', 'no space in front of an empty message');
  });
});
