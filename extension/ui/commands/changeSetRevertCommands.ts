/**
 * Revert an agent's edits: the whole run, a file or chosen hunks. Agents that write the disk themselves (Claude
 * Code, Codex) leave edits no Undo knows; the run's local change set (computed by the editor from git snapshots)
 * has them. Its reverse (changeSets/patchReverse.ts) is written like any change set — checked against the files as
 * they are now (all or nothing), protected files named, one WorkspaceEdit so Undo brings the agent's version back
 * — after a modal that says what will be rewritten. Only for local change sets: a daemon's change set (A3S) was never
 * on disk until the person applied it, and Undo reverts that apply. Afterwards the change set is computed again.
 */
import * as vscode from 'vscode';
import { reversePatchFile } from '../../changeSets/patchReverse';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { FileSelection } from '../changeSets/applyPlan';
import { fileLabel, hunksSelectable } from '../changeSets/changeSetFiles';
import type { ProtectedPathPrompts } from '../protectedPathPrompts';
import type { ReadyChangeSet, WriteWording } from './changeSetSelection';
import { apply, pickFile, pickHunks, readyChangeSet } from './changeSetSelection';
import type { CommandContext } from './commandContext';

const REVERT_WORDING: WriteWording = { done: 'Reverted', nothing: 'reverted', source: 'of the run' };

/** The change set turned around (files, and trees swapped so "already reverted" is recognised), or why not. */
function reversed(cs: ReadyChangeSet): ReadyChangeSet | string {
  if (cs.info.source !== 'local') {
    return `The change set of "${cs.run.title}" comes from the daemon and is not in your files unless you applied it: Undo reverts an apply.`;
  }
  const files = cs.files.map(reversePatchFile);
  const copied = cs.files.filter((_, i) => files[i] === undefined).map(fileLabel);
  if (copied.length > 0) {
    return `${copied.join(', ')} ${copied.length === 1 ? 'is a copy' : 'are copies'}: delete ${copied.length === 1 ? 'it' : 'them'} by hand to revert.`;
  }
  const { baseTree, resultTree, ...rest } = cs.info;
  return { run: cs.run, files: files as PatchFile[], info: { ...rest, ...(resultTree ? { baseTree: resultTree } : {}), ...(baseTree ? { resultTree: baseTree } : {}) } };
}

async function revert(ctx: CommandContext, prompts: ProtectedPathPrompts, cs: ReadyChangeSet, selection: readonly FileSelection[], what: string, confirmed: unknown): Promise<unknown> {
  const back = reversed(cs);
  if (typeof back === 'string') {
    void vscode.window.showInformationMessage(back);
    return undefined;
  }
  // Automation and tests pass `true` (the command was the decision); a person is asked first.
  if (confirmed !== true) {
    const answer = await vscode.window.showWarningMessage(
      `Revert ${what} of "${cs.run.title}"?`,
      { modal: true, detail: 'The files get back the text they had before the agent changed them. Your unsaved edits in them stay; Undo brings the agent\'s version back.' },
      'Revert',
    );
    if (answer !== 'Revert') {
      return undefined;
    }
  }
  const outcome = await apply(ctx, prompts, back, selection, REVERT_WORDING);
  if (outcome && outcome.applied.length > 0) {
    await ctx.connections.driver(cs.run.connectionId)?.refreshChangeSet?.(cs.run.runId);
  }
  return outcome;
}

export function registerChangeSetRevertCommands(ctx: CommandContext, prompts: ProtectedPathPrompts): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentSwitchboard.revertChangeSet', async (target?: unknown, _entry?: unknown, confirmed?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      return cs && revert(ctx, prompts, cs, cs.files.map((_, index) => ({ index })), `the agent's changes to ${cs.files.length === 1 ? fileLabel(cs.files[0]!) : `${cs.files.length} files`}`, confirmed);
    }),
    vscode.commands.registerCommand('agentSwitchboard.revertChangeSetFile', async (target?: unknown, fileRef?: unknown, confirmed?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Revert which file?', (f) => !f.binary));
      return cs && index !== undefined ? revert(ctx, prompts, cs, [{ index }], `the agent's changes to ${fileLabel(cs.files[index]!)}`, confirmed) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.revertChangeSetHunks', async (target?: unknown, fileRef?: unknown, hunks?: unknown, confirmed?: unknown) => {
      const cs = await readyChangeSet(ctx, target);
      const index = cs && (await pickFile(cs, fileRef, 'Revert hunks of which file?', hunksSelectable));
      if (!cs || index === undefined) {
        return undefined;
      }
      const file = cs.files[index]!;
      if (!hunksSelectable(file)) {
        void vscode.window.showInformationMessage(`${fileLabel(file)} is reverted as a whole: use Revert File.`);
        return undefined;
      }
      const selected = await pickHunks(file, hunks, 'revert');
      const count = selected?.length ?? 0;
      return selected ? revert(ctx, prompts, cs, [{ index, hunks: selected }], `${count} hunk${count === 1 ? '' : 's'} of ${fileLabel(file)}`, confirmed) : undefined;
    }),
  ];
}
