/**
 * SCV commands: start a new session here (after a drop, or replacing the live one), clear the session, pause or
 * resume its prompt queue, and read the daemon status (refresh the tree, or show the JSON).
 */
import * as vscode from 'vscode';
import { DriverError } from '../../drivers/driver';
import { ScvDriver } from '../../drivers/scv/scvDriver';
import type { RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, errorText, runKeyOfTarget } from './commandContext';
import { pickConnection } from './pickers';

/** Options automation and tests may pass to "Start New SCV Session Here". */
export interface StartScvSessionArgs {
  /** End the connection's live session without asking. */
  readonly replace?: boolean;
}

function isScvConnectionId(id: string | undefined): id is string {
  return id !== undefined && id.startsWith('scv:');
}

/** The SCV connection a command is about: the target's, the selected run's, or one the user picks. */
async function scvConnection(ctx: CommandContext, target: unknown, placeHolder: string): Promise<string | undefined> {
  const runKey = runKeyOfTarget(target);
  const fromRun = runKey ? ctx.store.state.runs.get(runKey)?.connectionId : undefined;
  const explicit = fromRun ?? connectionIdOfTarget(target);
  if (explicit !== undefined) {
    return isScvConnectionId(explicit) ? explicit : undefined;
  }
  const selected = ctx.selection.runKey ? ctx.store.state.runs.get(ctx.selection.runKey)?.connectionId : undefined;
  if (isScvConnectionId(selected)) {
    return selected;
  }
  return pickConnection(ctx.store.state, placeHolder, (c) => c.id.startsWith('scv:'));
}

function scvDriver(ctx: CommandContext, connectionId: string): ScvDriver | undefined {
  const driver = ctx.connections.driver(connectionId);
  if (!(driver instanceof ScvDriver)) {
    void vscode.window.showWarningMessage('That SCV connection is not connected. Connect it first.');
    return undefined;
  }
  return driver;
}

/** The SCV session (run) a command is about: the target run, the selected one, or the connection's live one. */
async function scvSession(ctx: CommandContext, target: unknown, placeHolder: string): Promise<{ driver: ScvDriver; run: RunInfo } | undefined> {
  const connectionId = await scvConnection(ctx, target, placeHolder);
  if (!connectionId) {
    return undefined;
  }
  const driver = scvDriver(ctx, connectionId);
  if (!driver) {
    return undefined;
  }
  const chosen = runKeyOfTarget(target) ?? ctx.selection.runKey;
  const chosenRun = chosen ? ctx.store.state.runs.get(chosen) : undefined;
  const live = driver.liveSessionRunId;
  const run = chosenRun?.connectionId === connectionId ? chosenRun : live ? ctx.store.state.runs.get(runKeyOf(connectionId, live)) : undefined;
  if (!run) {
    void vscode.window.showInformationMessage('There is no live SCV session. Use "Start New SCV Session Here" first.');
    return undefined;
  }
  return { driver, run };
}

export function registerScvCommands(ctx: CommandContext): vscode.Disposable[] {
  const showRun = async (runKey: string): Promise<void> => {
    ctx.selection.select(runKey);
    await ctx.transcript.reveal();
  };
  return [
    vscode.commands.registerCommand('agentSwitchboard.scv.startSession', async (target?: unknown, args?: StartScvSessionArgs) => {
      const connectionId = await scvConnection(ctx, target, 'Start a new session on which SCV daemon?');
      const driver = connectionId ? scvDriver(ctx, connectionId) : undefined;
      if (!connectionId || !driver) {
        return undefined;
      }
      try {
        let runId: string;
        try {
          runId = await driver.startNewSession({ replace: args?.replace === true });
        } catch (error) {
          if (!(error instanceof DriverError && error.code === 'session_active')) {
            throw error;
          }
          const choice = await vscode.window.showWarningMessage(
            'End the current SCV session and start a new one here?',
            { modal: true, detail: 'A session lives on its connection: its running turn is cancelled and its queued prompts are dropped. Its transcript is kept.' },
            'Start New Session',
          );
          if (choice !== 'Start New Session') {
            return undefined;
          }
          runId = await driver.startNewSession({ replace: true });
        }
        const runKey = runKeyOf(connectionId, runId);
        await showRun(runKey);
        return runKey;
      } catch (error) {
        ctx.log.error(`Start SCV session: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`The SCV session did not start: ${errorText(error)}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.scv.clearSession', async (target?: unknown, confirmed?: unknown) => {
      const found = await scvSession(ctx, target, 'Clear the session of which SCV daemon?');
      if (!found) {
        return;
      }
      if (confirmed !== true) {
        const choice = await vscode.window.showWarningMessage(
          `Clear "${found.run.title}"?`,
          { modal: true, detail: 'SCV forgets the conversation and empties the queue. The transcript stays visible here.' },
          'Clear',
        );
        if (choice !== 'Clear') {
          return;
        }
      }
      try {
        await found.driver.clearSession(found.run.runId);
      } catch (error) {
        void vscode.window.showErrorMessage(`The session was not cleared: ${errorText(error)}`);
      }
    }),
    ...(['pause', 'resume'] as const).map((verb) =>
      vscode.commands.registerCommand(`agentSwitchboard.scv.${verb}Queue`, async (target?: unknown) => {
        const found = await scvSession(ctx, target, `${verb === 'pause' ? 'Pause' : 'Resume'} the queue of which SCV daemon?`);
        if (!found) {
          return;
        }
        try {
          await found.driver.pauseQueue(found.run.runId, verb === 'pause');
        } catch (error) {
          void vscode.window.showErrorMessage(`The queue was not ${verb === 'pause' ? 'paused' : 'resumed'}: ${errorText(error)}`);
        }
      }),
    ),
    vscode.commands.registerCommand('agentSwitchboard.scv.refreshStatus', async (target?: unknown) => {
      const connectionId = await scvConnection(ctx, target, 'Refresh the status of which SCV daemon?');
      const driver = connectionId ? scvDriver(ctx, connectionId) : undefined;
      if (!driver) {
        return;
      }
      try {
        await driver.refresh();
      } catch (error) {
        void vscode.window.showErrorMessage(`SCV daemon status: ${errorText(error)}`);
      }
    }),
    vscode.commands.registerCommand('agentSwitchboard.scv.showStatus', async (target?: unknown) => {
      const connectionId = await scvConnection(ctx, target, 'Show the status of which SCV daemon?');
      const driver = connectionId ? scvDriver(ctx, connectionId) : undefined;
      if (!driver) {
        return;
      }
      try {
        const status = await driver.daemonStatus();
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(status, null, 2) });
        await vscode.window.showTextDocument(doc, { preview: true });
      } catch (error) {
        void vscode.window.showErrorMessage(`SCV daemon status: ${errorText(error)}`);
      }
    }),
  ];
}
