/**
 * Change sets, for every daemon (A3S sends them; the editor computes local ones for the others): the run's
 * "changeSet" side panel, the multi-diff editor, per-file diffs, all-or-nothing Apply (whole, per file, per hunk)
 * as one undoable workspace edit, and the patch itself (copy, save). Every command takes the run as a tree node or
 * run key (else the selected run, else a pick), and file commands a file index, `file:N` or path — so panel
 * actions, menus, the palette and tests share one path.
 */
import * as vscode from 'vscode';
import { ChangeSetDocuments } from '../changeSets/changeSetDocuments';
import { fileLabel, fileStatusText, hunksSelectable, parseChangeSet } from '../changeSets/changeSetFiles';
import { changeSetMessage } from '../changeSets/changeSetWebview';
import { changeSetTarget, workspaceUri } from '../changeSets/changeSetWorkspace';
import type { ProtectedPathPrompts } from '../protectedPathPrompts';
import { apply, pickFile, pickHunks, readyChangeSet, runOf } from './changeSetSelection';
import type { CommandContext } from './commandContext';
import { isActiveRun } from './pickers';

export function registerChangeSetCommands(ctx: CommandContext, prompts: ProtectedPathPrompts): vscode.Disposable[] {
  const documents = new ChangeSetDocuments(ctx.store);

  const openAll = async (target?: unknown): Promise<number | undefined> => {
    const cs = await readyChangeSet(ctx, target);
    if (!cs) {
      return undefined;
    }
    if (cs.files.length === 0) {
      void vscode.window.showInformationMessage(`The run "${cs.run.title}" changed no files.`);
      return 0;
    }
    const where = await changeSetTarget(ctx.store, cs.run.key);
    const resources = cs.files.map((file, index) => [
      where ? workspaceUri(where, file.newPath) : documents.uriFor(cs.run.key, index, file, 'after'),
      file.status === 'added' ? undefined : documents.uriFor(cs.run.key, index, file, 'before'),
      file.status === 'deleted' ? undefined : documents.uriFor(cs.run.key, index, file, 'after'),
    ]);
    await vscode.commands.executeCommand('vscode.changes', `Changes of "${cs.run.title}"`, resources);
    return cs.files.length;
  };

  return [
    documents,
    vscode.commands.registerCommand('agentSwitchboard.showChangeSet', async (target?: unknown) => {
      const run = await runOf(ctx, target);
      if (!run) {
        return;
      }
      // A run that is still open (an interactive run waiting for input) may have changed files since the last
      // answer: recompute its editor-computed change set first, so this shows the working tree as it is now.
      if (isActiveRun(run)) {
        await ctx.connections.driver(run.connectionId)?.refreshChangeSet?.(run.runId);
      }
      ctx.selection.select(run.key);
      await ctx.transcript.reveal();
      const info = ctx.store.state.changeSets.get(run.key);
      if (info?.status === 'ready') {
        // The rendered diff in the transcript view, then (as before) the native multi-diff editor.
        const parsed = parseChangeSet(info);
        if (parsed.ok) {
          const message = changeSetMessage(run, info, parsed.files);
          ctx.transcript.showChangeSet(message);
          ctx.transcriptTabs.showChangeSet(message); // also in the run's editor tab, if it has one
        }
        await openAll(run.key);
      } else if (info) {
        void vscode.window.showWarningMessage(`The change set of "${run.title}" is ${info.status === 'capturing' ? 'still being captured' : info.status}${info.reason ? `: ${info.reason}` : '.'}`);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.openAllChanges', openAll),
    vscode.commands.registerCommand('agentSwitchboard.openChangeSetFileDiff', async (target?: unknown, fileRef?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Open the diff of which file?', () => true));
      if (!cs || index === undefined) {
        return;
      }
      const file = cs.files[index]!;
      const sides = await documents.fileSides(cs.run.key, cs.info, index);
      const note = sides && (sides.leftFrom === 'patch' || sides.rightFrom === 'patch') ? ' — partial: from the patch' : '';
      await vscode.commands.executeCommand(
        'vscode.diff',
        documents.uriFor(cs.run.key, index, file, 'before'),
        documents.uriFor(cs.run.key, index, file, 'after'),
        `${fileLabel(file)}: before ↔ after the run${note}`,
        { preview: false },
      );
    }),
    vscode.commands.registerCommand('agentSwitchboard.applyChangeSet', async (target?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      return cs && apply(ctx, prompts, cs, cs.files.map((_, index) => ({ index })));
    }),
    vscode.commands.registerCommand('agentSwitchboard.applyChangeSetFile', async (target?: unknown, fileRef?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Apply which file?', (f) => !f.binary));
      return cs && index !== undefined ? apply(ctx, prompts, cs, [{ index }]) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.applyChangeSetHunks', async (target?: unknown, fileRef?: unknown, hunks?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Apply hunks of which file?', hunksSelectable));
      if (!cs || index === undefined) {
        return undefined;
      }
      const file = cs.files[index]!;
      if (!hunksSelectable(file)) {
        void vscode.window.showInformationMessage(`${fileLabel(file)} (${fileStatusText(file)}) is applied as a whole: use Apply File.`);
        return undefined;
      }
      const selected = await pickHunks(file, hunks);
      return selected ? apply(ctx, prompts, cs, [{ index, hunks: selected }]) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.copyChangeSetPatch', async (target?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      if (cs) {
        await vscode.env.clipboard.writeText(cs.info.patch ?? '');
        void vscode.window.setStatusBarMessage('Copied the patch to the clipboard', 2000);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.saveChangeSetPatch', async (target?: unknown, destination?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      if (!cs) {
        return undefined;
      }
      const where = await changeSetTarget(ctx.store, cs.run.key);
      const defaultUri = where ? vscode.Uri.joinPath(vscode.Uri.file(where.root), `${cs.run.runId}.patch`) : undefined;
      const uri =
        destination instanceof vscode.Uri
          ? destination
          : await vscode.window.showSaveDialog({ ...(defaultUri ? { defaultUri } : {}), filters: { Patch: ['patch', 'diff'] }, saveLabel: 'Save Patch' });
      if (!uri) {
        return undefined;
      }
      await vscode.workspace.fs.writeFile(uri, Buffer.from(cs.info.patch ?? '', 'utf8'));
      void vscode.window.setStatusBarMessage(`Saved the patch to ${uri.fsPath}`, 3000);
      return uri;
    }),
  ];
}
