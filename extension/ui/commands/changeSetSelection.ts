/**
 * What every change-set command shares: the run it is about, its ready change set parsed, the file and hunk pickers,
 * and the one place a selection is written to the workspace (Apply, and Revert with the reversed patch) — so
 * protected files are always named and the outcome always reported the same way.
 */
import * as vscode from 'vscode';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo, RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { FileSelection } from '../changeSets/applyPlan';
import type { ApplyOutcome } from '../changeSets/changeSetApply';
import { applyChangeSetSelection } from '../changeSets/changeSetApply';
import { fileLabel, fileStatusText, parseChangeSet, resolveFileRef } from '../changeSets/changeSetFiles';
import { findChangeSetTarget, openFolders } from '../changeSets/changeSetWorkspace';
import type { ProtectedPathPrompts } from '../protectedPathPrompts';
import type { CommandContext } from './commandContext';
import { errorText, runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';

export interface ReadyChangeSet {
  readonly run: RunInfo;
  readonly info: ChangeSetInfo;
  readonly files: readonly PatchFile[];
}

/** The run a command is about (target, else the selected run, else a pick among runs with a change set). */
export async function runOf(ctx: CommandContext, target: unknown): Promise<RunInfo | undefined> {
  const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
  const run = key ? ctx.store.state.runs.get(key) : undefined;
  if (run && ctx.store.state.changeSets.has(run.key)) {
    return run;
  }
  return pickRun(ctx.store.state, 'Which run’s change set?', (r) => ctx.store.state.changeSets.has(r.key));
}

/** A `ready` change set with its parsed files, or a message saying why there is none. */
export async function readyChangeSet(ctx: CommandContext, target: unknown): Promise<ReadyChangeSet | undefined> {
  const run = await runOf(ctx, target);
  return run && readyChangeSetOf(ctx.store, run);
}

/** The run's change set if it is `ready` and readable; otherwise a message says why there is none. */
export function readyChangeSetOf(store: RunStore, run: RunInfo): ReadyChangeSet | undefined {
  const info = store.state.changeSets.get(run.key);
  if (!info) {
    void vscode.window.showInformationMessage(`"${run.title}" has no change set (yet).`);
    return undefined;
  }
  if (info.status !== 'ready') {
    const verb = info.status === 'capturing' ? 'still being captured' : info.status;
    void vscode.window.showWarningMessage(`The change set of "${run.title}" is ${verb}${info.reason ? `: ${info.reason}` : '.'}`);
    return undefined;
  }
  const parsed = parseChangeSet(info);
  if (!parsed.ok) {
    void vscode.window.showErrorMessage(`The change set of "${run.title}" could not be read: ${parsed.error}`);
    return undefined;
  }
  return { run, info, files: parsed.files };
}

export async function pickFile(cs: ReadyChangeSet, ref: unknown, placeHolder: string, filter: (f: PatchFile) => boolean): Promise<number | undefined> {
  const given = resolveFileRef(cs.files, ref);
  if (given !== undefined) {
    return given;
  }
  const items = cs.files
    .map((file, index) => ({ label: fileLabel(file), description: `+${file.additions} −${file.deletions} · ${fileStatusText(file)}`, index, file }))
    .filter((i) => filter(i.file));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No file of this change set fits that.');
    return undefined;
  }
  return items.length === 1 ? items[0]!.index : (await vscode.window.showQuickPick(items, { placeHolder }))?.index;
}

export async function pickHunks(file: PatchFile, given: unknown, verb = 'apply'): Promise<number[] | undefined> {
  if (Array.isArray(given) && given.every((h) => typeof h === 'number')) {
    return given as number[];
  }
  const items = file.hunks.map((hunk, index) => {
    const added = hunk.lines.filter((l) => l.kind === 'add').length;
    const removed = hunk.lines.filter((l) => l.kind === 'del').length;
    const firstChange = hunk.lines.find((l) => l.kind === 'add' || l.kind === 'del');
    return { label: hunk.header, description: `+${added} −${removed}`, detail: firstChange ? `${firstChange.kind === 'add' ? '+' : '−'} ${firstChange.text.slice(0, 120)}` : undefined, index };
  });
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: `Hunks of ${file.newPath} to ${verb}` });
  return picked && picked.length > 0 ? picked.map((p) => p.index) : undefined;
}

/** How a write of a selection is worded: Apply (the change set onto the workspace) or Revert (an agent's edits). */
export interface WriteWording {
  /** "Applied" / "Reverted". */
  readonly done: string;
  /** "applied" / "reverted", after "Nothing was". */
  readonly nothing: string;
  /** "from the change set of" / "of the run". */
  readonly source: string;
}

export const APPLY_WORDING: WriteWording = { done: 'Applied', nothing: 'applied', source: 'from the change set of' };

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

/**
 * Applies a selection and reports the outcome; returns it for automation and tests. Every path (Apply All, a file,
 * hunks; the palette, the panel and the change-set view alike) comes here, so protected files are always named.
 */
export async function apply(ctx: CommandContext, prompts: ProtectedPathPrompts, cs: ReadyChangeSet, selection: readonly FileSelection[], wording: WriteWording = APPLY_WORDING): Promise<ApplyOutcome | undefined> {
  const found = await findChangeSetTarget(ctx.store, cs.run.key);
  if ('problem' in found) {
    ctx.log.warn(`Apply change set of ${cs.run.key}: ${found.problem}`);
    void vscode.window.showWarningMessage(found.problem);
    return undefined;
  }
  let outcome: ApplyOutcome;
  try {
    outcome = await applyChangeSetSelection(found.target, cs.info, cs.files, selection, { openFolders: openFolders(), ask: (files) => prompts.askApply(files) });
  } catch (error) {
    ctx.log.error(`Apply change set: ${errorText(error)}`);
    void vscode.window.showErrorMessage(`The change set was not ${wording.nothing}: ${errorText(error)}`);
    return undefined;
  }
  const skipped = outcome.skipped && outcome.skipped.length > 0 ? ` Left out the protected file${outcome.skipped.length === 1 ? '' : 's'} ${outcome.skipped.join(', ')}.` : '';
  if (outcome.cancelled) {
    void vscode.window.showInformationMessage(`Nothing was ${wording.nothing}.`);
  } else if (outcome.problems.length > 0) {
    ctx.log.warn(`Apply change set of ${cs.run.key}: ${outcome.problems.map((p) => `${p.path}: ${p.reason}`).join(' | ')}`);
    void showProblems(outcome, wording);
  } else if (outcome.applied.length === 0) {
    void vscode.window.showInformationMessage(`Nothing to ${wording.nothing.replace(/ed$/, '')}${outcome.notes.length > 0 ? `: ${outcome.notes.join('; ')}` : '.'}${skipped}`);
  } else {
    const files = outcome.applied.length === 1 ? outcome.applied[0]! : `${outcome.applied.length} files`;
    const notes = outcome.notes.length > 0 ? ` Note: ${outcome.notes.join('; ')}.` : '';
    void vscode.window.showInformationMessage(`${wording.done} ${files} ${wording.source} "${cs.run.title}". Undo reverts it.${notes}${skipped}`);
  }
  return outcome;
}
