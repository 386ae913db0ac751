/**
 * Approval notifications leave the screen once their request is settled anywhere (issue 25 §4): a request decided
 * from its notification's link (one click), from the transcript card, answered by a rule saved meanwhile, expired by
 * the daemon when its run is cancelled — each time the notification is gone from the workbench's DOM. Its Cancel
 * button closes it without a decision, and the status bar and the palette keep the request. Against the AgencyProxy
 * reference daemon (its "Tidy up the README" run asks to Edit README.md).
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApprovalInfo } from '../../extension/model/modelTypes';
import { api, APPROVAL_NOTIFICATION_LINK, screenshot, setConnections, startFixture, testHooks, ui, waitFor, workspaceDir } from './support';

const NAME = 'Notify';
const CONNECTION = `agency-proxy:${NAME}`;
/** An approval notification, as a toast or in the notification center. */
const NOTIFICATION = '.notification-toast .notification-list-item, .notifications-center .notification-list-item';
/** The links of approval notifications (their choices). */
const NOTIFICATION_LINK = APPROVAL_NOTIFICATION_LINK;
/** A button of a notification (an approval notification's only one is Cancel). */
const NOTIFICATION_BUTTON = '.notification-toast .monaco-button, .notifications-center .monaco-button';

const notificationOf = (title: string): string => `Approval needed in "${title}" (${NAME})`;

async function newRun(title: string): Promise<string> {
  const runKey = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, provider: 'claude', model: '', permission: 'edit', prompt: title, interactive: false });
  assert.equal(typeof runKey, 'string', 'the run started');
  return runKey as string;
}

async function pendingOf(runKey: string): Promise<ApprovalInfo> {
  const a = await api();
  return waitFor('the approval request', () => [...a.store.state.approvals.values()].find((x) => x.runKey === runKey && x.status === 'pending'), 30000);
}

/** The request's notification is on screen (the center is opened: headless, toasts go to the center). */
async function notificationShown(title: string): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  await ui({ action: 'waitFor', selector: NOTIFICATION, hasText: notificationOf(title) });
}

/** Waits until no notification of the request is in the DOM, neither as a toast nor in the center. */
async function notificationGone(title: string, approvalKey: string): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  await waitFor(`the notification of "${title}" gone`, async () => (await ui<number>({ action: 'count', selector: NOTIFICATION, hasText: notificationOf(title) })) === 0, 15000);
  const hooks = await testHooks();
  assert.ok(!hooks.approvals.notifications.openKeys.includes(approvalKey as ApprovalInfo['key']), 'and no longer open in the approval center');
}

suite('Approval notifications', () => {
  let daemon: ChildProcess | undefined;

  suiteSetup(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-notify-'));
    const socketPath = path.join(dir, 'run', 'runtime.sock');
    daemon = startFixture('agencyProxy', ['--socket', socketPath, '--record-dir', path.join(dir, 'state'), '--workspace', workspaceDir()]);
    await waitFor('the daemon socket', () => fs.existsSync(socketPath));
    const a = await api();
    await setConnections([{ name: NAME, protocol: 'agency-proxy', socketPath }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('notifications.hideList');
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('one click on a link of the notification decides, and the notification leaves', async () => {
    const a = await api();
    const title = 'Tidy up the README (link)';
    const runKey = await newRun(title);
    const approval = await pendingOf(runKey);
    await notificationShown(title);
    await screenshot('approval-notification-links.png');
    const labels = await ui<string[]>({ action: 'text', selector: NOTIFICATION_LINK });
    // The daemon offers allow once and deny; rules are on offer, so "Allow similar…" saves one.
    assert.deepEqual(labels, ['Allow once', 'Deny', 'Allow similar…', 'Show diff'], 'the choices of the notification, each one click');
    // Expanded (it has a button), so the whole request and every link show, not one cut line.
    const shown = await ui<string[]>({ action: 'text', selector: `${NOTIFICATION} .notification-list-item-message` });
    assert.ok(shown.some((t) => t.includes(`${notificationOf(title)}: Edit`) && t.endsWith('Show diff')), `the whole text shows: ${JSON.stringify(shown)}`);
    assert.equal(await ui<number>({ action: 'count', selector: `${NOTIFICATION}.expanded`, hasText: notificationOf(title) }), 1, 'expanded');
    await ui({ action: 'click', selector: NOTIFICATION_LINK, hasText: 'Allow once' });
    await waitFor('decided from the notification', () => a.store.state.approvals.get(approval.key)?.status === 'decided', 15000);
    assert.equal(a.store.state.approvals.get(approval.key)?.decidedBy, 'notification');
    assert.equal(a.store.state.approvals.get(approval.key)?.decision, 'allow_once');
    await notificationGone(title, approval.key);
    await waitFor('the run completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
  });

  test('decided from the transcript card: the notification leaves', async () => {
    const a = await api();
    const title = 'Tidy up the README (card)';
    const runKey = await newRun(title);
    const approval = await pendingOf(runKey);
    await notificationShown(title);
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await ui({ action: 'waitFor', selector: '.approval-card .approval-decide', hasText: 'Deny', webview: true });
    // What the card's Deny posts (its button is tested in the transcript suites; here it may sit under the composer).
    assert.equal(await (await testHooks()).approvals.decide(approval.key, 'deny', 'transcript'), true);
    await waitFor('denied from the card', () => a.store.state.approvals.get(approval.key)?.status === 'decided', 15000);
    assert.equal(a.store.state.approvals.get(approval.key)?.decidedBy, 'transcript');
    await notificationGone(title, approval.key);
    await screenshot('approval-notification-gone-after-card.png');
  });

  test('the run cancelled (the daemon expires the request): the notification leaves', async () => {
    const a = await api();
    const title = 'Tidy up the README (cancelled)';
    const runKey = await newRun(title);
    const approval = await pendingOf(runKey);
    await notificationShown(title);
    await vscode.commands.executeCommand('agentSwitchboard.cancelRun', runKey);
    await waitFor('expired', () => a.store.state.approvals.get(approval.key)?.status === 'expired', 15000);
    await notificationGone(title, approval.key);
  });

  test('Cancel closes the notification and decides nothing; the status bar and the palette keep the request', async () => {
    const a = await api();
    const title = 'Tidy up the README (later)';
    const runKey = await newRun(title);
    const approval = await pendingOf(runKey);
    await notificationShown(title);
    await ui({ action: 'click', selector: NOTIFICATION_BUTTON, hasText: 'Cancel' });
    await notificationGone(title, approval.key);
    assert.equal(a.store.state.approvals.get(approval.key)?.status, 'pending', 'Cancel is not a decision');
    assert.equal(a.store.state.runs.get(runKey)?.state, 'waiting_approval', 'nor does it cancel the run');
    const waiting = [...a.store.state.approvals.values()].filter((x) => x.live && x.status === 'pending').length;
    await ui({ action: 'waitFor', selector: '.statusbar-item', hasText: `${waiting} approval${waiting === 1 ? '' : 's'} waiting` });
    assert.equal(await vscode.commands.executeCommand('agentSwitchboard.decideApproval', approval.key, 'deny'), true, 'decided from the palette');
    await waitFor('denied from the palette', () => a.store.state.approvals.get(approval.key)?.decidedBy === 'palette', 15000);
  });

  test('a rule saved while the request waits answers it: the notification leaves', async () => {
    const a = await api();
    const hooks = await testHooks();
    const title = 'Tidy up the README (rule)';
    const runKey = await newRun(title);
    const approval = await pendingOf(runKey);
    await notificationShown(title);
    const scope = hooks.approvals.rules.scopeFor(approval, 'run');
    assert.ok(scope, 'a run rule can be saved for it');
    const id = hooks.approvals.rules.newId();
    // Saved as the rule flow saves one (its quick picks are tested in the Approval rules suite).
    await hooks.approvals.rules.add({ id, effect: 'allow', tool: approval.subject?.tool ?? 'Edit', pattern: { kind: 'anyInput' }, scope, createdAt: Date.now(), label: 'Any Edit in this run' });
    await waitFor('answered by the rule', () => a.store.state.approvals.get(approval.key)?.decidedBy === 'rule', 15000);
    await notificationGone(title, approval.key);
    await hooks.approvals.rules.revoke(id);
  });
});
