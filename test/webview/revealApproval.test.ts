/**
 * *Next Approval* on the run board, and the header's pending-approval button, show one request's card: the host
 * says where it is (`revealItem`, from `locateApproval` / `locate`), the list scrolls there — loading that part of a
 * long transcript if the view does not hold it — and flashes it; an index for another run changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { locateApproval } from '../../extension/model/transcriptWindow';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { FakeHost } from './fakeHost';
import { RUN_KEY, sampleRun } from './fixtures';
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
  let host: FakeHost;
  /** What the surface's `revealApproval` posts for this request. */
  const reveal = async (approvalId: string): Promise<void> => {
    const at = locateApproval(host.transcript, approvalId);
    assert.ok(at, approvalId);
    await harness.deliver({ type: 'revealItem', runKey: RUN_KEY, index: at.index, id: at.id });
    for (let i = 0; i < 5; i++) {
      await host.idle();
      await harness.settle();
    }
  };

  before(async () => {
    harness = await openHarness();
    // Longer than one snapshot window: the early card is not in the view until it is revealed.
    host = new FakeHost(harness, sampleRun(), [...filler(0, 3), approval('card-early', 'ap-early'), ...filler(3, 400), approval('card-late', 'ap-late'), ...filler(403, 5)]);
    await host.sendSnapshot();
  });
  after(async () => {
    await harness?.close();
  });

  test('scrolls the card of that request into view and flashes it', async () => {
    const early = harness.page.locator('[data-item-id="card-early"]');
    const late = harness.page.locator('[data-item-id="card-late"]');
    await reveal('ap-late');
    assert.equal(await late.count(), 1, 'the late card is mounted');
    assert.ok(await harness.page.locator('[data-item-id="card-late"].flash').count(), 'and flashed');
    await reveal('ap-early');
    assert.equal(await early.count(), 1, 'the early card is mounted');
    assert.ok(await harness.page.locator('[data-item-id="card-early"].flash').count());
    assert.ok(await early.isVisible());
  });

  test('the header button asks the host for the first waiting request and shows it', async () => {
    await harness.clearPosted();
    await reveal('ap-late'); // far from the early card
    await harness.page.locator('#run-approvals').click();
    const asked = await harness.waitForPost((m) => m.type === 'locate');
    assert.deepEqual(asked, { type: 'locate', runKey: RUN_KEY, target: { kind: 'pendingApproval' } });
    for (let i = 0; i < 5; i++) {
      await host.idle();
      await harness.settle();
    }
    assert.ok(await harness.page.locator('[data-item-id="card-early"]').isVisible(), 'the oldest waiting card is shown');
  });

  test('a reveal for another run changes nothing', async () => {
    // The early card out of view first (the late one shown, 400 paragraphs away), so a reveal that wrongly took
    // effect would move the list.
    await reveal('ap-late');
    const early = harness.page.locator('[data-item-id="card-early"]');
    assert.equal(await early.isVisible(), false, 'the early card is out of view before the reveal');
    const scrollTop = (): Promise<number> => harness.page.evaluate(() => document.getElementById('transcript')?.scrollTop ?? -1);
    const before = await scrollTop();
    const at = locateApproval(host.transcript, 'ap-early');
    assert.ok(at);
    await harness.deliver({ type: 'revealItem', runKey: 'scv:local:other', index: at.index, id: at.id });
    for (let i = 0; i < 5; i++) {
      await host.idle();
      await harness.settle();
    }
    assert.equal(await scrollTop(), before, 'the list did not move');
    assert.equal(await early.isVisible(), false, 'the early card is still out of view');
  });
});
