/**
 * What the core holds of run worktrees (issue #26): the commands (registered at activation, as `package.json`
 * declares them), the removal hook and the workspace-access question — each loading the worktree bundle
 * (worktreeFeature.ts) on first use. Nothing to answer before it is loaded: a workspace without worktrees at
 * activation has none until *New Run…* (which loads it) makes one.
 */
import { readdirSync } from 'node:fs';
import type * as vscode from 'vscode';
import type { ConnectionProfile } from '../../drivers/driver';
import type { Capability } from '../../model/modelTypes';
import type { NewRunArgs } from '../commands/newRunPrompts';
import { registerLazyCommands } from '../lazyCommands';
import type * as Feature from './worktreeFeature';

export const WORKTREE_COMMANDS = [
  'agentSwitchboard.mergeRunWorktree',
  'agentSwitchboard.resolveRunMergeConflicts',
  'agentSwitchboard.undoRunMerge',
  'agentSwitchboard.removeRunWorktree',
  'agentSwitchboard.cleanUpRunWorktrees',
] as const;

export class WorktreeShim implements vscode.Disposable {
  private feature: Feature.WorktreeFeature | undefined;
  private readonly commands: vscode.Disposable[];

  constructor(private readonly deps: Feature.WorktreeFeatureDeps) {
    this.commands = registerLazyCommands(WORKTREE_COMMANDS, () => this.load().handlers, 'worktree commands');
    // Worktrees (or a crash's leftovers) from before: their badges, access and orphan check are needed from the start.
    if (deps.folder !== undefined && hasEntries(deps.folder)) {
      this.load();
    }
  }

  private load(): Feature.WorktreeFeature {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
    this.feature ??= (require('./worktreeFeature') as typeof Feature).createWorktreeFeature(this.deps);
    return this.feature;
  }

  /** The run worktree `runFolder` is in (workspace access lets that run use its files). */
  worktreeOf(runFolder: string): string | undefined {
    return this.feature?.service.worktreeOf(runFolder);
  }

  /** What removing a run of `connectionId` takes with it (nothing while no worktree was ever loaded or made). */
  removalOf(connectionId: string): (runId: string) => Promise<() => Promise<void>> {
    return (runId) => (this.feature ? this.feature.service.removalOf(connectionId)(runId) : Promise.resolve(() => Promise.resolve()));
  }

  /** *New Run…* in the place chosen (newRunPlace.ts). */
  startInPlace(connectionId: string, profile: ConnectionProfile, capabilities: readonly Capability[], args: NewRunArgs, start: (args: NewRunArgs) => Promise<string | undefined>): Promise<string | undefined> {
    if (args.worktree !== true && profile.runWorktree !== 'always' && !capabilities.includes('run.workingDirectory')) {
      return start(args); // nothing to ask: not loaded for daemons that take no folder
    }
    return this.load().startInPlace(this.load().service, connectionId, profile, capabilities, args, start);
  }

  dispose(): void {
    this.commands.forEach((c) => c.dispose());
    this.feature?.dispose();
  }
}

function hasEntries(folder: string): boolean {
  try {
    return readdirSync(folder).length > 0;
  } catch {
    return false; // no folder yet: no worktree ever made here
  }
}
