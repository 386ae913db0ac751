/**
 * Run worktrees (issue #26) as one bundle of its own (extensionBundles.mjs), loaded on first use by worktreeShim.ts:
 * when the workspace has worktrees at activation, at the first *New Run…* on a daemon that can use one, or at the
 * first worktree command — the core the editor loads at activation stays within its budget.
 */
import type * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { RunStore } from '../../model/runStore';
import { startInPlace } from './newRunPlace';
import { RunWorktreeService } from './runWorktreeService';
import { watchWorktreeOffers, worktreeCommandHandlers } from './worktreeCommands';

export interface WorktreeFeatureDeps {
  /** `<workspace storage>/worktrees`; undefined without a workspace. */
  readonly folder: string | undefined;
  readonly store: RunStore;
  readonly connections: ConnectionManager;
  readonly log: vscode.LogOutputChannel;
}

export interface WorktreeFeature extends vscode.Disposable {
  readonly service: RunWorktreeService;
  readonly handlers: ReadonlyMap<string, (...args: unknown[]) => unknown>;
  readonly startInPlace: typeof startInPlace;
}

export function createWorktreeFeature(deps: WorktreeFeatureDeps): WorktreeFeature {
  const service = new RunWorktreeService(deps.folder, deps.store, deps.connections, deps.log);
  const offers = watchWorktreeOffers(service, deps.store, deps.log);
  return {
    service,
    handlers: worktreeCommandHandlers(service, deps.store, deps.log),
    startInPlace,
    dispose: () => {
      offers.dispose();
      service.dispose();
    },
  };
}
