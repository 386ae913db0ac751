/**
 * What the core holds of run history (runHistoryFeature.ts, a bundle loaded on demand): the registrations of *Remove
 * Run*, *Clear Finished Runs…* and *Search Run History…*, and what must happen before any of them is used — a removed
 * run's tab closes and its selection goes, whoever removed it (these commands, or the history size limit at connect:
 * the driver tells `RemovedRuns` either way; their owners forget its draft and the rest).
 */
import * as vscode from 'vscode';
import type { CommandContext } from '../commands/commandContext';
import type { ConfirmRemoval } from '../commands/removalPrompt';
import type { CommandHandler } from '../lazyCommands';
import { registerLazyCommands } from '../lazyCommands';
import type { RemovedRuns } from '../removedRuns';
import type * as Feature from './runHistoryFeature';

export const RUN_HISTORY_COMMANDS = ['agentSwitchboard.removeRun', 'agentSwitchboard.clearFinishedRuns', 'agentSwitchboard.searchRunHistory'] as const;

export function registerRunHistoryCommands(ctx: CommandContext, removedRuns: Pick<RemovedRuns, 'removed' | 'onDidRemove'>, confirmRemoval: ConfirmRemoval): vscode.Disposable[] {
  const forgetInUi = removedRuns.onDidRemove((runKey) => {
    ctx.transcriptTabs.panelOf(runKey)?.dispose();
    if (ctx.selection.runKey === runKey) {
      ctx.selection.select(undefined);
    }
  });
  let handlers: ReadonlyMap<string, CommandHandler> | undefined;
  const load = (): ReadonlyMap<string, CommandHandler> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
    (handlers ??= (require('./runHistoryFeature') as typeof Feature).runHistoryHandlers(ctx, removedRuns, confirmRemoval));
  return [new vscode.Disposable(() => forgetInUi.dispose()), ...registerLazyCommands(RUN_HISTORY_COMMANDS, load, 'run history')];
}
