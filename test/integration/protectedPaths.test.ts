/**
 * Protected paths in a real VS Code: a write by an agent to `.vscode/settings.json` or `.git/hooks/pre-commit`
 * (through the editor's WorkspaceAccess, and end to end through the ACP reference agent's `fs/write_text_file`)
 * opens the diff and asks every time — even when an allow rule covers every edit; Deny leaves the file, Allow writes
 * it; the unanswered real modal (the test workbench refuses dialogs) counts as Deny. Applying a change set that holds
 * `.vscode/settings.json` names it first: Cancel applies nothing, "Apply Without These" applies the rest only. The
 * modals' answers come through `testHooks.setProtectedPathConfirmations`; the approval's notification button is
 * clicked in the real UI.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { WorkspaceAccessError } from '../../extension/drivers/kit/workspaceAccess';
import type { ApprovalRule } from '../../extension/model/approvalRules';
import type { ProtectedWriteQuestion } from '../../extension/ui/protectedPathPrompts';
import type { ApplyOutcome } from '../../extension/ui/changeSets/changeSetApply';
import { api, screenshot, traceOf, ui, waitFor, workspaceDir, testHooks } from './support';
import {
  clearNotifications,
  connectReferenceAgent,
  decideFromNotification,
  endedTurns,
  itemsOf,
  pendingApproval,
  removeConnections,
  setViewExpanded,
  webviewTexts,
} from './acpSupport';

const NAME = 'ACP protected';
const CONNECTION = `acp:${NAME}`;
const PLAIN = 'protected-suite-plain.md';
const PLAIN_TEXT = '# Plain\n\nAn ordinary file.\n';
/** What the reference agent's edit writes (test/fixtures/acp/editTool.ts). */
const EDIT_LINE = 'Edited by the reference ACP agent.\n';
/** What .vscode/settings.json holds once the first test allowed its writes (the agent's session starts from it). */
const SETTINGS_TEXT = '{ "protectedSuite.marker": 3 }\n';

function refusedFor(reason: WorkspaceAccessError['reason']) {
  return (error: unknown): boolean => error instanceof Error && error.name === 'WorkspaceAccessError' && (error as WorkspaceAccessError).reason === reason;
}

function diffTabOf(proposed: vscode.Uri): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString());
}

interface Asked {
  readonly question: ProtectedWriteQuestion;
  readonly original: string;
  readonly proposed: string;
  readonly tabLabel: string;
}

suite('Protected paths', () => {
  let settings: string;
  let hook: string;
  let plain: string;
  let stateDir: string;
  let runKey = '';
  const asked: Asked[] = [];
  let allowWrites = false;
  let screenshotName: string | undefined;

  /** Answers the write question as `allowWrites` says, after checking the diff is open behind it. */
  async function answerWrites(question: ProtectedWriteQuestion): Promise<boolean> {
    const tab = await waitFor('the diff of the protected write', () => diffTabOf(question.proposed));
    const proposed = (await vscode.workspace.openTextDocument(question.proposed)).getText();
    const original = (await vscode.workspace.openTextDocument(question.original)).getText();
    asked.push({ question, original, proposed, tabLabel: tab.label });
    if (screenshotName !== undefined) {
      await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
      await screenshot(screenshotName);
      screenshotName = undefined;
    }
    return allowWrites;
  }

  suiteSetup(async () => {
    const ws = workspaceDir();
    settings = path.join(ws, '.vscode', 'settings.json');
    hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    plain = path.join(ws, PLAIN);
    assert.equal(fs.existsSync(settings), false, 'the test workspace starts without .vscode/settings.json');
    fs.writeFileSync(plain, PLAIN_TEXT);
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-protected-'));
    await connectReferenceAgent(NAME, stateDir);
    await setViewExpanded('Connections', false);
  });

  suiteTeardown(async () => {
    const hooks = await testHooks();
    hooks.setProtectedPathConfirmations(undefined);
    await hooks.approvals.rules.reset();
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.dirname(settings), { recursive: true, force: true });
    fs.rmSync(hook, { force: true });
    fs.rmSync(plain, { force: true });
    fs.rmSync(path.join(workspaceDir(), 'protected-suite-note.txt'), { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
    await clearNotifications();
  });

  test('a write by the agent to .vscode or .git opens the diff and asks every time; Deny leaves the file', async () => {
    const hooks = await testHooks();
    // The real modal: the test workbench refuses dialogs, and an unanswered question is a Deny.
    hooks.setProtectedPathConfirmations(undefined);
    await assert.rejects(hooks.workspace.writeText(settings, '{ "protectedSuite.marker": 0 }\n'), refusedFor('denied'));
    assert.equal(fs.existsSync(settings), false, 'not written without an answer');

    (await testHooks()).setProtectedPathConfirmations({ write: answerWrites });
    allowWrites = false;
    screenshotName = 'protected-write-diff.png';
    await assert.rejects(hooks.workspace.writeText(settings, '{ "protectedSuite.marker": 1 }\n'), refusedFor('denied'));
    assert.equal(fs.existsSync(settings), false, 'denied: nothing written');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.question.path, '.vscode/settings.json');
    assert.equal(asked[0]!.question.creates, true);
    assert.match(asked[0]!.question.reason, /\.vscode folder.*can run programs when VS Code reads them/);
    assert.equal(asked[0]!.original, '');
    assert.equal(asked[0]!.proposed, '{ "protectedSuite.marker": 1 }\n');
    assert.match(asked[0]!.tabLabel, /settings\.json: the agent's write \(protected, new file\)/);
    await waitFor('the diff closed once answered', () => diffTabOf(asked[0]!.question.proposed) === undefined);

    allowWrites = true;
    await hooks.workspace.writeText(settings, '{ "protectedSuite.marker": 2 }\n');
    assert.equal(fs.readFileSync(settings, 'utf8'), '{ "protectedSuite.marker": 2 }\n', 'allowed: written');
    // Every time: the next write to the same file is asked again, showing what is there now.
    await hooks.workspace.writeText(settings, SETTINGS_TEXT);
    assert.equal(asked.length, 3);
    assert.equal(asked[2]!.original, '{ "protectedSuite.marker": 2 }\n');
    assert.equal(asked[2]!.question.creates, false);

    // .git: asked (and denied, then allowed) the same way.
    allowWrites = false;
    await assert.rejects(hooks.workspace.writeText(hook, '#!/bin/sh\nexit 0\n'), refusedFor('denied'));
    assert.equal(fs.existsSync(hook), false);
    assert.equal(asked[3]!.question.path, '.git/hooks/pre-commit');
    assert.match(asked[3]!.question.reason, /\.git folder.*git runs the programs/);
    allowWrites = true;
    await hooks.workspace.writeText(hook, '#!/bin/sh\nexit 0\n');
    assert.equal(fs.readFileSync(hook, 'utf8'), '#!/bin/sh\nexit 0\n');

    // An ordinary file is not asked about.
    await hooks.workspace.writeText(path.join(workspaceDir(), 'protected-suite-note.txt'), 'plain\n');
    assert.equal(asked.length, 5, 'no question for an ordinary file');
    fs.rmSync(hook);
  });

  test('through the ACP agent: an allow rule for every edit does not cover .vscode; the write is still asked', async () => {
    const a = await api();
    const hooks = await testHooks();
    (await testHooks()).setProtectedPathConfirmations({ write: answerWrites });
    runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: 'edit', prompt: 'Hello, protected paths' })) as string;
    await waitFor('the first turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    const rule: ApprovalRule = { id: 'protected-suite-any-edit', effect: 'allow', tool: 'edit', pattern: { kind: 'anyInput' }, scope: { kind: 'run', runKey }, createdAt: Date.now(), label: 'Allow every edit request' };
    await hooks.approvals.rules.add(rule);

    // The rule answers an ordinary edit, and no protected question is asked.
    const before = asked.length;
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, `edit:${PLAIN} please`);
    await waitFor('the ordinary edit turn', () => endedTurns(a, runKey, 'completed').length === 2, 30000);
    const byRule = [...a.store.state.approvals.values()].filter((x) => x.runKey === runKey).at(-1);
    assert.equal(byRule?.decidedBy, 'rule', 'the allow rule answered the ordinary edit');
    assert.equal(fs.readFileSync(plain, 'utf8'), PLAIN_TEXT + EDIT_LINE);
    assert.equal(asked.length, before);

    // .vscode/settings.json: the rule does not answer; the notification and the card say the path is protected.
    await clearNotifications();
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'edit:.vscode/settings.json now');
    const first = await pendingApproval(a, runKey);
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: 'protected path: can run programs when VS Code or git reads it' });
    assert.equal(a.store.state.approvals.get(first)?.status, 'pending', 'no rule answered it');
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    const note = await waitFor('the protected note on the card', async () => {
      const texts = await webviewTexts('.approval-pending .approval-protected-note');
      return texts.length > 0 && texts[0];
    });
    assert.match(note, /Protected: .*\.vscode\/settings\.json: it is in the workspace's \.vscode folder.*No approval rule answers this/);
    assert.equal(await ui<number>({ action: 'count', selector: '.approval-pending [data-rule]', webview: true }), 0, 'no rule is offered from it');
    assert.equal(await ui<number>({ action: 'count', selector: '.approval-pending [data-decision="allow_similar"]', webview: true }), 0, "nor the agent's own always-allow");
    // The agent's own "always allow" is refused from every surface (here the palette's path).
    assert.equal(await hooks.approvals.decide(first, 'allow_similar', 'palette'), false);
    assert.equal(a.store.state.approvals.get(first)?.status, 'pending');
    // The Runs view folded away for the picture, so the card has the sidebar's room.
    const runsWas = await setViewExpanded('Runs', false);
    await screenshot('protected-approval-card.png');
    await setViewExpanded('Runs', runsWas);

    // Allowed in the notification (clicked), the agent writes: the diff and the question come up; Deny.
    allowWrites = false;
    await decideFromNotification('Allow once');
    await waitFor('the denied write turn', () => endedTurns(a, runKey, 'completed').length === 3, 30000);
    const denied = asked.at(-1)!;
    assert.equal(denied.question.path, '.vscode/settings.json');
    assert.equal(denied.original, SETTINGS_TEXT);
    assert.equal(denied.proposed, SETTINGS_TEXT + EDIT_LINE);
    assert.equal(fs.readFileSync(settings, 'utf8'), SETTINGS_TEXT, 'denied: the agent wrote nothing');
    const tool = itemsOf(a, runKey).filter((i) => i.kind === 'tool').at(-1);
    assert.ok(tool?.kind === 'tool' && tool.status === 'failed', JSON.stringify(tool));
    // The agent was answered with an error saying the write was denied (ACP has no code of its own for it).
    const refusal = (await traceOf(NAME)).find((l) => l.dir === 'out' && (l.frame.error as { data?: { reason?: string } } | undefined)?.data?.reason === 'denied');
    assert.match(JSON.stringify(refusal?.frame.error), /"code":-32602.*The user denied the write to .*\.vscode\/settings\.json/);

    // Asked again for the next write; allowed, it is written.
    await clearNotifications();
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'edit:.vscode/settings.json again');
    const second = await pendingApproval(a, runKey);
    assert.notEqual(second, first);
    allowWrites = true;
    await decideFromNotification('Allow once');
    await waitFor('the allowed write turn', () => endedTurns(a, runKey, 'completed').length === 4, 30000);
    assert.equal(fs.readFileSync(settings, 'utf8'), SETTINGS_TEXT + EDIT_LINE, 'allowed: written');
    await clearNotifications();
  });

  test('applying a change set with .vscode/settings.json names it first: Cancel, then Apply Without These', async () => {
    const a = await api();
    await waitFor('the local change set holds both files', () => {
      const patch = a.store.state.changeSets.get(runKey)?.patch ?? '';
      return patch.includes('.vscode/settings.json') && patch.includes(PLAIN);
    }, 15000);
    // Back at the run's base, as if the agent had worked in another checkout.
    fs.writeFileSync(settings, SETTINGS_TEXT);
    fs.writeFileSync(plain, PLAIN_TEXT);
    const reloaded = (file: string, text: string): boolean => vscode.workspace.textDocuments.filter((d) => d.uri.fsPath === file).every((d) => d.getText() === text);
    await waitFor('the open documents reloaded', () => reloaded(plain, PLAIN_TEXT) && reloaded(settings, SETTINGS_TEXT));
    const named: string[][] = [];
    let choice: 'include' | 'exclude' | 'cancel' = 'cancel';
    (await testHooks()).setProtectedPathConfirmations({
      apply: async (files) => {
        named.push(files.map((f) => f.path));
        return choice;
      },
    });
    const cancelled = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSet', runKey)) as ApplyOutcome;
    assert.equal(cancelled.cancelled, true);
    assert.deepEqual(cancelled.applied, []);
    assert.deepEqual(named, [['.vscode/settings.json']]);
    assert.equal(fs.readFileSync(plain, 'utf8'), PLAIN_TEXT, 'cancelled: nothing applied');

    // (The panel's "Apply change set" asks its own modal first, which this workbench refuses: the command it runs.)
    choice = 'exclude';
    const without = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSet', runKey)) as ApplyOutcome;
    assert.deepEqual(without.problems, []);
    assert.deepEqual(without.applied, [PLAIN]);
    assert.deepEqual(without.skipped, ['.vscode/settings.json']);
    assert.deepEqual(named, [['.vscode/settings.json'], ['.vscode/settings.json']]);
    assert.equal(fs.readFileSync(plain, 'utf8'), PLAIN_TEXT + EDIT_LINE, 'the ordinary file applied');
    assert.equal(fs.readFileSync(settings, 'utf8'), SETTINGS_TEXT, '.vscode/settings.json left untouched');
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notifications-center .notification-list-item', hasText: 'Left out the protected file .vscode/settings.json' });
    await clearNotifications();
  });
});
