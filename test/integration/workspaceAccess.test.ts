/**
 * WorkspaceAccess in a real VS Code (what an ACP agent's `fs/read_text_file` and `fs/write_text_file` reach): reads
 * serve an open document's buffer with its unsaved edits, line/limit pick lines, a write is one undoable edit and is
 * saved, a new file (and its folders) is created, and nothing outside the workspace folders is read or written — an
 * absolute path elsewhere, `../`, or a symlink pointing out. The instance tested is the one the extension hands to
 * every driver (the test hooks' `workspace`).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { WorkspaceAccess, WorkspaceAccessError } from '../../extension/drivers/kit/workspaceAccess';
import { testHooks, screenshot, waitFor, workspaceDir } from './support';

/** The bundle has its own copy of the error class, so the reason is checked by name and field, not `instanceof`. */
function refusedFor(reason: WorkspaceAccessError['reason']) {
  return (error: unknown): boolean => error instanceof Error && error.name === 'WorkspaceAccessError' && (error as WorkspaceAccessError).reason === reason;
}

suite('workspaceAccess', () => {
  let access: WorkspaceAccess;
  let dir: string;
  let outside: string;

  suiteSetup(async () => {
    access = (await testHooks()).workspace;
    // A folder of its own, removed afterwards: other suites take change sets of this workspace.
    dir = path.join(workspaceDir(), 'ws-access');
    fs.mkdirSync(dir, { recursive: true });
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside the workspace\n');
    fs.symlinkSync(outside, path.join(dir, 'escape'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'secret-link.txt'));
  });

  teardown(async () => {
    // Close what a test opened, without saving (an undone write leaves its editor dirty); other suites' tabs stay.
    const ours = (uri: vscode.Uri | undefined): boolean => uri?.scheme === 'file' && uri.fsPath.startsWith(dir + path.sep);
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty && ours(d.uri))) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && ours(t.input.uri));
    await vscode.window.tabGroups.close(tabs);
  });

  suiteTeardown(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  test('roots are the workspace folders', () => {
    assert.deepEqual(access.roots(), [workspaceDir()]);
  });

  test('an open document is read from its buffer, unsaved edits included; line and limit pick lines', async () => {
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'unsaved\n'));
    assert.equal(editor.document.isDirty, true);
    assert.equal(await access.readText(file), 'one\nunsaved\ntwo\nthree\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n', 'the disk still has the saved text');
    assert.equal(await access.readText(file, 2), 'unsaved\ntwo\nthree\n');
    assert.equal(await access.readText(file, 2, 2), 'unsaved\ntwo\n');
    assert.equal(await access.readText(file, 4, 1), 'three\n');
    assert.equal(await access.readText(file, 9), '');
    await screenshot('workspace-access-unsaved-buffer.png');
  });

  test('a file that is not open is read from disk; a missing one is refused as not found', async () => {
    const file = path.join(dir, 'closed.txt');
    fs.writeFileSync(file, 'alpha\nbeta\n');
    assert.equal(
      vscode.workspace.textDocuments.some((d) => d.uri.fsPath === file),
      false,
    );
    assert.equal(await access.readText(file, 2, 1), 'beta\n');
    await assert.rejects(access.readText(path.join(dir, 'nope.txt')), refusedFor('notFound'));
  });

  test('a FIFO is refused without blocking the host (six of them: more than libuv has threads); so is a file over 16 MiB', async () => {
    const fifo = path.join(dir, 'pipe');
    const big = path.join(dir, 'big.log');
    execFileSync('mkfifo', [fifo]);
    try {
      const reads = Array.from({ length: 6 }, () => access.readText(fifo));
      for (const read of reads) {
        await assert.rejects(read, (e: unknown) => refusedFor('invalid')(e) && /named pipe/.test((e as Error).message));
      }
      fs.writeFileSync(big, '');
      fs.truncateSync(big, 16 * 1024 * 1024 + 1);
      await assert.rejects(access.readText(big), (e: unknown) => refusedFor('invalid')(e) && /at most 16 MiB/.test((e as Error).message));
    } finally {
      // Nothing else in the workspace should meet them (a change-set snapshot, the editor's watchers).
      fs.rmSync(fifo, { force: true });
      fs.rmSync(big, { force: true });
    }
    fs.writeFileSync(path.join(dir, 'after.txt'), 'still served\n');
    assert.equal(await access.readText(path.join(dir, 'after.txt')), 'still served\n', "the host's file operations go on");
  });

  test('a write replaces the text as one undoable edit and saves it', async () => {
    const file = path.join(dir, 'edit.ts');
    fs.writeFileSync(file, 'export const before = 1;\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await access.writeText(file, 'export const after = 2;\nexport const more = 3;\n');
    assert.equal(editor.document.getText(), 'export const after = 2;\nexport const more = 3;\n');
    assert.equal(editor.document.isDirty, false, 'the write was saved');
    assert.equal(fs.readFileSync(file, 'utf8'), 'export const after = 2;\nexport const more = 3;\n');
    await screenshot('workspace-access-after-write.png');

    await vscode.window.showTextDocument(editor.document, { preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to restore the text', () => editor.document.getText() === 'export const before = 1;\n');
    assert.equal(editor.document.isDirty, true, 'undo changed the buffer back (the disk keeps the saved write)');
  });

  test('a write to a file that is not open edits and saves it; a new file is created with its folders', async () => {
    const existing = path.join(dir, 'closed-edit.txt');
    fs.writeFileSync(existing, 'old\n');
    await access.writeText(existing, 'new\n');
    assert.equal(fs.readFileSync(existing, 'utf8'), 'new\n');

    const created = path.join(dir, 'made', 'by', 'agent.md');
    await access.writeText(created, '# Written by the agent\n');
    assert.equal(fs.readFileSync(created, 'utf8'), '# Written by the agent\n');
    const document = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === created);
    assert.equal(document?.isDirty ?? false, false, 'nothing is left unsaved');
  });

  test('reads and writes outside the workspace are refused: absolute elsewhere, ../, a symlink pointing out', async () => {
    const secret = path.join(outside, 'secret.txt');
    const viaDots = path.join(dir, '..', '..', path.basename(outside), 'secret.txt');
    const viaFileLink = path.join(dir, 'secret-link.txt');
    const viaDirLink = path.join(dir, 'escape', 'secret.txt');
    const plantedViaLink = path.join(dir, 'escape', 'planted.txt');
    const cases = path.dirname(workspaceDir()) === path.dirname(outside) ? [secret, viaDots, viaFileLink, viaDirLink] : [secret, viaFileLink, viaDirLink];
    for (const target of cases) {
      await assert.rejects(access.readText(target), refusedFor('outsideWorkspace'), `read ${target}`);
      await assert.rejects(access.writeText(target, 'overwritten'), refusedFor('outsideWorkspace'), `write ${target}`);
    }
    // `..` out of the workspace, whatever the temp layout.
    await assert.rejects(access.readText(`${workspaceDir()}/../${path.basename(workspaceDir())}-elsewhere/x.txt`), refusedFor('outsideWorkspace'));
    await assert.rejects(access.writeText(plantedViaLink, 'planted'), refusedFor('outsideWorkspace'));
    await assert.rejects(access.readText('relative/path.txt'), refusedFor('invalid'));
    assert.equal(fs.readFileSync(secret, 'utf8'), 'outside the workspace\n', 'the outside file is untouched');
    assert.equal(fs.existsSync(path.join(outside, 'planted.txt')), false, 'nothing was created outside');
  });
});
