/**
 * The conflicts a *Merge Run into Workspace* left (worktreeMerge.ts), decided by the person: per file — take the
 * run's version, write the text with conflict markers, or keep the workspace's — or per hunk: *Compare* opens the
 * run's file beside the workspace's in the diff editor, whose arrows take one hunk at a time (editor undo undoes
 * each). What a per-file choice writes joins the merge's record, so *Undo Merge* takes it back too.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { resolveConflict } from '../../changeSets/worktreeMerge';
import type { ConflictChoice, MergeConflict } from '../../changeSets/worktreeMerge';
import type { RunWorktree } from '../../changeSets/worktreeRecords';
import type { RunWorktreeService } from './runWorktreeService';

type Action = ConflictChoice | 'compare' | 'keep';

const ACTIONS: readonly (vscode.QuickPickItem & { readonly action: Action; readonly needs?: 'theirs' | 'marked' })[] = [
  { label: '$(diff) Compare and Take Hunks', detail: 'The run’s file beside yours: the arrows between them take one hunk at a time.', action: 'compare', needs: 'theirs' },
  { label: '$(check) Take the Run’s Version', detail: 'Your file becomes the run’s (Undo Merge takes it back).', action: 'run' },
  { label: '$(warning) Write with Conflict Markers', detail: 'Both versions in the file, between <<<<<<< and >>>>>>>, for you to edit.', action: 'markers', needs: 'marked' },
  { label: '$(close) Keep Yours', detail: 'Nothing is written; the conflict is dropped from the list.', action: 'keep' },
];

/** Opens the diff of the run's file (left) and the workspace's (right, editable). */
export async function compareConflict(worktree: RunWorktree, conflict: MergeConflict): Promise<void> {
  const runFile = vscode.Uri.file(join(worktree.path, ...conflict.path.split('/')));
  const mine = vscode.Uri.file(join(worktree.repo, ...conflict.path.split('/')));
  await vscode.commands.executeCommand('vscode.diff', runFile, mine, `${conflict.path} (run ↔ workspace)`);
}

/** Carries out one choice; resolves true when the conflict is settled (it leaves the list). */
export async function settleConflict(service: RunWorktreeService, worktree: RunWorktree, conflict: MergeConflict, action: Action): Promise<boolean> {
  if (action === 'compare') {
    await compareConflict(worktree, conflict);
    return false;
  }
  if (action === 'keep') {
    return true;
  }
  const outcome = await resolveConflict(worktree, conflict, action);
  if (outcome.status === 'changed since') {
    void vscode.window.showWarningMessage(`${conflict.path} changed since the merge looked at it: run Merge Run into Workspace again.`);
    return true;
  }
  if (outcome.status === 'failed') {
    void vscode.window.showErrorMessage(`${conflict.path} was not written: ${outcome.failure.reason}`);
    return false;
  }
  const latest = service.worktrees?.get(worktree.id);
  const merge = latest?.merge ?? { at: Date.now(), paths: [] };
  await service.worktrees?.setMerge(worktree.id, { ...merge, paths: [...merge.paths.filter((p) => p.path !== conflict.path), outcome.path] });
  if (action === 'markers') {
    await vscode.window.showTextDocument(vscode.Uri.file(join(worktree.repo, ...conflict.path.split('/'))), { preview: false });
  }
  return true;
}

/** The open conflicts of a worktree, one pick after another until the person stops or none is left. */
export async function resolveConflicts(service: RunWorktreeService, worktree: RunWorktree): Promise<void> {
  for (;;) {
    const open = service.conflicts.get(worktree.id) ?? [];
    if (open.length === 0) {
      return;
    }
    const picked = await vscode.window.showQuickPick(
      open.map((conflict) => ({ label: `$(git-merge) ${conflict.path}`, detail: conflict.reason, conflict })),
      { title: `Merge conflicts (${open.length})`, placeHolder: 'Which file? Nothing is written until you choose.' },
    );
    if (!picked) {
      return;
    }
    const conflict = picked.conflict;
    const actions = ACTIONS.filter((a) => (a.needs === 'theirs' ? conflict.theirs !== undefined : a.needs === 'marked' ? conflict.marked !== undefined : true));
    const action = await vscode.window.showQuickPick(actions, { title: conflict.path, placeHolder: conflict.reason });
    if (action && (await settleConflict(service, worktree, conflict, action.action))) {
      service.conflicts.set(worktree.id, (service.conflicts.get(worktree.id) ?? []).filter((c) => c.path !== conflict.path));
    }
    if (action?.action === 'compare') {
      return; // the diff is open: the person works there, and comes back with the same command
    }
  }
}
