/**
 * Run worktrees (issue #26) in a real VS Code with the reference ACP agent: New Run in a worktree of its own (the
 * session's cwd is the worktree), the agent's edit lands there (written through the editor: workspace access lets
 * that run use its worktree) while the workspace file is untouched, the change set is the run's alone, the run's
 * rows carry the WT badge, *Merge Run into Workspace* brings the edit over, *Undo Run Merge* takes it back, a file
 * changed on both sides is a conflict shown in the diff editor (the merge view), and removing the run removes its
 * worktree.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { MergeSummary } from '../../extension/ui/worktrees/worktreeCommands';
import { api, screenshot, testHooks, ui, waitFor, workspaceDir } from './support';
import { clearNotifications, connectReferenceAgent, endedTurns, removeConnections, setViewExpanded } from './acpSupport';

const NAME = 'ACP worktree';
const CONNECTION = `acp:${NAME}`;
const FILE = 'worktree-notes.md';
const FILE_TEXT = '# Worktree notes\n\nKept by the Run worktrees suite.\n';
/** What the reference agent's edit appends (test/fixtures/acp/editTool.ts EDIT_LINE). */
const EDIT_LINE = 'Edited by the reference ACP agent.\n';

suite('Run worktrees', () => {
  let stateDir: string;
  let file: string;
  let runKey: string;
  let worktreePath: string;

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-acp-wt-'));
    file = path.join(workspaceDir(), FILE);
    fs.writeFileSync(file, FILE_TEXT);
    await connectReferenceAgent(NAME, stateDir);
  });

  suiteTeardown(async () => {
    (await testHooks()).setRemovalConfirmation(undefined);
    await removeConnections([NAME]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('a run in a worktree edits only its worktree; its change set is its own; its rows say WT', async () => {
    const a = await api();
    const key = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: 'auto', prompt: `Isolated edit:${FILE}`, worktree: true });
    assert.equal(typeof key, 'string', 'the run started');
    runKey = key as string;
    await waitFor('the edit turn', () => endedTurns(a, runKey, 'completed').length === 1, 60000);
    const cwdOf = (): string | undefined => a.store.state.runs.get(runKey)?.workspaceRoots?.[0];
    worktreePath = await waitFor('the run’s folder', () => cwdOf());
    assert.notEqual(path.resolve(worktreePath), path.resolve(workspaceDir()), 'the run works elsewhere than the workspace');
    assert.equal(fs.readFileSync(path.join(worktreePath, FILE), 'utf8'), FILE_TEXT + EDIT_LINE, 'the agent edited its worktree');
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT, 'the workspace file is untouched');

    const changeSet = await waitFor('the run’s change set', () => {
      const c = a.store.state.changeSets.get(runKey);
      return c?.status === 'ready' && c.patch ? c.patch : undefined;
    }, 30000);
    const files = [...changeSet.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(files, [FILE], 'exactly the run’s own change');

    // A run in the workspace beside it: its rows get no badge.
    const plain = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: 'auto', prompt: 'Plainly in the workspace', worktree: false });
    await waitFor('the plain run’s turn', () => endedTurns(a, plain as string, 'completed').length === 1, 60000);
    assert.equal(a.store.state.runs.get(plain as string)?.workspaceRoots?.[0], workspaceDir());

    await setViewExpanded('Connections', true);
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runKey);
    // The badge is the row's file decoration (drawn by a CSS rule of the decoration's class).
    const badges = (pane: string, title: string): Promise<number> =>
      ui<number>({ action: 'count', selector: `.pane:has(.pane-header:has-text("${pane}")) .pane-body .monaco-list-row:has-text("${title}") [class*="-itemBadge-"]` });
    await waitFor('the WT badge on the run’s rows (Connections and the board)', async () => (await badges('Connections', 'Isolated')) === 1 && (await badges('Runs', 'Isolated')) === 1);
    assert.equal(await badges('Connections', 'Plainly'), 0, 'a run in the workspace has no badge');
    assert.equal(await badges('Runs', 'Plainly'), 0);
    await screenshot('worktree-run-badge.png');
  });

  test('Merge Run into Workspace writes the run’s edit; Undo Run Merge takes it back', async () => {
    await clearNotifications();
    const merged = (await vscode.commands.executeCommand('agentSwitchboard.mergeRunWorktree', runKey)) as MergeSummary | undefined;
    assert.deepEqual(merged, { written: [FILE], conflicts: [], failures: [] });
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT + EDIT_LINE);
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    await waitFor('the editor shows the merged file', () => vscode.window.activeTextEditor?.document.getText() === FILE_TEXT + EDIT_LINE);
    await screenshot('worktree-merged.png');

    const restored = (await vscode.commands.executeCommand('agentSwitchboard.undoRunMerge', runKey)) as readonly string[] | undefined;
    assert.deepEqual(restored, [FILE]);
    assert.equal(fs.readFileSync(file, 'utf8'), FILE_TEXT);
    await waitFor('the editor shows the file as it was', () => vscode.window.activeTextEditor?.document.getText() === FILE_TEXT);
  });

  test('a file changed on both sides is a conflict: nothing written, the run’s file and yours side by side', async () => {
    await clearNotifications();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const mine = `${FILE_TEXT}Added in the workspace meanwhile.\n`;
    fs.writeFileSync(file, mine);
    const merged = (await vscode.commands.executeCommand('agentSwitchboard.mergeRunWorktree', runKey)) as MergeSummary | undefined;
    assert.deepEqual(merged, { written: [], conflicts: [FILE], failures: [] });
    assert.equal(fs.readFileSync(file, 'utf8'), mine, 'a conflict is not written');

    // Resolve Run Merge Conflicts…: the file, then Compare and Take Hunks (the diff editor's arrows take each hunk).
    const resolving = vscode.commands.executeCommand('agentSwitchboard.resolveRunMergeConflicts', runKey);
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: FILE });
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: FILE });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: 'Compare and Take Hunks' });
    await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row', hasText: 'Compare and Take Hunks' });
    await resolving;
    await waitFor('the diff of the run’s file and yours', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.original.fsPath === path.join(worktreePath, FILE) && input.modified.fsPath === file;
    });
    await screenshot('worktree-conflict-diff.png');
    assert.equal(fs.readFileSync(file, 'utf8'), mine, 'comparing writes nothing');

    // The conflict is still open: asked again, the choices for the file over its diff (the README's merge view).
    // From the keyboard (Enter takes the only file), the pointer moved off the list: no hover over the choices.
    const again = vscode.commands.executeCommand('agentSwitchboard.resolveRunMergeConflicts', runKey);
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: FILE });
    await ui({ action: 'press', selector: '.quick-input-widget input', value: 'Enter' });
    for (const choice of ['Compare and Take Hunks', 'Take the Run’s Version', 'Write with Conflict Markers', 'Keep Yours']) {
      await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: choice });
    }
    await ui({ action: 'hover', selector: '.part.statusbar' });
    await screenshot('worktree-merge-conflict.png');
    // Escape leaves the choices for the list of files, and Escape there ends the command.
    await ui({ action: 'press', selector: '.quick-input-widget input', value: 'Escape' });
    await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row', hasText: FILE });
    await ui({ action: 'press', selector: '.quick-input-widget input', value: 'Escape' });
    await again;
    assert.equal(fs.readFileSync(file, 'utf8'), mine, 'nothing chosen, nothing written');
  });
});

