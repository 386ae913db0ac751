/**
 * Where applying a change set may write, checked on the disk before anything is read or written (no `vscode`, so it
 * is unit-tested on real temp folders). The folder comes from the daemon (`workspaceRoots[0]`), which is untrusted:
 * it is used only when it lies inside a folder open in the editor. Each patch path is then followed through the
 * symlinks that exist: it must stay inside the target root and inside an open folder, must not lead into `.git`,
 * and is reported when it lands on another protected path (`.vscode`, a workspace file), so Apply names it first.
 */
import * as path from 'node:path';
import type { ProtectedPath } from '../../protocol/protectedPaths';
import { protectedPathOf } from '../../protocol/protectedPaths';
import { isWithin, realLocation } from '../workspacePath';
import type { ApplyProblem } from './applyPlan';

export type TargetFolder = { readonly folder: string } | { readonly problem: string };

/**
 * The folder a run's change set applies in: the one the daemon reported, if it is inside (or is) a folder open in the
 * editor once symlinks are followed; the first open folder when the daemon reports none. Never another folder
 * instead of the one reported: applying a run's changes to a different tree would be wrong either way.
 */
export async function targetFolder(reported: string | undefined, openFolders: readonly string[]): Promise<TargetFolder> {
  if (reported === undefined) {
    const first = openFolders[0];
    return first !== undefined ? { folder: first } : { problem: 'Open the workspace folder the run worked on to apply its change set.' };
  }
  if (!path.isAbsolute(reported)) {
    return { problem: `The run reports its folder as ${JSON.stringify(reported)}, which is not an absolute path: nothing was applied.` };
  }
  const real = await realLocation(path.resolve(reported)).catch(() => undefined);
  for (const folder of openFolders) {
    const realFolder = await realLocation(path.resolve(folder)).catch(() => undefined);
    if (real !== undefined && realFolder !== undefined && isWithin(realFolder, real)) {
      return { folder: reported };
    }
  }
  return { problem: `The run worked in ${reported}, which is not inside a folder open in this window: open that folder to apply its change set. Nothing was applied.` };
}

export interface TargetCheck {
  /** Paths that must not be written (through a symlink out of the root, outside the open folders, into `.git`). */
  readonly problems: readonly ApplyProblem[];
  /** Protected paths (by the patch path or where it really leads) that may be written only once a person names them. */
  readonly guarded: readonly ProtectedPath[];
}

/** Checks each patch path (relative to `root`, already checked to be a plain relative path) against the disk. */
export async function checkApplyTargets(root: string, openFolders: readonly string[], paths: readonly string[]): Promise<TargetCheck> {
  const problems: ApplyProblem[] = [];
  const guarded: ProtectedPath[] = [];
  const realRoot = await realLocation(path.resolve(root));
  const realFolders = (await Promise.all(openFolders.map((f) => realLocation(path.resolve(f)).catch(() => undefined)))).filter((f): f is string => f !== undefined);
  for (const relative of paths) {
    let real: string;
    try {
      real = await realLocation(path.join(realRoot, ...relative.split('/')));
    } catch (error) {
      problems.push({ path: relative, reason: `cannot be resolved on disk (${(error as NodeJS.ErrnoException).code ?? String(error)}); refusing to write it` });
      continue;
    }
    if (!isWithin(realRoot, real)) {
      problems.push({ path: relative, reason: 'goes through a symbolic link to outside the workspace; refusing to write it' });
      continue;
    }
    if (!realFolders.some((folder) => isWithin(folder, real))) {
      problems.push({ path: relative, reason: 'is outside the folders open in the editor; refusing to write it' });
      continue;
    }
    const found = protectedPathOf(relative) ?? protectedPathOf(real, [realRoot]);
    if (found?.kind === 'git') {
      problems.push({ path: relative, reason: 'leads into the .git folder (through a symbolic link); refusing to write it' });
    } else if (found) {
      guarded.push({ ...found, path: relative });
    }
  }
  return { problems, guarded };
}
