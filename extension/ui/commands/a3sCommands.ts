/** A3S-specific commands: recover a run stranded by a harness restart (WIRE.md 6.3.4). */
import * as vscode from 'vscode';
import { A3sDriver } from '../../drivers/a3s/a3sDriver';
import type { RunInfo } from '../../model/modelTypes';
import type { CommandContext } from './commandContext';
import { errorText, runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';

export function registerA3sCommands(ctx: CommandContext): vscode.Disposable[] {
  const a3sDriverOf = (run: RunInfo): A3sDriver | undefined => {
    const driver = ctx.connections.driver(run.connectionId);
    return driver instanceof A3sDriver ? driver : undefined;
  };
  return [
    vscode.commands.registerCommand('agentSwitchboard.recoverA3sRun', async (target?: unknown) => {
      const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
      const selected = key ? ctx.store.state.runs.get(key) : undefined;
      const run =
        selected && a3sDriverOf(selected)
          ? selected
          : await pickRun(ctx.store.state, 'Recover which A3S run?', (r) => a3sDriverOf(r)?.isStranded(r.runId) ?? false);
      const driver = run && a3sDriverOf(run);
      if (!run || !driver) {
        return undefined;
      }
      try {
        const runId = await driver.recoverRun(run.runId);
        const runKey = `${run.connectionId}::${runId}`;
        ctx.selection.select(runKey);
        await ctx.transcript.reveal();
        return runKey;
      } catch (error) {
        void vscode.window.showErrorMessage(`The run was not recovered: ${errorText(error)}`);
        return undefined;
      }
    }),
  ];
}
