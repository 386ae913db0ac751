/**
 * Change sets, for every daemon (A3S sends them; the editor computes local ones for the others): the run's
 * "changeSet" side panel, the multi-diff editor, per-file diffs, all-or-nothing Apply (whole, per file, per hunk)
 * as one undoable workspace edit, and the patch itself (copy, save). Every command takes the run as a tree node or
 * run key (else the selected run, else a pick), and file commands a file index, `file:N` or path — so panel
 * actions, menus, the palette and tests share one path.
 */
import * as vscode from 'vscode';
import { fileLabel, fileStatusText, hunksSelectable } from '../changeSets/changeSetFiles';
import { changeSetTarget } from '../changeSets/changeSetWorkspace';
import type { ProtectedPathPrompts } from '../protectedPathPrompts';
import { apply, pickFile, pickHunks, readyChangeSet, runOf } from './changeSetSelection';
import type { CommandContext } from './commandContext';

export function registerChangeSetCommands(ctx: CommandContext, prompts: ProtectedPathPrompts): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentSwitchboard.showChangeSet', async (target?: unknown) => {
      const run = await runOf(ctx, target);
      if (run) {
        await ctx.changeSets.show(run);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.openAllChanges', async (target?: unknown): Promise<number | undefined> => {
      const cs = await readyChangeSet(ctx, target);
      return cs && ctx.changeSets.openAll(cs);
    }),
    vscode.commands.registerCommand('agentSwitchboard.openChangeSetFileDiff', async (target?: unknown, fileRef?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Open the diff of which file?', () => true));
      if (cs && index !== undefined) {
        await ctx.changeSets.openFileDiff(cs, index);
      }
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
