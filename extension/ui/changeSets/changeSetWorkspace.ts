/**
 * Where a run's change set lives on disk: patch paths are relative to the git repository top level (both the
 * A3S harness and local snapshots diff whole-repository trees), so the target is the top level of the run's first
 * workspace root — or of the first workspace folder when the daemon reports none (A3S has no cwd field) — and the
 * folder itself when it is not a git repository. The daemon's root is used only when it lies inside a folder open in
 * the editor (applyTargets.ts): a daemon must not steer Apply into a tree the user does not have open.
 */
import * as vscode from 'vscode';
import { gitTopLevel } from '../../changeSets/gitTrees';
import type { RunStore } from '../../model/runStore';
import { targetFolder } from './applyTargets';

export interface ChangeSetTarget {
  /** The directory patch paths are relative to. */
  readonly root: string;
  /** The git top level, when the root is in a repository (for reading base/result trees). */
  readonly repo?: string;
}

/** The folders open in the editor (local ones: a change set is applied on this machine's disk). */
export function openFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** The target of a run's change set, or why there is none (no folder open, or the daemon's is not open). */
export async function findChangeSetTarget(store: RunStore, runKey: string): Promise<{ readonly target: ChangeSetTarget } | { readonly problem: string }> {
  const run = store.state.runs.get(runKey);
  const found = await targetFolder(run?.workspaceRoots?.[0], openFolders());
  if ('problem' in found) {
    return found;
  }
  const repo = await gitTopLevel(found.folder);
  return { target: repo !== undefined ? { root: repo, repo } : { root: found.folder } };
}

/** The target of a run's change set, when it has one the editor accepts (see findChangeSetTarget). */
export async function changeSetTarget(store: RunStore, runKey: string): Promise<ChangeSetTarget | undefined> {
  const found = await findChangeSetTarget(store, runKey);
  return 'target' in found ? found.target : undefined;
}

/** The workspace URI of a patch path (checked safe by the caller before writing). */
export function workspaceUri(target: ChangeSetTarget, path: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.file(target.root), ...path.split('/'));
}
