/** Show Change Set: the verified patch of a run. */
import * as vscode from 'vscode';
import type { CommandContext } from './commandContext';
import { runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';

export function registerChangeSetCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentSwitchboard.showChangeSet', async (target?: unknown) => {
      const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
      const run = key ? ctx.store.state.runs.get(key) : await pickRun(ctx.store.state, 'Show the change set of which run?', (r) => ctx.store.state.changeSets.has(r.key));
      if (!run) {
        return;
      }
      const changeSet = ctx.store.state.changeSets.get(run.key);
      if (!changeSet) {
        void vscode.window.showInformationMessage(`"${run.title}" has no change set (yet).`);
        return;
      }
      if (changeSet.status !== 'ready' || changeSet.patch === undefined) {
        const why = changeSet.reason ? `: ${changeSet.reason}` : '';
        void vscode.window.showWarningMessage(`The change set of "${run.title}" is ${changeSet.status}${why}.`);
        return;
      }
      const doc = await vscode.workspace.openTextDocument({ language: 'diff', content: changeSet.patch });
      await vscode.window.showTextDocument(doc, { preview: false });
    }),
  ];
}
