/**
 * Revert an agent's edits: the whole run, a file or chosen hunks. Agents that write the disk themselves (Claude
 * Code, Codex) leave edits no Undo knows; the run's local change set (computed by the editor from git snapshots)
 * has them. Its reverse (changeSets/patchReverse.ts) is written like any change set — checked against the files as
 * they are now (all or nothing), protected files named, one WorkspaceEdit so Undo brings the agent's version back
 * — after a modal that says what will be rewritten. Only for local change sets: a daemon's change set (A3S) was never
 * on disk until the person applied it, and Undo reverts that apply. Afterwards the change set is computed again.
 * The commands resolve their arguments and call ChangeSetEdits, as the change-set panel does.
 */
import * as vscode from 'vscode';
import { hunksSelectable } from '../changeSets/changeSetFiles';
import { givenHunks, pickFile, readyChangeSet } from './changeSetSelection';
import type { CommandContext } from './commandContext';

/** Automation and tests pass `true` (the command was the decision); anything else asks the person first. */
function confirmedArgument(confirmed: unknown): true | undefined {
  return confirmed === true ? true : undefined;
}

export function registerChangeSetRevertCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentSwitchboard.revertChangeSet', async (target?: unknown, _entry?: unknown, confirmed?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      return cs && ctx.changeSetEdits.revertAll(cs, confirmedArgument(confirmed));
    }),
    vscode.commands.registerCommand('agentSwitchboard.revertChangeSetFile', async (target?: unknown, fileRef?: unknown, confirmed?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Revert which file?', (f) => !f.binary));
      return cs && index !== undefined ? ctx.changeSetEdits.revertFile(cs, index, confirmedArgument(confirmed)) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.revertChangeSetHunks', async (target?: unknown, fileRef?: unknown, hunks?: unknown, confirmed?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Revert hunks of which file?', hunksSelectable));
      return cs && index !== undefined ? ctx.changeSetEdits.revertHunks(cs, index, givenHunks(hunks), confirmedArgument(confirmed)) : undefined;
    }),
  ];
}
