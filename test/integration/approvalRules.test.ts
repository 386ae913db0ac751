/**
 * Approval rules and attention in a real VS Code, against the AgencyProxy reference daemon (one Edit approval of
 * README.md per run; `multiedit` asks for an ApplyPatch instead): a rule saved from the card (after its
 * confirmation: the test workbench drops modal dialogs, so the test answers it through the API's hook)
 * answers the next matching request and says so in the transcript, does not answer a request of another tool, and
 * answers nothing once revoked in the Approval Rules view; declining the confirmation saves nothing and decides
 * nothing. A request arriving while the window is not focused marks
 * the status bar item and badges the view.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../extension/extension';
import type { ApprovalRule } from '../../extension/model/approvalRules';
import type { ApprovalInfo } from '../../extension/model/modelTypes';
import { ruleConfirmationDetail } from '../../extension/ui/approvals/approvalRuleFlow';
import { api, connectAgencyProxyFixture, screenshot, sentFrames, setConnections, ui, waitFor, workspaceDir, testHooks } from './support';

const NAME = 'Rules';
const CONNECTION = `agency-proxy:${NAME}`;

async function newRun(prompt: string): Promise<string> {
  const runKey = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, provider: 'claude', model: '', permission: 'edit', prompt, interactive: false });
  assert.equal(typeof runKey, 'string', 'the command returns the new run');
  return runKey as string;
}

function approvalOf(a: SwitchboardApi, runKey: string): ApprovalInfo | undefined {
  return [...a.store.state.approvals.values()].find((x) => x.runKey === runKey);
}

/** Waits until the run's request is announced with a notification naming the run (so no rule took it). */
async function notifiedFor(title: string): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: `Approval needed in "${title}" (${NAME}): Edit` });
}

/** The Connections pane collapsed or expanded, so the sidebar's transcript has room for the card. */
async function toggleConnectionsPane(): Promise<void> {
  await ui({ action: 'click', selector: '.pane-header', hasText: 'Connections' });
}

async function clearNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}

suite('Approval rules', () => {
  let daemon: ChildProcess | undefined;

  suiteSetup(async () => {
    ({ daemon } = await connectAgencyProxyFixture(NAME, 'sb-rules-', { recordRuns: true }));
    // Headless, the browser window may or may not report focus: the tests say which.
    (await testHooks()).setWindowFocused(true);
    await clearNotifications();
  });

  suiteTeardown(async () => {
    const hooks = await testHooks();
    hooks.setWindowFocused(undefined);
    hooks.setRuleConfirmation(undefined);
    await hooks.approvals.rules.reset();
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('a rule saved from the card answers the next matching request, not another tool, not after Revoke', async () => {
    const a = await api();
    const hooks = await testHooks();
    // 1. The first Edit: saved as a connection rule from the card, after the modal that shows it.
    const first = await newRun('Tidy the README with a rule');
    const request = await waitFor('the first request', () => approvalOf(a, first)?.status === 'pending' && approvalOf(a, first));
    assert.deepEqual(request.subject, { tool: 'Edit', paths: [path.join(workspaceDir(), 'README.md')], complete: true });
    const shown: string[] = [];
    (await testHooks()).setRuleConfirmation(async (proposed: ApprovalRule, connectionName: string) => {
      shown.push(ruleConfirmationDetail(proposed, connectionName));
      return true;
    });
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', first);
    await toggleConnectionsPane();
    try {
      await ui({ action: 'waitFor', selector: '.approval-card [data-rule="allow:connection"]', webview: true });
    const labels = await ui<string[]>({ action: 'text', selector: '.approval-card .approval-actions button', webview: true });
    assert.deepEqual(
      labels.map((l) => l.trim()),
      ['Allow once', 'Allow similar for this run', 'Allow similar for this connection', 'Deny', 'More…', 'Show diff'],
    );
    const note = await ui<string[]>({ action: 'text', selector: '.approval-card .approval-rule-note', webview: true });
    assert.match(note[0] ?? '', /AgencyProxy 0\.3 treats Allow similar as once; the rule in the editor answers the rest\./);
      await screenshot('approval-rule-card.png');
      // Pressed, not clicked: in the narrow sidebar the composer can sit over the card's last row.
      await ui({ action: 'press', selector: '.approval-card [data-rule="allow:connection"]', value: 'Enter', webview: true });
      await waitFor('the first request decided', () => approvalOf(a, first)?.status === 'decided');
    } finally {
      await toggleConnectionsPane();
    }
    assert.equal(shown.length, 1, 'the rule was shown before it was saved');
    for (const part of ['Effect: allow', 'Tool: Edit', `files matching ${workspaceDir()}/README.md`, 'Scope: this connection until it closes (Rules)', 'Stored: Kept in memory until this connection closes']) {
      assert.ok(shown[0]!.includes(part), `the confirmation shows "${part}": ${shown[0]}`);
    }
    const decided = approvalOf(a, first)!;
    assert.equal(decided.decision, 'allow_similar', 'AgencyProxy is sent allow_similar');
    assert.equal(decided.decidedBy, 'transcript');
    const [rule] = hooks.approvals.rules.all();
    assert.ok(rule, 'the rule is saved');
    // A file at the workspace root proposes itself: a glob over the root would cover .vscode and .git too.
    assert.equal(rule.label, `Allow Edit on files matching ${workspaceDir()}/README.md`);
    assert.equal(decided.decidedByRule, rule.label);
    const runId = (key: string) => key.split('::')[1];
    const wire = (await sentFrames(NAME)).filter((f) => f.type === 'decide_approval' && f.run_id === runId(first));
    assert.deepEqual(wire.map((f) => f.decision), ['allow_similar'], 'allow_similar on the wire');
    await waitFor('the first run completed', () => a.store.state.runs.get(first)?.state === 'completed', 30000);

    // 2. The next Edit on this connection: answered by the rule, once, and the transcript says which rule.
    const second = await newRun('Edit the README again, by rule');
    const byRule = await waitFor('the second request decided by the rule', () => approvalOf(a, second)?.status === 'decided' && approvalOf(a, second));
    assert.equal(byRule.decidedBy, 'rule');
    assert.equal(byRule.decision, 'allow_once');
    assert.equal(byRule.decidedByRule, rule.label);
    const item = a.store.transcript(second)!.snapshot().find((i) => i.kind === 'approval');
    assert.equal(item?.kind === 'approval' ? item.decidedByRule : undefined, rule.label, 'the card names the rule');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', second);
    await ui({ action: 'waitFor', selector: '.approval-outcome', hasText: `Allowed once by the approval rule "${rule.label}"`, webview: true });
    await waitFor('the second run completed', () => a.store.state.runs.get(second)?.state === 'completed', 30000);

    // 3. Another tool (ApplyPatch) is not covered: it is asked.
    await clearNotifications();
    const other = await newRun('Patch two files multiedit');
    const patch = await waitFor('the patch request', () => approvalOf(a, other));
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: 'Approval needed in "Patch two files multiedit" (Rules): ApplyPatch' });
    assert.equal(a.store.state.approvals.get(patch.key)?.status, 'pending', 'no rule answered another tool');
    assert.equal(await hooks.approvals.decide(patch.key, 'deny', 'palette'), true);
    await waitFor('the patch run completed', () => a.store.state.runs.get(other)?.state === 'completed', 30000);
    await clearNotifications();

    // 4. Revoked from the Approval Rules view: the next Edit is asked again.
    await vscode.commands.executeCommand('agentSwitchboard.approvalRules.focus');
    await ui({ action: 'waitFor', selector: '.pane-body .monaco-list-row', hasText: rule.label });
    await screenshot('approval-rules-view.png');
    // Inline actions show on the selected row.
    await ui({ action: 'click', selector: '.pane-body .monaco-list-row', hasText: rule.label });
    await ui({ action: 'click', selector: '.pane-body .monaco-list-row .action-label[aria-label^="Revoke"]' });
    await waitFor('the rule revoked', () => hooks.approvals.rules.all().length === 0);
    // Collapsed again, as it starts: the later suites keep the sidebar's room for the transcript.
    await ui({ action: 'click', selector: '.pane-header', hasText: 'Approval Rules' });
    const third = await newRun('Edit after revoke');
    const asked = await waitFor('the third request', () => approvalOf(a, third));
    await notifiedFor('Edit after revoke');
    assert.equal(a.store.state.approvals.get(asked.key)?.status, 'pending', 'a revoked rule answers nothing');
    assert.equal(await hooks.approvals.decide(asked.key, 'allow_once', 'palette'), true);
    await waitFor('the third run completed', () => a.store.state.runs.get(third)?.state === 'completed', 30000);
    await clearNotifications();
  });

  test('declining the rule’s confirmation saves no rule and leaves the request waiting, undecided', async () => {
    const a = await api();
    const hooks = await testHooks();
    await hooks.approvals.rules.reset();
    await clearNotifications();
    const runKey = await newRun('Edit the README, the rule declined');
    const request = await waitFor('the request', () => approvalOf(a, runKey)?.status === 'pending' && approvalOf(a, runKey));
    // The person reads the proposed rule and answers No (Cancel, Escape, or the modal closed).
    const shown: string[] = [];
    (await testHooks()).setRuleConfirmation(async (proposed: ApprovalRule, connectionName: string) => {
      shown.push(ruleConfirmationDetail(proposed, connectionName));
      return false;
    });
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await toggleConnectionsPane();
    try {
      await ui({ action: 'waitFor', selector: '.approval-card [data-rule="allow:connection"]', webview: true });
      await ui({ action: 'press', selector: '.approval-card [data-rule="allow:connection"]', value: 'Enter', webview: true });
      await waitFor('the rule shown for confirmation', () => shown.length === 1);
      assert.ok(shown[0]!.includes('Effect: allow'), shown[0]);
      assert.deepEqual(hooks.approvals.rules.all(), [], 'no rule saved');
      assert.equal(a.store.state.approvals.get(request.key)?.status, 'pending', 'the request still waits');
      assert.equal(a.store.state.approvals.get(request.key)?.decidedByRule, undefined);
      assert.ok(!(await sentFrames(NAME)).some((f) => f.type === 'decide_approval' && f.run_id === runKey.split('::')[1]), 'nothing sent to the daemon');
      await ui({ action: 'waitFor', selector: '.approval-card .approval-actions button', hasText: 'Allow once', webview: true });
    } finally {
      (await testHooks()).setRuleConfirmation(undefined);
      await toggleConnectionsPane();
    }
    // Still the person's to answer, and answered only as they now do.
    assert.equal(await hooks.approvals.decide(request.key, 'allow_once', 'palette'), true);
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    const wire = (await sentFrames(NAME)).filter((f) => f.type === 'decide_approval' && f.run_id === runKey.split('::')[1]);
    assert.deepEqual(wire.map((f) => f.decision), ['allow_once'], 'one decision on the wire: the one made after declining');
    assert.equal(a.store.state.approvals.get(request.key)?.decidedBy, 'palette');
    assert.deepEqual(hooks.approvals.rules.all(), [], 'still no rule');
    await clearNotifications();
  });

  test('a connection rule dies with its connection: after a reconnect the same request is asked', async () => {
    const a = await api();
    const hooks = await testHooks();
    await hooks.approvals.rules.reset();
    (await testHooks()).setRuleConfirmation(async () => true);
    const first = await newRun('Edit before reconnect');
    const request = await waitFor('the request', () => approvalOf(a, first)?.status === 'pending' && approvalOf(a, first));
    assert.equal(await hooks.approvals.ruleFlow.save(request, 'allow', 'connection', 'palette'), true);
    assert.equal(hooks.approvals.rules.all().length, 1);
    await waitFor('completed', () => a.store.state.runs.get(first)?.state === 'completed', 30000);
    await vscode.commands.executeCommand('agentSwitchboard.disconnect', CONNECTION);
    await waitFor('the rule dropped with its connection', () => hooks.approvals.rules.all().length === 0);
    await vscode.commands.executeCommand('agentSwitchboard.connect', CONNECTION);
    await waitFor('connected again', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
    await clearNotifications();
    const second = await newRun('Edit after reconnect');
    const asked = await waitFor('the second request', () => approvalOf(a, second));
    await notifiedFor('Edit after reconnect');
    assert.equal(a.store.state.approvals.get(asked.key)?.status, 'pending', 'the old connection rule answers nothing');
    assert.equal(await hooks.approvals.decide(asked.key, 'allow_once', 'palette'), true);
    await waitFor('completed', () => a.store.state.runs.get(second)?.state === 'completed', 30000);
    await clearNotifications();
  });

  test('a request arriving while the window is not focused: notification, warning background, badge', async () => {
    const a = await api();
    const hooks = await testHooks();
    await hooks.approvals.rules.reset();
    assert.equal(hooks.approvals.statusBarWarning, false, 'nothing waits');
    (await testHooks()).setWindowFocused(false);
    try {
      const runKey = await newRun('Edit while away');
      const request = await waitFor('the request', () => approvalOf(a, runKey));
      await notifiedFor('Edit while away');
      await waitFor('the warning background', () => hooks.approvals.statusBarWarning);
      await ui({ action: 'waitFor', selector: '.statusbar-item.warning-kind', hasText: '1 approval waiting' });
      await ui({ action: 'waitFor', selector: '.activitybar .badge-content', hasText: '1' });
      await screenshot('approval-unfocused.png');
      (await testHooks()).setWindowFocused(true);
      assert.equal(await hooks.approvals.decide(request.key, 'allow_once', 'palette'), true);
      await waitFor('the background cleared once answered', () => !hooks.approvals.statusBarWarning);
      await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    } finally {
      (await testHooks()).setWindowFocused(true);
      await clearNotifications();
    }
  });
});
