/**
 * Writing a change set, and the patch itself, for every surface alike: Apply (whole, a file, chosen hunks) onto the
 * workspace, Revert of an agent's edits (the reversed local change set), Copy and Save the patch. The palette commands
 * resolve their arguments (run, file, hunks) and call these; the change-set side panel calls them with the file its
 * entry stands for. Every write goes through `write`, so protected files are always named and the outcome always
 * reported the same way.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import { errorText } from '../../drivers/kit/errors';
import { reversePatchFile } from '../../changeSets/patchReverse';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { RunStore } from '../../model/runStore';
import type { ReadyChangeSet } from '../commands/changeSetSelection';
import { pickHunks } from '../commands/changeSetSelection';
import type { ProtectedPathPrompts } from '../protectedPathPrompts';
import type { FileSelection } from './applyPlan';
import type { ApplyOutcome } from './changeSetApply';
import { applyChangeSetSelection } from './changeSetApply';
import { fileLabel, fileStatusText, hunksSelectable } from './changeSetFiles';
import { changeSetTarget, findChangeSetTarget, openFolders } from './changeSetWorkspace';

/** How a write of a selection is worded: Apply (the change set onto the workspace) or Revert (an agent's edits). */
interface WriteWording {
  /** "Applied" / "Reverted". */
  readonly done: string;
  /** "applied" / "reverted", after "Nothing was". */
  readonly nothing: string;
  /** "from the change set of" / "of the run". */
  readonly source: string;
}

const APPLY_WORDING: WriteWording = { done: 'Applied', nothing: 'applied', source: 'from the change set of' };
const REVERT_WORDING: WriteWording = { done: 'Reverted', nothing: 'reverted', source: 'of the run' };

/**
 * Whether a revert was already decided: `true` from automation and tests (calling the command was the decision);
 * anything else asks the person in a modal first.
 */
export type RevertConfirmed = boolean | undefined;

/** A button on the message that reports a successful write (e.g. *Redo* after an Undo of a hunk). */
export interface FollowUp {
  readonly label: string;
  run(): Promise<unknown>;
}

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

export class ChangeSetEdits {
  constructor(
    private readonly store: RunStore,
    private readonly connections: ConnectionManager,
    private readonly prompts: ProtectedPathPrompts,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  applyAll(cs: ReadyChangeSet): Promise<ApplyOutcome | undefined> {
    return this.write(cs, cs.files.map((_, index) => ({ index })), APPLY_WORDING);
  }

  applyFile(cs: ReadyChangeSet, index: number): Promise<ApplyOutcome | undefined> {
    return this.write(cs, [{ index }], APPLY_WORDING);
  }

  /** Chosen hunks of one file; without `hunks` the person picks them. */
  async applyHunks(cs: ReadyChangeSet, index: number, hunks?: readonly number[]): Promise<ApplyOutcome | undefined> {
    const file = cs.files[index];
    if (!file) {
      return undefined;
    }
    if (!hunksSelectable(file)) {
      void vscode.window.showInformationMessage(`${fileLabel(file)} (${fileStatusText(file)}) is applied as a whole: use Apply File.`);
      return undefined;
    }
    const selected = hunks ?? (await pickHunks(file, undefined));
    return selected ? this.write(cs, [{ index, hunks: selected }], APPLY_WORDING) : undefined;
  }

  revertAll(cs: ReadyChangeSet, confirmed?: RevertConfirmed): Promise<ApplyOutcome | undefined> {
    const what = `the agent's changes to ${cs.files.length === 1 ? fileLabel(cs.files[0]!) : `${cs.files.length} files`}`;
    return this.revert(cs, cs.files.map((_, index) => ({ index })), what, confirmed);
  }

  async revertFile(cs: ReadyChangeSet, index: number, confirmed?: RevertConfirmed, followUp?: FollowUp): Promise<ApplyOutcome | undefined> {
    const file = cs.files[index];
    return file ? this.revert(cs, [{ index }], `the agent's changes to ${fileLabel(file)}`, confirmed, followUp) : undefined;
  }

  /** Chosen hunks of one file; without `hunks` the person picks them. */
  async revertHunks(cs: ReadyChangeSet, index: number, hunks?: readonly number[], confirmed?: RevertConfirmed, followUp?: FollowUp): Promise<ApplyOutcome | undefined> {
    const file = cs.files[index];
    if (!file) {
      return undefined;
    }
    if (!hunksSelectable(file)) {
      void vscode.window.showInformationMessage(`${fileLabel(file)} is reverted as a whole: use Revert File.`);
      return undefined;
    }
    const selected = hunks ?? (await pickHunks(file, undefined, 'revert'));
    const count = selected?.length ?? 0;
    return selected ? this.revert(cs, [{ index, hunks: selected }], `${count} hunk${count === 1 ? '' : 's'} of ${fileLabel(file)}`, confirmed, followUp) : undefined;
  }

  async copyPatch(cs: ReadyChangeSet): Promise<void> {
    await vscode.env.clipboard.writeText(cs.info.patch ?? '');
    void vscode.window.setStatusBarMessage('Copied the patch to the clipboard', 2000);
  }

  /** Writes the patch to `destination`, or where the person picks in a save dialog; returns where it went. */
  async savePatch(cs: ReadyChangeSet, destination?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const where = await changeSetTarget(this.store, cs.run.key);
    const defaultUri = where ? vscode.Uri.joinPath(vscode.Uri.file(where.root), `${cs.run.runId}.patch`) : undefined;
    const uri = destination ?? (await vscode.window.showSaveDialog({ ...(defaultUri ? { defaultUri } : {}), filters: { Patch: ['patch', 'diff'] }, saveLabel: 'Save Patch' }));
    if (!uri) {
      return undefined;
    }
    await vscode.workspace.fs.writeFile(uri, Buffer.from(cs.info.patch ?? '', 'utf8'));
    void vscode.window.setStatusBarMessage(`Saved the patch to ${uri.fsPath}`, 3000);
    return uri;
  }

  private async revert(cs: ReadyChangeSet, selection: readonly FileSelection[], what: string, confirmed: RevertConfirmed, followUp?: FollowUp): Promise<ApplyOutcome | undefined> {
    const back = reversed(cs);
    if (typeof back === 'string') {
      void vscode.window.showInformationMessage(back);
      return undefined;
    }
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
    const outcome = await this.write(back, selection, REVERT_WORDING, followUp);
    if (outcome && outcome.applied.length > 0) {
      await this.connections.driver(cs.run.connectionId)?.refreshChangeSet?.(cs.run.runId);
    }
    return outcome;
  }

  /** Writes a selection (Apply, or Revert with the reversed patch) and reports the outcome; returns it. */
  private async write(cs: ReadyChangeSet, selection: readonly FileSelection[], wording: WriteWording, followUp?: FollowUp): Promise<ApplyOutcome | undefined> {
    const found = await findChangeSetTarget(this.store, cs.run.key);
    if ('problem' in found) {
      this.log.warn(`Apply change set of ${cs.run.key}: ${found.problem}`);
      void vscode.window.showWarningMessage(found.problem);
      return undefined;
    }
    let outcome: ApplyOutcome;
    try {
      outcome = await applyChangeSetSelection(found.target, cs.info, cs.files, selection, { openFolders: openFolders(), ask: (files) => this.prompts.askApply(files) });
    } catch (error) {
      this.log.error(`Apply change set: ${errorText(error)}`);
      void vscode.window.showErrorMessage(`The change set was not ${wording.nothing}: ${errorText(error)}`);
      return undefined;
    }
    const skipped = outcome.skipped && outcome.skipped.length > 0 ? ` Left out the protected file${outcome.skipped.length === 1 ? '' : 's'} ${outcome.skipped.join(', ')}.` : '';
    if (outcome.cancelled) {
      void vscode.window.showInformationMessage(`Nothing was ${wording.nothing}.`);
    } else if (outcome.problems.length > 0) {
      this.log.warn(`Apply change set of ${cs.run.key}: ${outcome.problems.map((p) => `${p.path}: ${p.reason}`).join(' | ')}`);
      void showProblems(outcome, wording);
    } else if (outcome.applied.length === 0) {
      void vscode.window.showInformationMessage(`Nothing to ${wording.nothing.replace(/ed$/, '')}${outcome.notes.length > 0 ? `: ${outcome.notes.join('; ')}` : '.'}${skipped}`);
    } else {
      const files = outcome.applied.length === 1 ? outcome.applied[0]! : `${outcome.applied.length} files`;
      const notes = outcome.notes.length > 0 ? ` Note: ${outcome.notes.join('; ')}.` : '';
      const done = vscode.window.showInformationMessage(`${wording.done} ${files} ${wording.source} "${cs.run.title}". Undo reverts it.${notes}${skipped}`, ...(followUp ? [followUp.label] : []));
      if (followUp) {
        void done.then((choice) => (choice === followUp.label ? followUp.run() : undefined)).then(undefined, (error: unknown) => {
          void vscode.window.showErrorMessage(`${followUp.label} failed: ${errorText(error)}`);
        });
      }
    }
    return outcome;
  }
}

async function showProblems(outcome: ApplyOutcome, wording: WriteWording): Promise<void> {
  const list = outcome.problems.map((p) => `${p.path}: ${p.reason}`);
  const shown = list.slice(0, 2).join('; ');
  const choice = await vscode.window.showErrorMessage(
    `Nothing was ${wording.nothing} — ${list.length} problem${list.length === 1 ? '' : 's'}: ${shown}${list.length > 2 ? '; …' : ''}`,
    'Show Details',
  );
  if (choice) {
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: `The change set was not ${wording.nothing}:\n\n${list.map((l) => `• ${l}`).join('\n')}\n` });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}
