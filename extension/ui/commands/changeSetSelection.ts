/**
 * What every change-set command shares: the run it is about, its ready change set parsed, and the file and hunk
 * pickers. The writes themselves are changeSets/changeSetEdits.ts.
 */
import * as vscode from 'vscode';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo, RunInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { fileLabel, fileStatusText, resolveFileRef } from '../changeSets/changeSetFiles';
import { readChangeSet } from '../changeSets/changeSetReading';
import type { CommandContext } from './commandContext';
import { runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';

export interface ReadyChangeSet {
  readonly run: RunInfo;
  readonly info: ChangeSetInfo;
  readonly files: readonly PatchFile[];
}

/**
 * The run a command is about (target, else the selected run, else a pick among runs with a change set). A run shown
 * from its summary (its change set counted there) is loaded first: its driver restores the change set with it.
 */
export async function runOf(ctx: CommandContext, target: unknown): Promise<RunInfo | undefined> {
  const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
  const given = key ? await loaded(ctx, key) : undefined;
  if (given && ctx.store.state.changeSets.has(given.key)) {
    return given;
  }
  const picked = await pickRun(ctx.store.state, 'Which run’s change set?', (r) => ctx.store.state.changeSets.has(r.key) || r.unloaded?.changes !== undefined);
  return picked && (await loaded(ctx, picked.key));
}

/** The run of `key` with its transcript (and what comes with it) in memory. */
async function loaded(ctx: CommandContext, key: string): Promise<RunInfo | undefined> {
  if (ctx.store.state.runs.get(key)?.unloaded !== undefined) {
    await ctx.residency.ensureLoaded(key);
  }
  return ctx.store.state.runs.get(key);
}

/** A `ready` change set with its parsed files, or a message saying why there is none. */
export async function readyChangeSet(ctx: CommandContext, target: unknown): Promise<ReadyChangeSet | undefined> {
  const run = await runOf(ctx, target);
  return run && (await readyChangeSetOf(ctx.store, run));
}

/**
 * The run's change set if it is `ready` and readable, once its patch is read whole (a 4 MiB patch is read in slices:
 * this waits, so nothing acts on half of it); otherwise a message says why there is none.
 */
export async function readyChangeSetOf(store: RunStore, run: RunInfo): Promise<ReadyChangeSet | undefined> {
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
  const parsed = await readChangeSet(info);
  if (store.state.changeSets.get(run.key) !== info) {
    // A newer change set came while this one was read: act on what the run has now.
    return readyChangeSetOf(store, store.state.runs.get(run.key) ?? run);
  }
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

/** Hunk indices a command was given (automation, tests), if it was given a list of numbers. */
export function givenHunks(given: unknown): number[] | undefined {
  return Array.isArray(given) && given.every((h) => typeof h === 'number') ? (given as number[]) : undefined;
}

export async function pickHunks(file: PatchFile, given: unknown, verb = 'apply'): Promise<number[] | undefined> {
  const hunks = givenHunks(given);
  if (hunks) {
    return hunks;
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
