/**
 * Change sets, for every daemon (A3S sends them; the editor computes local ones for the others): the run's
 * "changeSet" side panel, the multi-diff editor, per-file diffs, all-or-nothing Apply (whole, per file, per hunk)
 * as one undoable workspace edit, and the patch itself (copy, save). Every command takes the run as a tree node or
 * run key (else the selected run, else a pick), and file commands a file index or path (else a pick), then calls
 * the services the change-set panel calls too (ChangeSetViews, ChangeSetEdits).
 */
import * as vscode from 'vscode';
import { hunksSelectable } from '../changeSets/changeSetFiles';
import { givenHunks, pickFile, readyChangeSet, runOf } from './changeSetSelection';
import type { CommandContext } from './commandContext';

export function registerChangeSetCommands(ctx: CommandContext): vscode.Disposable[] {
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
      return cs && ctx.changeSetEdits.applyAll(cs);
    }),
    vscode.commands.registerCommand('agentSwitchboard.applyChangeSetFile', async (target?: unknown, fileRef?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Apply which file?', (f) => !f.binary));
      return cs && index !== undefined ? ctx.changeSetEdits.applyFile(cs, index) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.applyChangeSetHunks', async (target?: unknown, fileRef?: unknown, hunks?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Apply hunks of which file?', hunksSelectable));
      return cs && index !== undefined ? ctx.changeSetEdits.applyHunks(cs, index, givenHunks(hunks)) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.copyChangeSetPatch', async (target?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      if (cs) {
        await ctx.changeSetEdits.copyPatch(cs);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.saveChangeSetPatch', async (target?: unknown, destination?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      return cs && ctx.changeSetEdits.savePatch(cs, destination instanceof vscode.Uri ? destination : undefined);
    }),
  ];
}
