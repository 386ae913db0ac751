/**
 * *Next Approval* on the run board asks the view to show one request's card (`revealApproval`): the list scrolls to
 * it and flashes it, wherever it is in a long transcript; an id the transcript does not have changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const filler = (from: number, count: number): TranscriptItem[] =>
  Array.from({ length: count }, (_, i) => ({ id: `x${from + i}`, kind: 'text', text: `Paragraph ${from + i}\n\nwith a second line`, streaming: false }));

const approval = (id: string, approvalId: string): TranscriptItem => ({
  id,
  kind: 'approval',
  approvalId,
  title: `Edit ${approvalId}`,
  detail: {},
  options: ['allow_once', 'deny'],
  status: 'pending',
  hasDiff: false,
});

describe('reveal an approval card', () => {
  let harness: Harness;

  before(async () => {
    harness = await openHarness();
    await harness.deliver(snapshot([...filler(0, 3), approval('card-early', 'ap-early'), ...filler(3, 120), approval('card-late', 'ap-late'), ...filler(123, 5)], sampleRun()));
  });
  after(async () => {
    await harness?.close();
  });

  test('scrolls the card of that request into view and flashes it', async () => {
    const early = harness.page.locator('[data-item-id="card-early"]');
    const late = harness.page.locator('[data-item-id="card-late"]');
    await harness.deliver({ type: 'revealApproval', approvalId: 'ap-late' });
    await harness.settle();
    assert.equal(await late.count(), 1, 'the late card is mounted');
    assert.ok(await harness.page.locator('[data-item-id="card-late"].flash').count(), 'and flashed');
    await harness.deliver({ type: 'revealApproval', approvalId: 'ap-early' });
    await harness.settle();
    await harness.settle();
    assert.equal(await early.count(), 1, 'the early card is mounted');
    assert.ok(await harness.page.locator('[data-item-id="card-early"].flash').count());
    assert.ok(await early.isVisible());
  });

  test('an unknown request changes nothing', async () => {
    const before = await harness.page.evaluate(() => document.getElementById('transcript')?.scrollTop ?? -1);
    await harness.deliver({ type: 'revealApproval', approvalId: 'nope' });
    await harness.settle();
    assert.equal(await harness.page.evaluate(() => document.getElementById('transcript')?.scrollTop ?? -1), before);
  });
});
