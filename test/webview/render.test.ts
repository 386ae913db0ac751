/**
 * Every item kind renders, with its controls posting the right messages; then a screenshot of a representative
 * transcript in the dark theme (test-results/webview-transcript.png) for a human to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { protectedNotice, protectedPathsOf } from '../../extension/protocol/protectedPaths';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { openHarness, ROOT } from './harness';
import type { Harness } from './harness';
import { FakeHost } from './fakeHost';
import { everyKind, RUN_KEY, sampleRun, snapshot } from './fixtures';

let harness: Harness;
before(async () => {
  harness = await openHarness({ height: 4000 });
});
after(async () => {
  await harness?.close();
});

describe('transcript rendering', () => {
  before(async () => {
    await harness.deliver(snapshot(everyKind()));
  });

  const text = (selector: string) => harness.page.locator(selector).first().innerText();

  test('posts ready once and shows the header', async () => {
    const posted = await harness.posted();
    assert.equal(posted.filter((m) => m.type === 'ready').length, 1);
    assert.equal(await text('#run-title'), 'Refactor the config loader');
    assert.match(await text('#run-state'), /Running/);
    assert.match(await text('#run-model'), /anthropic \/ claude-sonnet-4/);
    assert.equal((await text('#run-approvals')).trim(), '1');
  });

  test('renders one row per item, of every kind', async () => {
    const kinds = await harness.page.$$eval('[data-item-id]', (rows) => rows.map((row) => row.getAttribute('data-kind')));
    const expected = everyKind().map((item) => item.kind);
    assert.deepEqual(kinds, expected);
  });

  test('user prompt is plain text with its line breaks', async () => {
    assert.equal(await text('[data-item-id="u1"] .user-text'), 'Please refactor loadConfig()\nand add tests.');
  });

  test('assistant text is markdown: lists, code block with copy, table, links', async () => {
    const row = harness.page.locator('[data-item-id="t1"]');
    assert.equal(await row.locator('li').count(), 2);
    assert.match(await row.locator('.code-block code').innerText(), /export function loadConfig/);
    assert.equal(await row.locator('.code-lang').innerText(), 'ts');
    assert.equal(await row.locator('td.align-right').innerText(), '3');
    const hrefs = await row.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, ['https://example.com/docs', 'https://example.org/faq']);

    await harness.clearPosted();
    await row.locator('.code-copy').click();
    const copy = await harness.waitForPost((m) => m.type === 'copy');
    assert.equal(copy.type === 'copy' && copy.text, 'export function loadConfig(path: string) {\n  return JSON.parse(readFileSync(path, "utf8"));\n}');
  });

  test('links never navigate; clicking posts openLink', async () => {
    await harness.clearPosted();
    const url = harness.page.url();
    await harness.page.locator('[data-item-id="t1"] a').first().click();
    const open = await harness.waitForPost((m) => m.type === 'openLink');
    assert.deepEqual(open, { type: 'openLink', href: 'https://example.com/docs' });
    assert.equal(harness.page.url(), url);
  });

  test('reasoning is collapsed by default and expands', async () => {
    const details = harness.page.locator('[data-item-id="r1"] details');
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await details.locator('summary').click();
    await harness.settle();
    assert.match(await details.innerText(), /three/);
  });

  test('tool calls: name, input JSON, status, folded output with Show all, errorKind, truncated, progress', async () => {
    const tool = harness.page.locator('[data-item-id="tool1"]');
    assert.equal(await tool.locator('.tool-name').innerText(), 'bash');
    assert.equal(await tool.locator('.tool-status').getAttribute('aria-label'), 'Succeeded');
    const inputJson = await tool.locator('.tool-input pre').textContent();
    assert.deepEqual(JSON.parse(inputJson ?? ''), { command: 'npm test -- --grep config', timeout: 120 });
    assert.equal((await tool.locator('.tool-output').textContent())?.split('\n').length, 20);
    const showAll = tool.locator('.tool-show-all');
    assert.match(await showAll.innerText(), /Show all \(45 lines\)/);
    await showAll.click();
    await harness.settle();
    assert.equal((await tool.locator('.tool-output').textContent())?.split('\n').length, 45);

    const failed = harness.page.locator('[data-item-id="tool2"]');
    assert.equal(await failed.locator('.tool-status').getAttribute('aria-label'), 'Failed');
    assert.equal(await failed.locator('.tool-error-kind').innerText(), 'patch_conflict');
    assert.equal(await failed.locator('.tool-truncated').count(), 1);
    const running = harness.page.locator('[data-item-id="tool3"]');
    assert.match(await running.locator('.tool-progress').innerText(), /12\/40 tests/);
    assert.ok(await running.locator('.tool-status.codicon-modifier-spin').count());
  });

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

  test('compact lines: usage, rate limit, compaction, error, notice, gap, turn', async () => {
    assert.match(await text('[data-item-id="usage1"]'), /1\.2k in · 350 out tokens/);
    assert.match(await text('[data-item-id="rl1"]'), /10 requests left/);
    assert.match(await text('[data-item-id="cmp1"]'), /compacted/);
    assert.match(await text('[data-item-id="e1"]'), /529.*overloaded/s);
    assert.match(await text('[data-item-id="n2"]'), /Older events were dropped/);
    assert.match(await text('[data-item-id="g1"]'), /17 events lost \(41–57\): retention/);
    assert.match(await text('[data-item-id="turn1-end"]'), /Turn completed · 3 files changed/);
  });

  test('hive messages: sender, time, markdown body, reply link reveals the original', async () => {
    const reply = harness.page.locator('[data-item-id="m2"]');
    assert.equal(await reply.locator('.message-from').innerText(), 'operator');
    assert.equal(await reply.locator('time').getAttribute('datetime'), '2025-01-02T10:31:00.000Z');
    assert.equal(await harness.page.locator('[data-item-id="m1"] .message-body strong').innerText(), 'empty');
    // The view asks the host where the original is (it may be outside the loaded window); the host answers.
    const host = new FakeHost(harness, sampleRun(), everyKind());
    try {
      await reply.locator('.message-reply').click();
      await harness.waitForPost((m) => m.type === 'locate');
      await host.idle();
      await harness.settle();
      await harness.settle();
      assert.ok(await harness.page.locator('[data-item-id="m1"].flash').count());
    } finally {
      host.close();
    }
  });

  test('raw items are pretty JSON', async () => {
    const json = await harness.page.locator('[data-item-id="raw1"] pre').textContent();
    assert.deepEqual(JSON.parse(json ?? ''), { type: 'x.y', payload: { a: 1 } });
  });

  test('header change set button and pending approvals', async () => {
    await harness.clearPosted();
    await harness.page.locator('#run-change-set').click();
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'showChangeSet'), { type: 'showChangeSet', runKey: RUN_KEY });
    await harness.deliver({ type: 'run', run: sampleRun({ state: 'completed', pendingApprovals: 0, actions: { send: false, queues: false, stop: false, end: false, changeSet: false } }) });
    assert.match(await text('#run-state'), /Completed/);
    assert.equal(await harness.page.locator('#run-approvals').count(), 0);
    assert.equal(await harness.page.locator('#composer').isHidden(), true);
  });

  test('toast and focusComposer', async () => {
    await harness.deliver({ type: 'run', run: sampleRun() });
    await harness.deliver({ type: 'toast', level: 'error', text: 'Send refused: run is busy' });
    assert.match(await text('#toasts .toast-error'), /Send refused/);
    await harness.deliver({ type: 'focusComposer' });
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'composer-input');
  });

  test('invalid host messages are dropped without breaking the view', async () => {
    await harness.deliver({ type: 'snapshot', run: null, items: 'nope', seq: 0 });
    await harness.deliver({ type: 'unknown' });
    assert.equal(await text('#run-title'), 'Refactor the config loader');
  });

  test('empty state when no run is selected', async () => {
    await harness.deliver(snapshot([], null));
    assert.match(await text('#empty-state'), /No run selected — pick one in Connections or run 'Agent Switchboard: New Run…'/);
    assert.equal(await harness.page.locator('#run-header').isHidden(), true);
    assert.equal(await harness.page.locator('#composer').isHidden(), true);
    assert.deepEqual(harness.errors.filter((e) => !e.includes('dropping invalid')), []);
  });
});

function transcript(): TranscriptItem[] {
  const items = everyKind();
  items.push({ id: 'live', kind: 'text', text: 'Now updating `loadConfig` to handle **empty** files', streaming: true });
  return items;
}

const RUN = sampleRun({
  state: 'waiting_approval',
  stateDetail: 'turn 3',
  actions: { send: true, queues: true, stop: true, end: false, changeSet: true },
  queue: [
    { queueId: 'q1', revision: 1, prompt: 'Then run the whole test suite and summarise failures.', submitter: 'you' },
    { queueId: 'q2', revision: 4, prompt: 'Also update the README.' },
  ],
});

describe('screenshot', () => {
  test('dark theme transcript', async () => {
    await harness.reload(); // a fresh webview: nothing expanded or scrolled by the tests above
    await harness.page.setViewportSize({ width: 420, height: 1900 });
    await harness.deliver(snapshot(transcript(), RUN));
    // Open the reasoning without a click (a click scrolls it into view, which unpins the list).
    await harness.page.locator('[data-item-id="r1"] details').evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await harness.page.evaluate(() => document.fonts.ready);
    await harness.settle();
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    await harness.page.screenshot({ path: join(dir, 'webview-transcript.png') });
    assert.deepEqual(harness.errors, []);
    assert.deepEqual(await harness.cspViolations(), []);
  });

  test('narrow sidebar: no horizontal overflow', async () => {
    await harness.page.setViewportSize({ width: 240, height: 900 });
    await harness.settle();
    await harness.settle();
    const overflow = await harness.page.evaluate(() => {
      const scroller = document.getElementById('transcript') as HTMLElement;
      const wide = [...document.querySelectorAll<HTMLElement>('#app *')].filter((el) => {
        if (el.closest('pre, .md-table')) {
          return false;
        } // these scroll on their own
        return el.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
      });
      return { scroll: scroller.scrollWidth - scroller.clientWidth, wide: wide.slice(0, 5).map((el) => el.className) };
    });
    assert.equal(overflow.scroll, 0);
    assert.deepEqual(overflow.wide, []);
    await harness.page.screenshot({ path: join(ROOT, 'test-results', 'webview-transcript-narrow.png') });
  });
});
