/**
 * A3S end to end in a real VS Code: the reference harness works in the test workspace (a git repository), a run
 * started from the palette yields a verified change set, "Open All Changes" shows it in the multi-diff editor, and
 * Apply (one file, then per hunk) writes through one undoable workspace edit — refusing, all or nothing, while the
 * workspace already holds the run's edits.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { PatchHunk } from '../../extension/changeSets/patchTypes';
import type { ApplyOutcome } from '../../extension/ui/changeSets/changeSetApply';
import { readChangeSet } from '../../extension/ui/changeSets/changeSetReading';
import { runPanelsOf } from '../../extension/ui/runPanels';
import { api, CONNECTIONS_ROWS, screenshot, setConnections, startFixture, ui, waitFor, workspaceDir } from './support';

const CONNECTION = 'a3s:A3S';
const RELEASE = `sha256:${'1'.repeat(64)}`;
/** Files the harness seeds (--git-init) or creates (`edit`); removed again after the suite. */
const HARNESS_FILES = ['a3s-delete-me.txt', 'a3s-rename-me.txt', 'a3s-renamed.txt', 'a3s-crlf.txt', 'a3s-created.txt', 'a3s-blob.bin', 'a3s-long.txt', 'notes'];
/** The harness's `edit` changes this file in three regions far apart: three hunks (test/fixtures/a3s/harnessGit.ts). */
const LONG = 'a3s-long.txt';

/** `text` with only the hunks at `selected` applied, spliced line by line from the parsed patch (the test's own oracle). */
function withHunks(text: string, hunks: readonly PatchHunk[], selected: readonly number[]): string {
  const lines = text.split(/(?<=\n)/);
  // From the last hunk up, so the earlier hunks' line numbers still hold.
  for (const index of [...selected].sort((x, y) => y - x)) {
    const hunk = hunks[index]!;
    const after = hunk.lines.flatMap((l) => (l.kind === 'context' || l.kind === 'add' ? [`${l.text}\n`] : []));
    lines.splice(hunk.oldStart - 1, hunk.oldLines, ...after);
  }
  return lines.join('');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function gitBlob(tree: string, file: string): string {
  return execFileSync('git', ['cat-file', 'blob', `${tree.replace(/^git-tree:/, '')}:${file}`], { cwd: workspaceDir() }).toString('utf8');
}

function multiDiffTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => {
    const input = t.input as { textDiffs?: unknown } | undefined;
    return input !== null && typeof input === 'object' && Array.isArray(input.textDiffs);
  });
}

suite('A3S', () => {
  let harness: ChildProcess | undefined;
  let runKey = '';

  suiteSetup(async () => {
    const port = await freePort();
    harness = startFixture('a3s', ['--port', String(port), '--workspace', workspaceDir(), '--git-init', '--release', RELEASE, '--step-ms', '10', '--capture-ms', '100']);
    const url = `http://127.0.0.1:${port}`;
    await waitFor('the harness', async () => (await fetch(`${url}/health/ready`).then((r) => r.status === 200).catch(() => false)) || undefined);
    const a = await api();
    await setConnections([{ name: 'A3S', protocol: 'a3s', url, releaseIdentity: RELEASE }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setConnections([]);
    harness?.kill('SIGTERM');
    const dir = workspaceDir();
    for (const f of HARNESS_FILES) {
      fs.rmSync(path.join(dir, f), { recursive: true, force: true });
    }
    execFileSync('git', ['checkout', '-q', '--', 'README.md'], { cwd: dir });
  });

  test('a run with edits yields a verified change set, shown in the multi-diff editor', async () => {
    const a = await api();
    runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
      connectionId: CONNECTION,
      model: '',
      permission: 'edit',
      prompt: 'edit the workspace files',
    })) as string;
    assert.ok(runKey, 'the command returns the new run');
    await waitFor('completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
    const cs = await waitFor('a ready change set', () => {
      const c = a.store.state.changeSets.get(runKey);
      return c?.status === 'ready' ? c : undefined;
    });
    assert.equal(cs.source, 'daemon');
    assert.match(cs.patch ?? '', /diff --git a\/README\.md b\/README\.md/);
    // Derived from the change set when the view reads the run's panels; never stored in the run. It says "Reading
    // the change set…" (no entries) until the patch is read in slices.
    const panel = await waitFor('the change-set panel, read', () => runPanelsOf(a.store.state, runKey).find((p) => p.id === 'changeSet' && p.entries.length > 0));
    assert.ok(panel.entries.some((e) => e.label === 'a3s-rename-me.txt → a3s-renamed.txt'), panel.entries.map((e) => e.label).join(' | '));

    // The harness edited this very workspace: applying again is refused as a whole, naming every file.
    const readme = path.join(workspaceDir(), 'README.md');
    const edited = fs.readFileSync(readme, 'utf8');
    const refused = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSet', runKey)) as ApplyOutcome;
    assert.deepEqual(refused.applied, []);
    const problems = new Map(refused.problems.map((p) => [p.path, p.reason]));
    assert.match(problems.get('README.md') ?? '', /already contains these changes/);
    assert.match(problems.get('a3s-blob.bin') ?? '', /binary/);
    assert.equal(fs.readFileSync(readme, 'utf8'), edited, 'nothing was written');

    const count = (await vscode.commands.executeCommand('agentSwitchboard.openAllChanges', runKey)) as number;
    const tab = await waitFor('the multi-diff editor', multiDiffTab);
    const diffs = (tab.input as { textDiffs: vscode.TabInputTextDiff[] }).textDiffs;
    // The tab lists the entries with two sides; added and deleted files show as one-sided entries.
    const files = await readChangeSet(cs);
    assert.ok(files.ok && files.files.length === count);
    assert.equal(diffs.length, files.ok ? files.files.filter((f) => f.status !== 'added' && f.status !== 'deleted').length : -1);
    const readmeDiff = diffs.find((d) => d.modified.path.endsWith('/README.md'));
    assert.ok(readmeDiff, 'README.md is in the multi-diff editor');
    assert.equal((await vscode.workspace.openTextDocument(readmeDiff.original)).getText(), gitBlob(cs.baseTree!, 'README.md'), 'left = the base tree from git');
    assert.equal((await vscode.workspace.openTextDocument(readmeDiff.modified)).getText(), edited, 'right = the result');
    await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
    await new Promise((r) => setTimeout(r, 1000));
    await screenshot('a3s-multidiff.png');
  });

  test('Apply one file, Undo restores it, then apply per hunk', async () => {
    const a = await api();
    const cs = a.store.state.changeSets.get(runKey)!;
    const base = gitBlob(cs.baseTree!, 'README.md');
    const result = gitBlob(cs.resultTree!, 'README.md');
    assert.notEqual(base, result);
    // As if the harness had worked on another checkout: this workspace is back at the run's base.
    const uri = vscode.Uri.file(path.join(workspaceDir(), 'README.md'));
    fs.writeFileSync(uri.fsPath, base);
    const doc = await vscode.workspace.openTextDocument(uri);
    await waitFor('the document reloaded', () => doc.getText() === base);

    const applied = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSetFile', runKey, 'README.md')) as ApplyOutcome;
    assert.deepEqual([applied.applied, applied.problems], [['README.md'], []]);
    assert.equal(doc.getText(), result);
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), result, 'saved to disk');

    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo restores the file', () => doc.getText() === base);

    const readmeEntry = runPanelsOf(a.store.state, runKey).find((p) => p.id === 'changeSet')?.entries.find((e) => e.label === 'README.md');
    assert.deepEqual(readmeEntry?.actions.map((x) => x.id), ['openDiff', 'applyFile', 'applyHunks']);
    const readmeHunk = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSetHunks', runKey, readmeEntry!.id, [0])) as ApplyOutcome;
    assert.deepEqual(readmeHunk.applied, ['README.md']);
    assert.equal(doc.getText(), result);

    // Per hunk: the long file, edited in three regions far apart, back at the run's base; the first and the last
    // hunk applied, the middle one not.
    const longBase = gitBlob(cs.baseTree!, LONG);
    const longResult = gitBlob(cs.resultTree!, LONG);
    const parsed = await readChangeSet(cs);
    const longHunks = (parsed.ok ? parsed.files : []).find((f) => f.newPath === LONG)?.hunks ?? [];
    assert.equal(longHunks.length, 3, 'three hunks');
    const longUri = vscode.Uri.file(path.join(workspaceDir(), LONG));
    fs.writeFileSync(longUri.fsPath, longBase);
    const longDoc = await vscode.workspace.openTextDocument(longUri);
    await waitFor('the long file reloaded', () => longDoc.getText() === longBase);
    const file = runPanelsOf(a.store.state, runKey).find((p) => p.id === 'changeSet')?.entries.find((e) => e.label === LONG);
    assert.deepEqual(file?.actions.map((x) => x.id), ['openDiff', 'applyFile', 'applyHunks']);
    const hunks = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSetHunks', runKey, file!.id, [0, 2])) as ApplyOutcome;
    assert.deepEqual([hunks.applied, hunks.problems], [[LONG], []]);
    const expected = withHunks(longBase, longHunks, [0, 2]);
    assert.notEqual(expected, longBase);
    assert.notEqual(expected, longResult);
    assert.equal(longDoc.getText(), expected, 'the first and last hunks applied, the middle one not');
    assert.match(longDoc.getText(), /^line 3, rewritten by run /m, 'the first hunk applied');
    assert.match(longDoc.getText(), /^line 37, rewritten by run /m, 'the last hunk applied');
    assert.match(longDoc.getText(), /^line 20 of the long file$/m, 'the middle hunk (removing line 20) not applied');
    assert.equal(fs.readFileSync(longUri.fsPath, 'utf8'), expected, 'saved to disk');
    // The middle hunk alone afterwards: now the whole result.
    const middle = (await vscode.commands.executeCommand('agentSwitchboard.applyChangeSetHunks', runKey, file!.id, [1])) as ApplyOutcome;
    assert.deepEqual([middle.applied, middle.problems], [[LONG], []]);
    assert.equal(longDoc.getText(), longResult, 'with the middle hunk too, the run’s result');
    await doc.save();
    await vscode.commands.executeCommand('agentSwitchboard.openChangeSetFileDiff', runKey, 'README.md');
    await waitFor('a file diff', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'agent-switchboard-changes'));
    await ui({ action: 'waitFor', selector: '.monaco-diff-editor .view-line' });
    await screenshot('a3s-file-diff.png');
  });

  test('"Show Change Set" renders the files and the diff in the transcript view', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSwitchboard.showChangeSet', runKey);
    const names = await waitFor('the change-set file list in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '#cs-files .cs-file-name', webview: true }).catch((): string[] => []);
      return t.includes('README.md') ? t : undefined;
    });
    assert.ok(names.includes('a3s-renamed.txt'), names.join(' | '));
    const lines = await ui<string[]>({ action: 'text', selector: '#cs-diff .cs-line', webview: true });
    assert.ok(lines.length > 0, 'diff lines are rendered');
    await screenshot('a3s-changeset-webview.png');

    // "Open in diff editor" on a file of the list: the webview asks the host, which opens the native diff.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ui({ action: 'click', selector: '#cs-files .cs-file-entry:has-text("README.md") .cs-open-file', webview: true });
    await waitFor('the README.md diff', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.path.endsWith('README.md')));
    await ui({ action: 'click', selector: '#cs-back', webview: true });
    await ui({ action: 'waitFor', selector: '#transcript', webview: true });
  });

  test('a change set that fails its digest check is an error on the run row and in the panel', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // `baddigest`: the harness delivers the change set with the digest of other bytes.
    const badKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, model: '', permission: 'edit', prompt: 'baddigest check' })) as string;
    await waitFor('completed', () => a.store.state.runs.get(badKey)?.state === 'completed', 30000);
    const cs = await waitFor('a refused change set', () => {
      const c = a.store.state.changeSets.get(badKey);
      return c?.status === 'refused' ? c : undefined;
    });
    assert.match(cs.reason ?? '', /digest/i);
    const panel = runPanelsOf(a.store.state, badKey).find((p) => p.id === 'changeSet');
    assert.equal(panel?.tone, 'error');

    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    const row = await waitFor('the run row saying the change set was refused', async () => {
      const rows = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS, hasText: 'baddigest' }).catch((): string[] => []);
      return rows.find((r) => r.includes('change set refused'));
    });
    assert.doesNotMatch(row, /completed/, `a run whose result failed verification is not "completed" on its row: ${row}`);
    // The board says the same: not Done ✓ but a failure, under Needs you until looked at.
    const boardRow = await waitFor('the board row', () => a.board.provider.snapshot().flatMap((g) => g.rows).find((r) => r.runKey === badKey));
    assert.equal(a.board.provider.groupOf(badKey), 'needsYou');
    assert.equal(boardRow.need, 'failed');
    assert.match(boardRow.look.changeSetRefused ?? '', /digest/i);
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', badKey);
    // And the transcript header: "Change set refused", never "Completed".
    const header = await waitFor('the header state', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '#run-state', webview: true }).catch((): string[] => []);
      return t[0]?.includes('Change set refused') ? t[0] : undefined;
    });
    assert.doesNotMatch(header, /Completed/);
    const title = await waitFor('the change-set panel as an error', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-panel-id="changeSet"] .panel-title-error', webview: true }).catch((): string[] => []);
      return t.length > 0 ? t : undefined;
    });
    assert.match(title.join(' '), /Change set/);
    const empty = await ui<string[]>({ action: 'text', selector: '[data-panel-id="changeSet"] .panel-error', webview: true });
    assert.match(empty.join(' '), /Refused: .*digest/i);
    await screenshot('a3s-refused-change-set.png');
  });
});
