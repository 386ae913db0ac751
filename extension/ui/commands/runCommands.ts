/** New run, send message, cancel, end a run waiting for input, show transcript, copy run id, composer focus. */
import * as vscode from 'vscode';
import type { RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/runKeys';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, errorText, runKeyOfTarget } from './commandContext';
import type { NewRunArgs } from './newRunPrompts';
import { askNewRun } from './newRunPrompts';
import type { WorktreeShim } from '../worktrees/worktreeShim';
import { isActiveRun, isEndableRun, pickConnection, pickRun } from './pickers';
import { takesMessages } from '../runMessaging';

export function registerRunCommands(ctx: CommandContext, worktrees: WorktreeShim): vscode.Disposable[] {
  const runOf = (target: unknown): RunInfo | undefined => {
    const key = runKeyOfTarget(target) ?? ctx.selection.runKey;
    return key ? ctx.store.state.runs.get(key) : undefined;
  };
  /** Cancel Run: the given (else the selected) run, else a pick among active runs; the run service cancels it. */
  const cancel = async (target?: unknown): Promise<void> => {
    const run = runOf(target) ?? (await pickRun(ctx.store.state, 'Cancel which run?', isActiveRun));
    if (run) {
      await ctx.runs.cancel(run);
    }
  };
  return [
    vscode.commands.registerCommand('agentSwitchboard.newRun', async (target?: unknown) => {
      const args: NewRunArgs = target !== null && typeof target === 'object' && !('type' in target) ? (target as NewRunArgs) : {};
      const connectionId =
        args.connectionId ??
        connectionIdOfTarget(target) ??
        (await pickConnection(ctx.store.state, 'Start the run on which daemon?', (c) => c.capabilities.includes('run.start') && c.state.kind === 'connected'));
      if (!connectionId) {
        return undefined;
      }
      try {
        const driver = ctx.connections.ensureDriver(connectionId);
        if (!driver.startRun) {
          throw new Error('This daemon does not start runs from the editor.');
        }
        const confirmation = args.confirmed ? undefined : driver.startRunConfirmation?.();
        if (confirmation && (await vscode.window.showWarningMessage(confirmation.message, { modal: true, detail: confirmation.detail }, confirmation.button)) !== confirmation.button) {
          return undefined;
        }
        const profile = ctx.connections.profile(connectionId);
        const start = async (placed: NewRunArgs): Promise<string | undefined> => {
          const options = await askNewRun(ctx, connectionId, placed);
          return options ? driver.startRun!(options) : undefined;
        };
        // In the workspace, or in a worktree of its own (issue #26): asked first, the rest is asked in that folder.
        const runId = profile ? await worktrees.startInPlace(connectionId, profile, ctx.store.state.connections.get(connectionId)?.capabilities ?? [], args, start) : await start(args);
        if (runId === undefined) {
          return undefined;
        }
        const runKey = runKeyOf(connectionId, runId);
        await ctx.runs.show(runKey);
        return runKey;
      } catch (error) {
        ctx.log.error(`New run: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`The run did not start: ${errorText(error)}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.sendMessage', async (target?: unknown, text?: unknown) => {
      const run =
        runOf(target) ??
        (await pickRun(ctx.store.state, 'Send a message to which run?', (r) => takesMessages(r, ctx.store.state.connections.get(r.connectionId)?.capabilities ?? [])));
      if (run) {
        await ctx.runs.send(run, typeof text === 'string' ? text : undefined);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.cancelRun', cancel),
    vscode.commands.registerCommand('agentSwitchboard.endRun', async (target?: unknown): Promise<boolean> => {
      // From the palette: the selected run if it can be ended, else a pick among the runs that can.
      const explicit = runKeyOfTarget(target);
      const selected = explicit === undefined ? runOf(undefined) : undefined;
      const run =
        (explicit !== undefined ? ctx.store.state.runs.get(explicit) : undefined) ??
        (selected && isEndableRun(ctx.store.state, selected) ? selected : undefined) ??
        (await pickRun(ctx.store.state, 'End which run (waiting for your message)?', (r) => isEndableRun(ctx.store.state, r)));
      return run ? ctx.runs.end(run) : false;
    }),
    // The toolbar's Stop: Cancel Run for the selected run (a pick when none is selected).
    vscode.commands.registerCommand('agentSwitchboard.stopSelectedRun', () => cancel(ctx.selection.runKey)),
    vscode.commands.registerCommand('agentSwitchboard.showTranscript', async (target?: unknown) => {
      const run = runOf(target) ?? (await pickRun(ctx.store.state, 'Show which transcript?', () => true));
      if (run) {
        await ctx.runs.show(run.key);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.copyRunId', async (target?: unknown) => {
      const run = runOf(target);
      if (run) {
        await vscode.env.clipboard.writeText(run.runId);
        void vscode.window.setStatusBarMessage(`Copied run id ${run.runId}`, 3000);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.focusComposer', async () => {
      await ctx.transcript.reveal(true);
      ctx.transcript.post({ type: 'focusComposer' });
    }),
    vscode.commands.registerCommand('agentSwitchboard.mentionSelection', async () => {
      // The selection as an `@file:start-end` mention in the selected run's composer: an ACP agent gets the lines as
      // context (embedded or linked); other daemons see the mention as text.
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.uri.scheme !== 'file') {
        void vscode.window.showInformationMessage('Select some lines of a file in the workspace first.');
        return;
      }
      const path = vscode.workspace.asRelativePath(editor.document.uri, false);
      const { start, end } = editor.selection;
      const lastLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
      const range = editor.selection.isEmpty ? '' : `:${start.line + 1}-${lastLine}`;
      await ctx.transcript.reveal(true);
      ctx.transcript.post({ type: 'focusComposer', insert: `@${path}${range} ` });
    }),
  ];
}
