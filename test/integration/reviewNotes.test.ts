/**
 * Notes to the agent (issue #26) in a real VS Code with the reference ACP agent: after an edit of the agent, a note
 * written on a line of the run's change set in the transcript view (its line number clicked, *Add note*, the inline
 * editor), a second one from the native diff editor's right-hand side (*Add Note for Agent* on the selection), both
 * kept beside the run's files; then *Send notes*: the agent receives ONE prompt holding both, each with its
 * `path:line` and its text, and the notes are cleared once it was accepted.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { safeFileName } from '../../extension/storage/runFileName';
import { api, testHooks, ui, waitFor, workspaceDir } from './support';
import { wideSidebarScreenshot } from './screenshotFraming';
import { connectReferenceAgent, endedTurns, pendingApproval, removeConnections, setViewExpanded, traceOf, webviewTexts } from './acpSupport';

const NAME = 'ACP notes';
const CONNECTION = `acp:${NAME}`;
const FILE = 'notes-to-agent.md';
const FILE_TEXT = '# Notes to the agent\n\nFirst line kept.\nSecond line kept.\n';
/** What the reference agent's edit appends (test/fixtures/acp/editTool.ts EDIT_LINE): new-side line 5. */
const EDIT_LINE = 'Edited by the reference ACP agent.';
const WEBVIEW_NOTE = 'Say who edited it <b>and why</b>.';
const EDITOR_NOTE = 'Keep these two lines as they are.';

suite('Notes to the agent', () => {
  let stateDir: string;
  let runKey: string;
  let file: string;
  let runsWasExpanded = true;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-notes-'));
    file = path.join(workspaceDir(), FILE);
    fs.writeFileSync(file, FILE_TEXT);
    await connectReferenceAgent(NAME, stateDir);
    await setViewExpanded('Connections', false);
    runsWasExpanded = await setViewExpanded('Runs', false); // room for the diff and its notes in the screenshot
  });

  suiteTeardown(async () => {
    await setViewExpanded('Connections', true);
    await setViewExpanded('Runs', runsWasExpanded);
    await removeConnections([NAME]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('a note on a change-set line and one from the native diff reach the agent as one message with path:line', async () => {
    const a = await api();
    runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: '', prompt: `edit:${FILE} please` })) as string;
    const approvalKey = await pendingApproval(a, runKey);
    await vscode.commands.executeCommand('agentSwitchboard.decideApproval', approvalKey, 'allow_once');
    await waitFor('the edit turn', () => endedTurns(a, runKey, 'completed').length === 1, 30000);
    await waitFor('the local change set with the edit', () => a.store.state.changeSets.get(runKey)?.patch?.includes(EDIT_LINE), 15000);

    // The change set in the transcript view: click the added line's number, Add note, write, save.
    await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', runKey);
    await ui({ action: 'waitFor', selector: '#cs-diff .cs-add', hasText: EDIT_LINE, webview: true });
    await ui({ action: 'click', selector: '#cs-diff .cs-add:has-text("Edited by the reference") .cs-gutter', webview: true });
    await waitFor('the line selected', async () => (await webviewTexts('#cs-notes-status'))[0]?.startsWith(`1 line selected (${FILE}:5)`));
    await ui({ action: 'click', selector: '#cs-add-note', webview: true });
    await ui({ action: 'fill', selector: '.cs-note-editor .cs-note-input', value: WEBVIEW_NOTE, webview: true });
    await ui({ action: 'click', selector: '.cs-note-editor .cs-note-save', webview: true });
    await waitFor('the note under its line', async () => (await webviewTexts('.cs-note-card .cs-note-body')).includes(WEBVIEW_NOTE));
    assert.deepEqual(await webviewTexts('.cs-note-card .cs-note-place'), [`${FILE}:5`]);

    // Kept beside the run's files (Remove Run deletes it with them).
    const run = a.store.state.runs.get(runKey)!;
    const notesFile = path.join((await testHooks()).storageDir, 'transcripts', safeFileName(run.connectionId), `${safeFileName(run.runId)}.notes.json`);
    await waitFor('the notes file', () => fs.existsSync(notesFile) && fs.readFileSync(notesFile, 'utf8').includes('and why'));

    // The native diff of the file: select lines 3-4 on its right-hand side, Add Note for Agent (its text given).
    await vscode.commands.executeCommand('agentSwitchboard.openChangeSetFileDiff', runKey, FILE);
    const editor = await waitFor('the after side active', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'agent-switchboard-changes' && new URLSearchParams(e.document.uri.query).get('side') === 'after' && e;
    });
    editor.selection = new vscode.Selection(2, 0, 3, 4);
    const noteId = await vscode.commands.executeCommand('agentSwitchboard.addNoteForAgent', EDITOR_NOTE);
    assert.equal(typeof noteId, 'string', 'the note was kept');
    await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', runKey);
    await waitFor('both notes in the view', async () => (await webviewTexts('.cs-note-card .cs-note-place')).length === 2);
    assert.deepEqual(await webviewTexts('.cs-note-card .cs-note-place'), [`${FILE}:3-4`, `${FILE}:5`]);
    assert.match((await webviewTexts('#cs-notes-status'))[0] ?? '', /2 notes/);
    // The notes, at the end of the diff, in view; the sidebar wide enough for the diff's lines.
    await wideSidebarScreenshot('notes-to-agent.png', async () => {
      await ui({ action: 'press', selector: '#cs-diff', value: 'End', webview: true });
    });

    // Send notes: one prompt with both, each with its place, quoted lines and text; then the notes are gone.
    const promptsBefore = (await traceOf(NAME)).filter((l) => l.dir === 'out' && l.frame.method === 'session/prompt').length;
    await ui({ action: 'click', selector: '#cs-send-notes', webview: true });
    await waitFor('the notes turn', () => endedTurns(a, runKey, 'completed').length === 2, 30000);
    const prompts = (await traceOf(NAME)).filter((l) => l.dir === 'out' && l.frame.method === 'session/prompt');
    assert.equal(prompts.length, promptsBefore + 1, 'one message');
    const sent = JSON.stringify(prompts.at(-1)!.frame);
    const text = JSON.parse(sent).params.prompt.map((p: { text?: string }) => p.text ?? '').join('');
    assert.ok(text.startsWith('2 review notes on your changes:'), text);
    assert.ok(text.includes(`${FILE}:3-4\n\`\`\`diff\n First line kept.\n Second line kept.\n\`\`\`\n${EDITOR_NOTE}`), text);
    assert.ok(text.includes(`${FILE}:5\n\`\`\`diff\n+${EDIT_LINE}\n\`\`\`\n${WEBVIEW_NOTE}`), text);
    await waitFor('the notes cleared in the view', async () => (await ui<number>({ action: 'count', selector: '.cs-note-card', webview: true })) === 0);
    await waitFor('and on disk', () => !fs.existsSync(notesFile));
  });
});
