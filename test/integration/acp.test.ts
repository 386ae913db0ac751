/**
 * ACP end to end in a real VS Code with the reference agent (test/fixtures/acp, bundled to out/fixtures/acp.js) as
 * the extension host's child process: New Run from the palette command with its prompts answered by arguments, the
 * streamed answer and the plan panel in the transcript webview, an edit that asks permission — allowed from the
 * notification (written through the editor's WorkspaceEdit: the open editor shows it saved, and Undo takes it back)
 * and one denied (the file stays) — Stop mid-stream (session/cancel), the mode action from the palette (arguments,
 * then the real quick pick), and no agent process left after Disconnect.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { PROPOSAL_SCHEME } from '../../extension/ui/approvals/proposalContentProvider';
import { api, screenshot, ui, waitFor, workspaceDir } from './support';
import {
  agentProcess,
  answerText,
  clearNotifications,
  connectReferenceAgent,
  decideFromNotification,
  endedTurns,
  fixturePath,
  groupGone,
  itemsOf,
  pendingApproval,
  removeConnections,
  setViewExpanded,
  traceOf,
  webviewTexts,
} from './acpSupport';

const NAME = 'ACP reference';
const CONNECTION = `acp:${NAME}`;
const FILE = 'acp-reference-notes.md';
const FILE_TEXT = '# Notes\n\nKept by the integration suite.\n';
/** What the reference agent's edit appends (test/fixtures/acp/editTool.ts EDIT_LINE). */
const EDIT_LINE = 'Edited by the reference ACP agent.\n';
/** A long file the agent edits one line of in the middle (`edit:<path>:100`). */
const LONG_FILE = 'acp-long-file.ts';
const LONG_LINES = Array.from({ length: 200 }, (_, i) => `export const v${i + 1} = ${i + 1};\n`);
/** What the reference agent puts in place of line 100 (test/fixtures/acp/editTool.ts replacedLine). */
const REPLACED_100 = 'Edited line 100 by the reference ACP agent.\n';

suite('ACP reference agent', () => {
  let stateDir: string;
  let runKey: string;
  let file: string;
  const started = Date.now();

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acp-'));
    file = path.join(workspaceDir(), FILE);
    fs.writeFileSync(file, FILE_TEXT);
    await connectReferenceAgent(NAME, stateDir, ['--slow-chunk-ms', '60']);
    await setViewExpanded('Connections', false);
  });

  suiteTeardown(async () => {
    await setViewExpanded('Connections', true);
    await removeConnections([NAME]);
    for (const document of vscode.workspace.textDocuments.filter((d) => d.uri.fsPath === file && d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
    fs.rmSync(path.join(workspaceDir(), LONG_FILE), { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
    console.log(`ACP reference agent suite: ${Date.now() - started} ms`);
  });

  test('New Run from the palette: the streamed answer and the plan panel in the transcript', async () => {
    const a = await api();
    const t0 = Date.now();
    const key = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt: 'Hello reference, show a plan' });
    assert.equal(typeof key, 'string', 'the command returns the new run');
    runKey = key as string;
    await waitFor('the first turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    const run = a.store.state.runs.get(runKey)!;
    assert.equal(run.state, 'idle');
    assert.equal(run.title, 'Hello reference, show a plan');
    assert.equal(endedTurns(a, runKey, 'completed')[0]!.code, undefined, 'end_turn: the usual end, said without a code');
    assert.match(answerText(a, runKey), /^## Reference answer\n\nYou said: \*Hello reference, show a plan\*/);
    assert.ok(itemsOf(a, runKey).some((i) => i.kind === 'reasoning' && i.text.length > 0), 'the thought chunks');
    const plan = run.panels?.find((p) => p.id === 'plan');
    assert.equal(plan?.entries.length, 3);
    assert.ok(plan.entries.every((e) => e.icon === 'pass-filled'), JSON.stringify(plan));

    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    const texts = await waitFor('the answer in the webview', async () => {
      const t = await webviewTexts('[data-kind="text"]');
      return t.some((x) => x.includes('You said: Hello reference, show a plan')) && t;
    });
    const answer = texts.find((x) => x.includes('Reference answer'))!;
    assert.ok(answer.includes('export const answer = 42;') && !answer.includes('## ') && !answer.includes('```'), `rendered markdown: ${answer}`);
    const entries = await waitFor('the plan panel in the webview', async () => {
      const e = await webviewTexts('.panel[data-panel-id="plan"] .panel-entry');
      return e.length === 3 && e;
    });
    assert.ok(entries.every((e) => e.includes('completed')), entries.join(' | '));
    await screenshot('acp-plan.png');
    console.log(`ACP reference: first turn ${Date.now() - t0} ms`);
  });

  test('an edit allowed from the notification is written through the editor and undoable; a denied one leaves the file', async () => {
    const a = await api();
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false, viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await clearNotifications();
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, `edit:${FILE} please`);
    const approvalKey = await pendingApproval(a, runKey);
    assert.equal(a.store.state.runs.get(runKey)?.state, 'waiting_approval');
    assert.deepEqual(a.store.state.approvals.get(approvalKey)?.options, ['allow_once', 'allow_similar', 'deny', 'deny_always']);
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT, 'nothing written before the decision');
    await ui({ action: 'waitFor', selector: '.approval-card .approval-decide', webview: true });
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: '.notification-list-item', hasText: 'Approval needed in' });
    await screenshot('acp-approval.png');
    await decideFromNotification('Allow once');
    await waitFor('the edit turn', () => endedTurns(a, runKey, 'completed').length === 2, 30000);
    assert.equal(a.store.state.approvals.get(approvalKey)?.decision, 'allow_once');
    assert.equal(a.store.state.approvals.get(approvalKey)?.decidedBy, 'notification');
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT + EDIT_LINE, 'the allowed edit is on disk');
    assert.equal(editor.document.getText(), FILE_TEXT + EDIT_LINE, 'the open editor shows it');
    assert.equal(editor.document.isDirty, false, 'saved');
    const writes = (await traceOf(NAME)).filter((l) => l.dir === 'in' && l.frame.method === 'fs/write_text_file');
    assert.equal(writes.length, 1, 'the agent wrote through the client (fs/write_text_file), not to the disk itself');
    const tool = itemsOf(a, runKey).filter((i) => i.kind === 'tool').at(-1);
    assert.ok(tool?.kind === 'tool' && tool.status === 'succeeded', JSON.stringify(tool));
    await waitFor('the local change set of the session', () => a.store.state.changeSets.get(runKey)?.patch?.includes(FILE), 15000);
    await vscode.commands.executeCommand('notifications.hideList');
    await waitFor('the decision on its card', async () => (await webviewTexts('.approval-card')).some((c) => c.includes('Allowed once from the notification')));
    // Undoable like the user's own edit: one Undo in the editor takes the whole agent edit back.
    await vscode.window.showTextDocument(editor.document, { preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    await waitFor('undo restored the text', () => editor.document.getText() === FILE_TEXT);
    await vscode.commands.executeCommand('workbench.action.files.save');
    await waitFor('saved after undo', () => !editor.document.isDirty && fs.readFileSync(file, 'utf8') === FILE_TEXT);

    await clearNotifications();
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, `edit:${FILE} once more`);
    const second = await pendingApproval(a, runKey);
    await decideFromNotification('Deny');
    await waitFor('the denied turn', () => endedTurns(a, runKey, 'completed').length === 3, 30000);
    assert.equal(a.store.state.approvals.get(second)?.decision, 'deny');
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT, 'denied: the file is unchanged');
    assert.equal(editor.document.getText(), FILE_TEXT);
    const denied = itemsOf(a, runKey).filter((i) => i.kind === 'tool').at(-1);
    assert.ok(denied?.kind === 'tool' && denied.status === 'failed', JSON.stringify(denied));
    assert.match(answerText(a, runKey), /The edit was rejected/);
    await vscode.commands.executeCommand('notifications.hideList');
    await waitFor('the denial on its card', async () => (await webviewTexts('.approval-card')).some((c) => c.includes('Denied from the notification')));
  });

  test('Stop in the composer cancels a turn mid-stream', async () => {
    const a = await api();
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, 'slow story please');
    await waitFor('streaming', () => answerText(a, runKey).includes('chunk 3 '), 20000);
    const stopAt = Date.now();
    await ui({ action: 'click', selector: '#composer-stop', webview: true });
    await waitFor('the turn cancelled', () => endedTurns(a, runKey, 'cancelled').length === 1, 10000);
    const took = Date.now() - stopAt;
    assert.equal(endedTurns(a, runKey, 'cancelled')[0]!.code, 'cancelled');
    assert.ok(!answerText(a, runKey).includes('chunk 100 '), 'the stream stopped before its end');
    await waitFor('idle', () => a.store.state.runs.get(runKey)?.state === 'idle');
    const cancels = (await traceOf(NAME)).filter((l) => l.dir === 'out' && l.frame.method === 'session/cancel');
    assert.equal(cancels.length, 1, 'one session/cancel');
    console.log(`ACP reference: Stop → cancelled in ${took} ms`);
  });

  test('Show diff of a one-line edit in the middle of a long file: that line changes, the other 199 do not', async () => {
    const a = await api();
    const long = path.join(workspaceDir(), LONG_FILE);
    fs.writeFileSync(long, LONG_LINES.join(''));
    await clearNotifications();
    const key = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt: `edit:${LONG_FILE}:100 please` })) as string;
    const approvalKey = await pendingApproval(a, key);
    // The notification offers Show diff exactly when the card does (one rule: the card's hasDiff).
    await decideFromNotification('Show diff');
    const tab = await waitFor('the proposal diff', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME),
    );
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.fsPath, long, 'compared with the file itself');
    const proposed = (await vscode.workspace.openTextDocument(input.modified)).getText();
    const expected = [...LONG_LINES.slice(0, 99), REPLACED_100, ...LONG_LINES.slice(100)].join('');
    assert.equal(proposed, expected, 'the whole file with line 100 replaced, nothing deleted');
    await vscode.commands.executeCommand('notifications.hideList');
    await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
    assert.equal(await ui<number>({ action: 'count', selector: '.monaco-diff-editor .editor.modified .line-insert' }), 1, 'one inserted line shown');
    assert.equal(await ui<number>({ action: 'count', selector: '.monaco-diff-editor .editor.original .line-delete' }), 1, 'one deleted line shown');
    await screenshot('acp-approval-long-file-diff.png');
    await vscode.commands.executeCommand('agentSwitchboard.decideApproval', approvalKey, 'allow_once');
    await waitFor('the edit turn', () => endedTurns(a, key, 'completed').length === 1, 30000);
    assert.equal(fs.readFileSync(long, 'utf8'), expected, 'what was shown is what was written');

    // A region the file has twice cannot be placed: the title says so and the diff is the region alone.
    const twice = 'export const same = 1;\nexport const same = 1;\n';
    // Edited in the editor, as a person would (the agent and the proposal read the file as the editor has it; a
    // write to disk behind an open document reaches it only when a file watcher reports it, which may be late).
    const doc = await vscode.workspace.openTextDocument(long);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), twice);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', key, `edit:${LONG_FILE}:2 please`);
    const ambiguous = await pendingApproval(a, key);
    assert.match(a.store.state.approvals.get(ambiguous)?.title ?? '', /the agent's proposed region does not match the current file$/);
    await vscode.commands.executeCommand('agentSwitchboard.showApprovalDiff', ambiguous);
    const regionTab = await waitFor('the region diff', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === PROPOSAL_SCHEME && t.label.includes('does not match')),
    );
    const region = regionTab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(region.original)).getText(), 'export const same = 1;\n', 'the left side is the region, not the file');
    assert.equal((await vscode.workspace.openTextDocument(region.modified)).getText(), 'Edited line 2 by the reference ACP agent.\n');
    await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
    await screenshot('acp-approval-region-mismatch.png');
    await vscode.commands.executeCommand('agentSwitchboard.decideApproval', ambiguous, 'deny');
    await waitFor('the denied turn', () => endedTurns(a, key, 'completed').length === 2, 30000);
  });

  test('the mode action from the palette: with arguments, then through its quick pick', async () => {
    const a = await api();
    const done = await vscode.commands.executeCommand('agentSwitchboard.acp.setMode', runKey, { mode: 'auto' });
    assert.notEqual(done, false, 'the action ran');
    // The run's model field reads "<model> · <mode>" (acpSessionStore.ts publishSessionState).
    // A mode that acts without asking says so with the run (drivers/acp/autonomousModes.ts).
    await waitFor('the mode shown with the run', () => a.store.state.runs.get(runKey)?.model === 'ref-small · Auto-edit ⚠ edits files without asking');
    // The agent applies edits without asking in its auto mode: the mode reached it.
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', runKey, `edit:${FILE} in auto mode`);
    await waitFor('the auto edit turn', () => endedTurns(a, runKey, 'completed').length === 4, 30000);
    assert.equal(a.store.state.runs.get(runKey)?.pendingApprovals.length, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT + EDIT_LINE, 'edited without a permission request');

    const picked = vscode.commands.executeCommand('agentSwitchboard.acp.setMode', runKey);
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: 'Plan only' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: '⚠ The agent edits files without asking' });
    await screenshot('acp-mode-pick.png');
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Plan only' });
    assert.notEqual(await picked, false);
    await waitFor('plan mode', () => a.store.state.runs.get(runKey)?.model === 'ref-small · Plan');
    const modes = (await traceOf(NAME)).filter((l) => l.dir === 'out' && l.frame.method === 'session/set_mode').map((l) => (l.frame.params as { modeId: string }).modeId);
    assert.deepEqual(modes, ['auto', 'plan']);
  });

  test('Disconnect stops the agent: no process of it is left; the trace holds its messages', async () => {
    const a = await api();
    const pid = await agentProcess(fixturePath('acp'));
    await vscode.commands.executeCommand('agentSwitchboard.disconnect', CONNECTION);
    await waitFor('disconnected', () => a.store.state.connections.get(CONNECTION)?.state.kind !== 'connected');
    await groupGone(pid);
    assert.deepEqual(
      (await traceOf(NAME)).filter((l) => l.protocol !== 'acp'),
      [],
      'every line is traced as "acp"',
    );
    const out = new Set((await traceOf(NAME)).filter((l) => l.dir === 'out').map((l) => l.frame.method));
    for (const method of ['initialize', 'session/new', 'session/prompt', 'session/cancel', 'session/set_mode']) {
      assert.ok(out.has(method), `${method} is in the trace`);
    }
  });
});
