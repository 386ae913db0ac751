/**
 * The approval card in the transcript: its buttons post decide or decideRule, and the card shows what the host
 * recorded (deciding, failed, decided and by whom, expired, a rule), keeps keyboard focus, and offers no rule for a
 * protected path.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { protectedNotice, protectedPathsOf } from '../../extension/protocol/protectedPaths';
import { openEveryKindHarness } from './everyKindKit';
import { RUN_KEY } from './fixtures';
import type { Harness } from './harness';

let harness: Harness;
before(async () => {
  harness = await openEveryKindHarness();
});
after(async () => {
  await harness?.close();
});

describe('approval card decisions', () => {
  test('approval card: buttons per option post decide, then disable', async () => {
    const card = harness.page.locator('[data-item-id="a1"]');
    assert.match(await card.locator('.approval-title').innerText(), /Run shell command/);
    assert.match(await card.locator('.risk').innerText(), /high/);
    const labels = await card.locator('.approval-decide').evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim()));
    assert.deepEqual(labels, ['Allow once', 'Allow similar', 'Deny']);
    assert.equal(await card.locator('.approval-show-diff').count(), 0);
    await harness.clearPosted();
    await card.locator('[data-decision="allow_similar"]').click();
    const decide = await harness.waitForPost((m) => m.type === 'decide');
    assert.deepEqual(decide, { type: 'decide', runKey: RUN_KEY, approvalId: 'ap-1', decision: 'allow_similar' });
    // The card projects the host's lifecycle: nothing changes until the host records the choice as `deciding`.
    assert.equal(await card.locator('.approval-decide:disabled').count(), 0, 'no local "sending" state without the host');
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 1,
      patches: [{ op: 'update', id: 'a1', changes: { status: 'deciding', decision: 'allow_similar', decidedBy: 'transcript' } }],
    });
    assert.equal(await card.locator('.approval-decide:disabled').count(), 3);
    assert.match(await card.locator('.approval-outcome').innerText(), /Sending: Allowed \(and similar requests\) from the transcript/);
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 2,
      patches: [{ op: 'update', id: 'a1', changes: { status: 'failed', reason: 'socket closed' } }],
    });
    assert.equal(await card.locator('.approval-decide:disabled').count(), 0, 'a failed send offers the buttons again');
    assert.match(await card.locator('.approval-outcome').innerText(), /Not delivered: socket closed\. Still waiting/);
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 3,
      patches: [{ op: 'update', id: 'a1', changes: { status: 'pending', decision: null, decidedBy: null, reason: null } }],
    });
    assert.equal(await card.locator('.approval-outcome').count(), 0, 'null removes the old reason (no resync)');

    const decided = harness.page.locator('[data-item-id="a2"]');
    assert.equal(await decided.locator('.approval-decide:disabled').count(), 2);
    assert.match(await decided.locator('.approval-outcome').innerText(), /Allowed once/);
    await decided.locator('.approval-show-diff').click();
    const diff = await harness.waitForPost((m) => m.type === 'showDiff');
    assert.deepEqual(diff, { type: 'showDiff', runKey: RUN_KEY, approvalId: 'ap-2' });
  });

  test('approval decided from the keyboard keeps focus on the card', async () => {
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 4,
      patches: [{ op: 'add', item: { id: 'a3', kind: 'approval', approvalId: 'ap-3', title: 'Write file', detail: null, options: ['allow_once', 'deny'], status: 'pending', hasDiff: false } }],
    });
    await harness.clearPosted();
    await harness.page.locator('[data-item-id="a3"] [data-decision="deny"]').focus();
    await harness.page.keyboard.press('Enter');
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'decide'), { type: 'decide', runKey: RUN_KEY, approvalId: 'ap-3', decision: 'deny' });
    assert.equal(await harness.page.evaluate(() => document.activeElement?.getAttribute('data-item-id')), 'a3');
  });

  test('approval update patch shows the decision and who made it; expiry says why', async () => {
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 5,
      patches: [
        { op: 'update', id: 'a1', changes: { status: 'decided', decision: 'deny', decidedBy: 'notification' } },
        { op: 'update', id: 'a3', changes: { status: 'expired', reason: 'The run ended before a decision was made.' } },
      ],
    });
    const card = harness.page.locator('[data-item-id="a1"]');
    assert.match(await card.locator('.approval-outcome').innerText(), /Denied from the notification/);
    assert.equal(await card.locator('.approval-decide:disabled').count(), 3);
    const expired = harness.page.locator('[data-item-id="a3"]');
    assert.match(await expired.locator('.approval-outcome').innerText(), /Expired without a decision: The run ended before a decision was made\./);
    assert.equal(await expired.locator('.approval-decide:disabled').count(), 2);
  });

  test('approval card with a subject: rule buttons post decideRule; the outcome names the rule', async () => {
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 7,
      patches: [
        {
          op: 'add',
          item: {
            id: 'a4',
            kind: 'approval',
            approvalId: 'ap-4',
            title: 'Edit',
            detail: { file_path: 'src/a.ts' },
            options: ['allow_once', 'allow_similar', 'deny'],
            status: 'pending',
            hasDiff: false,
            subject: { tool: 'Edit', paths: ['src/a.ts'], complete: true },
            ruleNote: 'AgencyProxy 0.3 treats Allow similar as once; the rule in the editor answers the rest.',
          },
        },
      ],
    });
    const card = harness.page.locator('[data-item-id="a4"]');
    await harness.settle();
    await card.locator('[data-rule="allow:run"]').waitFor();
    const labels = await card.locator('.approval-actions button').evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim()));
    assert.deepEqual(labels, ['Allow once', 'Allow similar for this run', 'Allow similar for this connection', 'Deny', 'More…']);
    assert.match(await card.locator('.approval-rule-note').innerText(), /treats Allow similar as once/);
    await harness.clearPosted();
    await card.locator('[data-rule="allow:run"]').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'decideRule'), { type: 'decideRule', runKey: RUN_KEY, approvalId: 'ap-4', effect: 'allow', scope: 'run' });
    await harness.clearPosted();
    await card.locator('[data-rule="more"]').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'decideRule'), { type: 'decideRule', runKey: RUN_KEY, approvalId: 'ap-4', effect: 'allow', scope: 'more' });
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 8,
      patches: [{ op: 'update', id: 'a4', changes: { status: 'decided', decision: 'allow_once', decidedBy: 'rule', decidedByRule: 'Allow Edit on files matching src/**' } }],
    });
    assert.match(await card.locator('.approval-outcome').innerText(), /Allowed once by the approval rule "Allow Edit on files matching src\/\*\*"/);
    assert.equal(await card.locator('.approval-rule:disabled').count(), 3, 'the rule buttons are settled too');
    assert.equal(await card.locator('.approval-rule-note').count(), 0);
  });

  test('approval card naming a protected path: no rule buttons, no agent "always allow", a note saying why', async () => {
    await harness.deliver({
      type: 'patches',
      runKey: RUN_KEY,
      firstSeq: 9,
      patches: [
        {
          op: 'add',
          item: {
            id: 'a5',
            kind: 'approval',
            approvalId: 'ap-5',
            title: 'Edit .vscode/settings.json',
            detail: { path: '/ws/.vscode/settings.json' },
            options: ['allow_once', 'allow_similar', 'deny', 'deny_always'],
            status: 'pending',
            hasDiff: false,
            subject: { tool: 'edit', paths: ['/ws/.vscode/settings.json'], complete: true },
            // What the host's reducer puts on the item (model/approvalLifecycle.ts).
            protectedNotice: protectedNotice(protectedPathsOf(['/ws/.vscode/settings.json'])),
          },
        },
      ],
    });
    const card = harness.page.locator('[data-item-id="a5"]');
    await harness.settle();
    await card.locator('.approval-protected-note').waitFor();
    const labels = await card.locator('.approval-actions button').evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim()));
    assert.deepEqual(labels, ['Allow once', 'Deny', 'Deny similar']);
    assert.equal(await card.locator('[data-rule]').count(), 0);
    assert.match(await card.locator('.approval-protected-note').innerText(), /Protected: \/ws\/\.vscode\/settings\.json: it is in the workspace's \.vscode folder.*No approval rule answers this/s);
  });
});
