/**
 * Change sets, for every daemon (A3S sends them; the editor computes local ones for the others): the run's
 * "changeSet" side panel, the multi-diff editor, per-file diffs, all-or-nothing Apply (whole, per file, per hunk)
 * as one undoable workspace edit, and the patch itself (copy, save). Every command takes the run as a tree node or
 * run key (else the selected run, else a pick), and file commands a file index, `file:N` or path — so panel
 * actions, menus, the palette and tests share one path.
 */
import * as vscode from 'vscode';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ChangeSetInfo, RunInfo } from '../../model/modelTypes';
import type { FileSelection } from '../changeSets/applyPlan';
import type { ApplyOutcome } from '../changeSets/changeSetApply';
import { applyChangeSetSelection } from '../changeSets/changeSetApply';
import { ChangeSetDocuments } from '../changeSets/changeSetDocuments';
import { fileLabel, fileStatusText, hunksSelectable, parseChangeSet, resolveFileRef } from '../changeSets/changeSetFiles';
import { changeSetMessage } from '../changeSets/changeSetWebview';
import { changeSetTarget, findChangeSetTarget, openFolders, workspaceUri } from '../changeSets/changeSetWorkspace';
import type { ProtectedPathPrompts } from '../protectedPathPrompts';
import type { CommandContext } from './commandContext';
import { errorText, runKeyOfTarget } from './commandContext';
import { isActiveRun, pickRun } from './pickers';

interface ReadyChangeSet {
  readonly run: RunInfo;
  readonly info: ChangeSetInfo;
  readonly files: readonly PatchFile[];
}

/** The run a command is about (target, else the selected run, else a pick among runs with a change set). */
async function runOf(ctx: CommandContext, target: unknown): Promise<RunInfo | undefined> {
  const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
  const run = key ? ctx.store.state.runs.get(key) : undefined;
  if (run && ctx.store.state.changeSets.has(run.key)) {
    return run;
  }
  return pickRun(ctx.store.state, 'Which run’s change set?', (r) => ctx.store.state.changeSets.has(r.key));
}

/** A `ready` change set with its parsed files, or a message saying why there is none. */
async function readyChangeSet(ctx: CommandContext, target: unknown): Promise<ReadyChangeSet | undefined> {
  const run = await runOf(ctx, target);
  if (!run) {
    return undefined;
  }
  const info = ctx.store.state.changeSets.get(run.key);
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

async function pickFile(cs: ReadyChangeSet, ref: unknown, placeHolder: string, filter: (f: PatchFile) => boolean): Promise<number | undefined> {
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

async function pickHunks(file: PatchFile, given: unknown): Promise<number[] | undefined> {
  if (Array.isArray(given) && given.every((h) => typeof h === 'number')) {
    return given as number[];
  }
  const items = file.hunks.map((hunk, index) => {
    const added = hunk.lines.filter((l) => l.kind === 'add').length;
    const removed = hunk.lines.filter((l) => l.kind === 'del').length;
    const firstChange = hunk.lines.find((l) => l.kind === 'add' || l.kind === 'del');
    return { label: hunk.header, description: `+${added} −${removed}`, detail: firstChange ? `${firstChange.kind === 'add' ? '+' : '−'} ${firstChange.text.slice(0, 120)}` : undefined, index };
  });
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: `Hunks of ${file.newPath} to apply` });
  return picked && picked.length > 0 ? picked.map((p) => p.index) : undefined;
}

async function showProblems(outcome: ApplyOutcome): Promise<void> {
  const list = outcome.problems.map((p) => `${p.path}: ${p.reason}`);
  const shown = list.slice(0, 2).join('; ');
  const choice = await vscode.window.showErrorMessage(
    `Nothing was applied — ${list.length} problem${list.length === 1 ? '' : 's'}: ${shown}${list.length > 2 ? '; …' : ''}`,
    'Show Details',
  );
  if (choice) {
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: `The change set was not applied:\n\n${list.map((l) => `• ${l}`).join('\n')}\n` });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}

/**
 * Applies a selection and reports the outcome; returns it for automation and tests. Every path (Apply All, a file,
 * hunks; the palette, the panel and the change-set view alike) comes here, so protected files are always named.
 */
async function apply(ctx: CommandContext, prompts: ProtectedPathPrompts, cs: ReadyChangeSet, selection: readonly FileSelection[]): Promise<ApplyOutcome | undefined> {
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
    void vscode.window.showErrorMessage(`The change set was not applied: ${errorText(error)}`);
    return undefined;
  }
  const skipped = outcome.skipped && outcome.skipped.length > 0 ? ` Left out the protected file${outcome.skipped.length === 1 ? '' : 's'} ${outcome.skipped.join(', ')}.` : '';
  if (outcome.cancelled) {
    void vscode.window.showInformationMessage('Nothing was applied.');
  } else if (outcome.problems.length > 0) {
    ctx.log.warn(`Apply change set of ${cs.run.key}: ${outcome.problems.map((p) => `${p.path}: ${p.reason}`).join(' | ')}`);
    void showProblems(outcome);
  } else if (outcome.applied.length === 0) {
    void vscode.window.showInformationMessage(`Nothing to apply${outcome.notes.length > 0 ? `: ${outcome.notes.join('; ')}` : '.'}${skipped}`);
  } else {
    const files = outcome.applied.length === 1 ? outcome.applied[0]! : `${outcome.applied.length} files`;
    const notes = outcome.notes.length > 0 ? ` Note: ${outcome.notes.join('; ')}.` : '';
    void vscode.window.showInformationMessage(`Applied ${files} from the change set of "${cs.run.title}". Undo reverts it.${notes}${skipped}`);
  }
  return outcome;
}

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
