import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextApproval } from '../../../../extension/model/approvalLifecycle';
import type { ApprovalChange } from '../../../../extension/model/modelActions';
import type { ApprovalInfo } from '../../../../extension/model/modelTypes';
import { approvalKeyOf } from '../../../../extension/model/runKeys';
import type { ApprovalKey, RunKey } from '../../../../extension/model/runKeys';
import type { NotificationChoice } from '../../../../extension/ui/approvals/approvalNotificationLinks';
import { NOTIFICATION_LINK_COMMAND, NotificationLinkBook, notificationWithLinks } from '../../../../extension/ui/approvals/approvalNotificationLinks';
import { approvalNotificationText } from '../../../../extension/ui/approvals/approvalNotificationText';
import { notificationStaysOpen, OpenApprovalNotifications } from '../../../../extension/ui/approvals/openApprovalNotifications';

/**
 * VS Code's link syntax in notification messages (src/vs/base/common/linkedText.ts, the same regex in code-server
 * 1.139.1's workbench.js): what a notification renders as a link, opened with `allowCommands`.
 */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const linksOf = (message: string): { label: string; href: string }[] => [...message.matchAll(VSCODE_LINK)].map((m) => ({ label: m[1]!, href: m[2]! }));

/** What VS Code's command opener passes to the command of a `command:` link (JSON args in the query). */
function argsOf(href: string): { command: string; args: unknown[] } {
  const uri = new URL(href);
  const parsed: unknown = JSON.parse(decodeURIComponent(uri.search.slice(1)));
  return { command: uri.pathname, args: Array.isArray(parsed) ? parsed : [parsed] };
}

const RUN = 'agency-proxy:AgencyProxy::run-1' as RunKey;
const KEY = approvalKeyOf(RUN, 'ap-1');

function approval(over: Partial<ApprovalInfo> = {}): ApprovalInfo {
  return { key: KEY, runKey: RUN, approvalId: 'ap-1', itemId: 'i', title: 'Edit', detail: null, options: ['allow_once', 'deny'], requestedAt: 1, status: 'pending', live: true, ...over };
}

function counter(): () => string {
  let n = 0;
  return () => `${(n += 1).toString(16).padStart(32, 'f')}`;
}

test('each choice of an approval notification is a command link VS Code renders, carrying only a token issued here', () => {
  const book = new NotificationLinkBook(counter());
  const choices: { label: string; choice: NotificationChoice }[] = [
    { label: 'Allow', choice: { kind: 'decide', decision: 'allow_once' } },
    { label: 'Deny', choice: { kind: 'decide', decision: 'deny' } },
    { label: 'Show diff', choice: { kind: 'details' } },
    { label: 'Allow similar…', choice: { kind: 'rule' } },
  ];
  const message = notificationWithLinks(approvalNotificationText(approval(), 'Fix it', 'AgencyProxy'), choices, (c) => book.issue(KEY, c));
  const links = linksOf(message);
  assert.deepEqual(links.map((l) => l.label), ['Allow', 'Deny', 'Show diff', 'Allow similar…']);
  for (const [i, link] of links.entries()) {
    const { command, args } = argsOf(link.href);
    assert.equal(command, NOTIFICATION_LINK_COMMAND);
    assert.equal(args.length, 1);
    assert.ok(!JSON.stringify(args).includes('ap-1') && !JSON.stringify(args).includes('allow'), 'neither the request nor the decision is in the link');
    assert.deepEqual(book.resolve(args[0]), { approvalKey: KEY, choice: choices[i]!.choice });
  }
  assert.match(message, /^Approval needed in "Fix it" \(AgencyProxy\): Edit — \[Allow\]/);
});

test('a link nobody issued here decides nothing: forged tokens, keys and decisions resolve to nothing', () => {
  const book = new NotificationLinkBook(counter());
  const token = book.issue(KEY, { kind: 'decide', decision: 'deny' });
  for (const forged of [KEY, 'allow_once', [token], { token }, undefined, 42, `${token} `, token.toUpperCase()]) {
    assert.equal(book.resolve(forged), undefined, JSON.stringify(forged));
  }
  assert.ok(book.resolve(token));
});

test("an agent's text cannot add a link to the notification, nor break ours", () => {
  const forged = `[Deny](command:${NOTIFICATION_LINK_COMMAND}?%5B%22x%22%5D) ](command:workbench.action.terminal.sendSequence)`;
  const hostile = approval({ title: forged, summary: `${forged} [`, subject: { tool: 'Bash', command: `echo ${forged}`, complete: true } });
  const book = new NotificationLinkBook(counter());
  const text = notificationWithLinks(approvalNotificationText(hostile, `run ${forged}`, `c ${forged}`), [
    { label: 'Allow (for this session])', choice: { kind: 'decide', decision: 'allow_similar' } },
    { label: 'Deny', choice: { kind: 'decide', decision: 'deny' } },
  ], (c) => book.issue(KEY, c));
  const links = linksOf(text);
  assert.deepEqual(links.map((l) => l.label), ['Allow (for this session))', 'Deny'], 'only our two links; a bracket in a label cannot end it early');
  assert.ok(links.every((l) => book.resolve(argsOf(l.href).args[0]) !== undefined));
});

test('the links of a request are forgotten once it leaves the model, and only then', () => {
  const book = new NotificationLinkBook(counter());
  const other = approvalKeyOf(RUN, 'ap-2');
  const mine = book.issue(KEY, { kind: 'details' });
  const theirs = book.issue(other, { kind: 'details' });
  book.forgetUnless((key) => key === KEY);
  assert.ok(book.resolve(mine), 'a settled request that is still in the model keeps its links: a late click is answered truthfully');
  assert.equal(book.resolve(theirs), undefined);
  assert.equal(book.size, 1);
});

/** The request after each change, through the model's own lifecycle. */
function through(start: ApprovalInfo, ...changes: ApprovalChange[]): ApprovalInfo[] {
  const states = [start];
  for (const change of changes) {
    const next = nextApproval(states.at(-1)!, change);
    assert.ok(next, `${change.kind} applies`);
    states.push(next);
  }
  return states;
}

/** Whether the notification is open after each state, fed to an open notification as the model changes. */
function openAfterEach(states: readonly ApprovalInfo[]): boolean[] {
  const open = new OpenApprovalNotifications();
  let closed = 0;
  open.opened(KEY, () => (closed += 1));
  const seen = states.map((a) => {
    open.closeSettled(new Map([[a.key, a]]));
    return open.isOpen(KEY);
  });
  assert.ok(closed <= 1, 'closed at most once');
  return seen;
}

test('an approval notification closes once its request is settled, from wherever it was settled', () => {
  const pending = approval();
  const cases: Record<string, ApprovalChange[]> = {
    'the transcript card in this window': [{ kind: 'deciding', decision: 'allow_once', by: 'transcript' }, { kind: 'decided', decision: 'allow_once', by: 'transcript' }],
    'the palette': [{ kind: 'deciding', decision: 'deny', by: 'palette' }, { kind: 'decided', decision: 'deny', by: 'palette' }],
    'a rule': [{ kind: 'deciding', decision: 'allow_once', by: 'rule', rule: 'Edit in src' }, { kind: 'decided', decision: 'allow_once', by: 'rule' }],
    'another window (the daemon reports the decision)': [{ kind: 'decided', decision: 'allow_once', by: 'daemon' }],
    'the daemon (the run was cancelled or ended)': [{ kind: 'expired', reason: 'run cancelled' }],
    'its own link': [{ kind: 'deciding', decision: 'allow_once', by: 'notification' }, { kind: 'decided', decision: 'allow_once', by: 'notification' }],
  };
  for (const [source, changes] of Object.entries(cases)) {
    const seen = openAfterEach(through(pending, ...changes));
    assert.deepEqual(seen, [...seen.slice(0, -1).map(() => true), false], `settled by ${source}: open while it waits or is in flight, closed once settled`);
  }
});

test('a decision that was not delivered keeps the notification: the request waits again', () => {
  const states = through(approval(), { kind: 'deciding', decision: 'allow_once', by: 'transcript' }, { kind: 'failed', reason: 'socket closed' }, { kind: 'expired', reason: 'run ended' });
  assert.deepEqual(openAfterEach(states), [true, true, true, false]);
});

test('a request gone from the model (its run removed) closes its notification; others stay', () => {
  const open = new OpenApprovalNotifications();
  const other = approvalKeyOf(RUN, 'ap-2') as ApprovalKey;
  const closed: string[] = [];
  open.opened(KEY, () => closed.push(KEY));
  open.opened(other, () => closed.push(other));
  assert.deepEqual(open.closeSettled(new Map([[other, approval({ key: other })]])), [KEY]);
  assert.deepEqual(closed, [KEY]);
  assert.deepEqual(open.keys, [other]);
  assert.equal(open.close(KEY), false, 'closing twice does nothing');
  open.closeAll();
  assert.deepEqual(closed, [KEY, other]);
});

test('which states keep a notification open', () => {
  assert.equal(notificationStaysOpen(undefined), false);
  for (const [status, open] of [['pending', true], ['deciding', true], ['failed', true], ['decided', false], ['expired', false]] as const) {
    assert.equal(notificationStaysOpen({ status }), open, status);
  }
});
