/**
 * Where a run's change set lives on disk: patch paths are relative to the git repository top level (both the
 * A3S harness and local snapshots diff whole-repository trees), so the target is the top level of the run's first
 * workspace root — or of the first workspace folder when the daemon reports none (A3S has no cwd field) — and the
 * folder itself when it is not a git repository.
 */
import * as vscode from 'vscode';
import { gitTopLevel } from '../../changeSets/gitTrees';
import type { RunStore } from '../../model/runStore';

export interface ChangeSetTarget {
  /** The directory patch paths are relative to. */
  readonly root: string;
  /** The git top level, when the root is in a repository (for reading base/result trees). */
  readonly repo?: string;
}

export async function changeSetTarget(store: RunStore, runKey: string): Promise<ChangeSetTarget | undefined> {
  const run = store.state.runs.get(runKey);
  const folder = run?.workspaceRoots?.[0] ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder === undefined) {
    return undefined;
  }
  const repo = await gitTopLevel(folder);
  return repo !== undefined ? { root: repo, repo } : { root: folder };
}

/** The workspace URI of a patch path (checked safe by the caller before writing). */
export function workspaceUri(target: ChangeSetTarget, path: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.file(target.root), ...path.split('/'));
}
