/**
 * File checkpoints from the palette and the run menus (issue #26): *Rewind Run Files to Checkpoint…* (a run, then
 * one of its turn checkpoints, newest first), *Redo Rewind* (the run's newest rewind, while nothing came after
 * it) and *Continue from Checkpoint in a New Run…* (a run, then one of its turns). They take the run as a tree node
 * or run key (else the selected run, else a pick) and a checkpoint id when given, and go through FileRewinds and
 * CheckpointContinuations, as the transcript's marker buttons do.
 */
import * as vscode from 'vscode';
import type { FileCheckpoint } from '../../changeSets/fileCheckpointRecords';
import type { RunInfo } from '../../model/modelTypes';
import { checkpointName } from '../checkpoints/fileRewinds';
import type { FileRewinds, RewindResult } from '../checkpoints/fileRewinds';
import type { CheckpointContinuations, ContinueResult, ContinueRunArgs } from '../checkpoints/checkpointContinuations';
import type { CommandContext } from './commandContext';
import { errorText, runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';
import type { CommandHandler } from '../lazyCommands';

async function runOf(ctx: CommandContext, rewinds: FileRewinds, target: unknown, placeHolder: string): Promise<RunInfo | undefined> {
  const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
  const given = key !== undefined ? ctx.store.state.runs.get(key) : undefined;
  if (given !== undefined) {
    return given;
  }
  const runs = [...ctx.store.state.runs.values()];
  if (runs.length > 0 && !runs.some((r) => rewinds.keepsCheckpoints(r))) {
    // Every run is of a daemon without checkpoints here (hyperhive): say why instead of "no run for that".
    rewinds.checkpointsOf(runs[0]!);
  }
  return pickRun(ctx.store.state, placeHolder, (r) => rewinds.keepsCheckpoints(r));
}

function describe(checkpoint: FileCheckpoint): string {
  const roots = checkpoint.trees.map((t) => t.top).join(', ');
  return checkpoint.unavailable.length > 0 ? `${roots} (no checkpoint of ${checkpoint.unavailable.map((u) => u.root).join(', ')})` : roots;
}

/** The handlers of the rewind commands (registered by ui/reviewTools/reviewTools.ts, loaded with their bundle). */
export function rewindCommandHandlers(ctx: CommandContext, rewinds: FileRewinds, continuations: CheckpointContinuations): [string, CommandHandler][] {
  const guarded = <T>(what: string, task: (...args: unknown[]) => Promise<T | undefined>) => async (...args: unknown[]): Promise<T | undefined> => {
    try {
      return await task(...args);
    } catch (error) {
      void vscode.window.showErrorMessage(`${what}: ${errorText(error)}`);
      return undefined;
    }
  };
  return [
    [
      'agentSwitchboard.rewindRunFiles',
      guarded<RewindResult>('Rewind', async (target?: unknown, checkpointId?: unknown) => {
        const run = await runOf(ctx, rewinds, target, 'Rewind the files of which run?');
        if (run === undefined) {
          return undefined;
        }
        if (typeof checkpointId === 'string') {
          return rewinds.rewind(run.key, checkpointId);
        }
        const { checkpoints } = await rewinds.list(run.key);
        const turns = checkpoints.filter((c) => c.kind === 'turn' && c.trees.length > 0).reverse();
        if (turns.length === 0) {
          void vscode.window.showInformationMessage(`“${run.title}” has no file checkpoints yet: they are taken when a run starts and at the end of each turn, in its workspace folders.`);
          return undefined;
        }
        const picked = await vscode.window.showQuickPick(
          turns.map((c) => ({ label: checkpointName(c), description: new Date(c.at).toLocaleString(), detail: describe(c), checkpoint: c })),
          { placeHolder: `Rewind the files of “${run.title}” to…`, matchOnDescription: true },
        );
        return picked && rewinds.rewind(run.key, picked.checkpoint.id);
      }),
    ],
    [
      'agentSwitchboard.redoRewind',
      guarded<RewindResult>('Redo', async (target?: unknown) => {
        const run = await runOf(ctx, rewinds, target, 'Redo the last rewind of which run?');
        if (run === undefined) {
          return undefined;
        }
        const latest = (await rewinds.list(run.key)).checkpoints.at(-1);
        if (latest?.kind !== 'beforeRewind') {
          void vscode.window.showInformationMessage(`Nothing to redo for “${run.title}”: its files were not rewound since its last checkpoint.`);
          return undefined;
        }
        return rewinds.redo(run.key, latest.id);
      }),
    ],
    [
      'agentSwitchboard.continueFromCheckpoint',
      guarded<ContinueResult>('Continue from checkpoint', async (target?: unknown, checkpointId?: unknown, runArgs?: unknown) => {
        const run = await runOf(ctx, rewinds, target, 'Continue which run from one of its turns?');
        if (run === undefined) {
          return undefined;
        }
        continuations.check(run); // says why before any pick
        const args = runArgs !== null && typeof runArgs === 'object' ? (runArgs as ContinueRunArgs) : {};
        if (typeof checkpointId === 'string') {
          return continuations.continueFrom(run.key, checkpointId, args);
        }
        const { checkpoints } = await rewinds.list(run.key);
        const turns = checkpoints.filter((c) => c.kind === 'turn' && c.trees.length > 0 && (c.turn ?? 0) > 0).reverse();
        if (turns.length === 0) {
          void vscode.window.showInformationMessage(`“${run.title}” has no finished turn with a file checkpoint yet: one is taken at the end of each turn, in its workspace folders.`);
          return undefined;
        }
        const picked = await vscode.window.showQuickPick(
          turns.map((c) => ({ label: checkpointName(c), description: new Date(c.at).toLocaleString(), detail: describe(c), checkpoint: c })),
          { placeHolder: `Continue “${run.title}” in a new run from… (its files are rewound there, the conversation up to it is given to the new run)`, matchOnDescription: true },
        );
        return picked && continuations.continueFrom(run.key, picked.checkpoint.id, args);
      }),
    ],
  ];
}
