/**
 * Where a new run works (issue #26): in the workspace, or in a git worktree of its own made from the files as they
 * are. *New Run…* asks (the profile's `runWorktree`: `ask`, the default; `always`; `never`); a daemon that does not
 * take a working directory, or a folder that is not in a git repository, is not offered the worktree (the pick says
 * why). The worktree is made before the run's other questions (an ACP agent is asked for its modes in the folder the
 * run will use), removed again when the run does not start, and attached to the run once it did.
 */
import * as vscode from 'vscode';
import { gitTopLevel } from '../../changeSets/gitTrees';
import { WorktreeUnavailable } from '../../changeSets/runWorktrees';
import type { RunWorktree } from '../../changeSets/worktreeRecords';
import type { ConnectionProfile } from '../../drivers/driver';
import type { Capability } from '../../model/modelTypes';
import type { NewRunArgs } from '../commands/newRunPrompts';
import type { RunWorktreeService } from './runWorktreeService';
import { worktreeRefusal } from './runWorktreeService';

type Place = 'workspace' | 'worktree';

/** Why no worktree can be made for these roots (undefined: one can). */
async function unavailable(service: RunWorktreeService, capabilities: readonly Capability[], roots: readonly string[]): Promise<string | undefined> {
  const refusal = worktreeRefusal(capabilities);
  if (refusal !== undefined) {
    return refusal;
  }
  if (!service.worktrees) {
    return 'the window has no workspace folder (a worktree is made from one)';
  }
  const root = roots[0];
  if (root === undefined) {
    return 'the window has no workspace folder (a worktree is made from one)';
  }
  return (await gitTopLevel(root)) === undefined ? `${root} is not in a git repository` : undefined;
}

async function pickPlace(reason: string | undefined): Promise<Place | undefined> {
  const items: (vscode.QuickPickItem & { readonly place: Place })[] = [
    { label: '$(folder) In the workspace', detail: 'The run edits your files directly.', place: 'workspace' },
    reason === undefined
      ? { label: '$(git-branch) In a new worktree', detail: 'A git worktree made from your files as they are now: the run’s changes stay apart until you merge them (Merge Run into Workspace).', place: 'worktree' }
      : { label: '$(circle-slash) In a new worktree', description: 'not available', detail: `No worktree: ${reason}.`, place: 'worktree' },
  ];
  for (;;) {
    const pick = await vscode.window.showQuickPick(items, { title: 'New Run', placeHolder: 'Where should the run work?' });
    if (pick?.place !== 'worktree' || reason === undefined) {
      return pick?.place;
    }
    const again = await vscode.window.showWarningMessage(`The run cannot work in a worktree: ${reason}.`, 'Choose Again');
    if (again !== 'Choose Again') {
      return undefined;
    }
  }
}

/** What the person (or the profile, or the arguments) chose; undefined: the New Run was cancelled. */
async function choosePlace(service: RunWorktreeService, profile: ConnectionProfile, capabilities: readonly Capability[], args: NewRunArgs, roots: readonly string[]): Promise<Place | undefined> {
  const setting = profile.runWorktree ?? 'ask';
  const wanted = args.worktree ?? (setting === 'always' ? true : setting === 'never' ? false : undefined);
  if (wanted === false || (wanted === undefined && worktreeRefusal(capabilities) !== undefined)) {
    return 'workspace';
  }
  // Automation that answers the prompt answers the rest too: it is not asked where (see NewRunArgs.worktree).
  if (wanted === undefined && args.prompt !== undefined) {
    return 'workspace';
  }
  const reason = await unavailable(service, capabilities, roots);
  if (wanted === true) {
    if (reason !== undefined) {
      throw new WorktreeUnavailable(`this run was to work in a worktree, but ${reason}`);
    }
    return 'worktree';
  }
  return pickPlace(reason);
}

/**
 * Runs `start` (the rest of *New Run…*: its questions and the driver's `startRun`) in the place chosen. Resolves with
 * the run id, or undefined when the person cancelled; a worktree made for a run that did not start is removed.
 */
export async function startInPlace(service: RunWorktreeService, connectionId: string, profile: ConnectionProfile, capabilities: readonly Capability[], args: NewRunArgs, start: (args: NewRunArgs) => Promise<string | undefined>): Promise<string | undefined> {
  const roots = args.workspaceRoots ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const place = await choosePlace(service, profile, capabilities, args, roots);
  if (place !== 'worktree' || !service.worktrees) {
    return place === undefined ? undefined : start(args);
  }
  const worktrees = service.worktrees;
  const worktree: RunWorktree = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Making a git worktree for the run…' }, () => worktrees.create(roots[0]!));
  let runId: string | undefined;
  try {
    runId = await start({ ...args, workspaceRoots: [worktrees.workingDirectory(worktree)] });
  } finally {
    if (runId === undefined) {
      await worktrees.remove(worktree.id).catch(() => undefined);
    }
  }
  if (runId !== undefined) {
    await worktrees.attach(worktree.id, connectionId, runId);
    service.changed();
  }
  return runId;
}
