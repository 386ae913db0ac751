/**
 * *Show diff* of an approval reads the current file for its left side — and the path comes from a daemon. It must be
 * a regular file inside the workspace folders: a path elsewhere on the machine is neither read nor opened (the left
 * side is an empty read-only document and a warning says why), and a FIFO in the workspace is refused without the
 * editor waiting on it. A file inside the workspace is still shown as itself.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { runKeyOf } from '../../extension/model/modelTypes';
import { PROPOSAL_SCHEME } from '../../extension/ui/approvals/proposalContentProvider';
import { clearNotifications } from './acpSupport';
import { api, testHooks, waitFor, workspaceDir } from './support';

const CONNECTION = 'agency-proxy:diff-sources';

suite('Approval diff sources', () => {
  let outside: string;
  let fifo: string;
  let inside: string;
  const runKey = runKeyOf(CONNECTION, 'diff-sources-run');

  suiteSetup(async () => {
    const hooks = await testHooks();
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-diff-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'a file outside the workspace\n');
    fifo = path.join(workspaceDir(), 'diff-sources.fifo');
    execFileSync('mkfifo', [fifo]);
    inside = path.join(workspaceDir(), 'diff-sources.txt');
    fs.writeFileSync(inside, 'inside the workspace\n');
    hooks.store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'diff-sources', protocol: 'agency-proxy' } });
    hooks.store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId: 'diff-sources-run', fields: { title: 'Diff sources', state: 'running' } });
  });

  suiteTeardown(async () => {
    // The suite's stand-in connection goes, with its run and its pending approvals (later suites count both), and
    // so do the notifications those approvals raised.
    const a = await api();
    const hooks = await testHooks();
    hooks.store.dispatch({ type: 'connectionRemoved', connectionId: CONNECTION });
    await waitFor('the approvals gone', () => ![...a.store.state.approvals.values()].some((x) => x.runKey === runKey));
    await clearNotifications();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(fifo, { force: true });
    fs.rmSync(inside, { force: true });
  });

  /** Requests an approval proposing `content` for `file` and opens its diff; resolves the diff tab's two sides. */
  async function showDiffOf(approvalId: string, file: string): Promise<{ original: vscode.Uri; modified: vscode.Uri }> {
    const a = await api();
    const hooks = await testHooks();
    hooks.store.dispatch({ type: 'runEvent', runKey, event: { kind: 'approvalRequested', approvalId, title: `Write ${path.basename(file)}`, detail: { path: file, content: 'proposed\n' }, options: ['allow_once', 'deny'] } });
    const approval = await waitFor('the approval', () => [...a.store.state.approvals.values()].find((x) => x.runKey === runKey && x.approvalId === approvalId));
    await vscode.commands.executeCommand('agentSwitchboard.showApprovalDiff', approval.key);
    const tab = await waitFor('the diff tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME && t.input.modified.path.includes(path.basename(file))),
    );
    const input = tab.input as vscode.TabInputTextDiff;
    return { original: input.original, modified: input.modified };
  }

  test('a path outside the workspace is neither read nor opened', async () => {
    const sides = await showDiffOf('outside', path.join(outside, 'secret.txt'));
    assert.equal(sides.original.scheme, PROPOSAL_SCHEME, 'the left side is a read-only document of ours, not the file');
    assert.equal((await vscode.workspace.openTextDocument(sides.original)).getText(), '');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath.startsWith(outside)), 'the outside file was not opened');
  });

  test('a FIFO in the workspace is refused without waiting on it', async () => {
    const sides = await showDiffOf('fifo', fifo);
    assert.equal(sides.original.scheme, PROPOSAL_SCHEME);
    assert.equal((await vscode.workspace.openTextDocument(sides.original)).getText(), '');
  });

  test('a file inside the workspace is shown as itself', async () => {
    const sides = await showDiffOf('inside', inside);
    assert.equal(sides.original.scheme, 'file');
    assert.equal(sides.original.fsPath, inside);
  });
});
