/**
 * SCV commands: start a new session here (after a drop, or replacing the live one), clear the session, pause or
 * resume its prompt queue, read the daemon status (refresh the tree, or show the JSON), and queue the prompts the
 * previous session left in its queue (offered once per new session by a notification, and from the palette).
 */
import * as vscode from 'vscode';
import { DriverError } from '../../drivers/driver';
import { ScvDriver } from '../../drivers/scv/scvDriver';
import type { ScvLeftoverOffer } from '../../drivers/scv/scvLeftovers';
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

const STALE_LEFTOVERS = 'Those leftover SCV prompts were already queued or discarded, or their new session has ended. Nothing was changed.';

function promptCount(n: number): string {
  return `${n} queued prompt${n === 1 ? '' : 's'}`;
}

/** Queues the live session's leftover offer (only `offerId`'s, when a notification names one). */
async function queueLeftovers(ctx: CommandContext, driver: ScvDriver, offerId?: string): Promise<void> {
  const offer = driver.leftoverOffer;
  if (!offer || (offerId !== undefined && offer.id !== offerId)) {
    void vscode.window.showInformationMessage(STALE_LEFTOVERS);
    return;
  }
  try {
    const sent = await driver.queueLeftoverPrompts();
    ctx.selection.select(runKeyOf(driver.connectionId, offer.toRunId));
    await ctx.transcript.reveal();
    void vscode.window.showInformationMessage(`Queued ${promptCount(sent)} left over from the previous SCV session.`);
  } catch (error) {
    void vscode.window.showErrorMessage(`The leftover SCV prompts were not all queued: ${errorText(error)}`);
  }
}

/** Asks "Queue them" / "Discard" once per offer, for every SCV driver (drivers are created as connections are). */
function announceLeftoverOffers(ctx: CommandContext): vscode.Disposable {
  const watched = new WeakSet<ScvDriver>();
  const announced = new Set<string>();
  const listeners: { dispose(): void }[] = [];
  const announce = (driver: ScvDriver, offer: ScvLeftoverOffer): void => {
    if (announced.has(offer.id)) {
      return;
    }
    announced.add(offer.id);
    const n = offer.prompts.length;
    // Only counts in the text: the prompts themselves are in the transcript, not in a notification.
    void vscode.window
      .showInformationMessage(`The previous SCV session ended with ${promptCount(n)} that never ran. Queue ${n === 1 ? 'it' : 'them'} in the new session?`, 'Queue them', 'Discard')
      .then(async (choice) => {
        if (choice === 'Queue them') {
          await queueLeftovers(ctx, driver, offer.id);
        } else if (choice === 'Discard') {
          if (driver.leftoverOffer?.id === offer.id) {
            driver.discardLeftoverPrompts();
          } else {
            void vscode.window.showInformationMessage(STALE_LEFTOVERS);
          }
        }
      });
  };
  const scan = (): void => {
    for (const connection of ctx.store.state.connections.values()) {
      const driver = connection.protocol === 'scv' ? ctx.connections.driver(connection.id) : undefined;
      if (driver instanceof ScvDriver && !watched.has(driver)) {
        watched.add(driver);
        listeners.push(driver.onLeftoverOffer((offer) => announce(driver, offer)));
        const open = driver.leftoverOffer;
        if (open) {
          announce(driver, open);
        }
      }
    }
  };
  const onChange = ctx.store.onDidChange(scan);
  scan();
  return new vscode.Disposable(() => {
    onChange.dispose();
    for (const listener of listeners) {
      listener.dispose();
    }
  });
}

export function registerScvCommands(ctx: CommandContext): vscode.Disposable[] {
  const showRun = async (runKey: string): Promise<void> => {
    ctx.selection.select(runKey);
    await ctx.transcript.reveal();
  };
  return [
    announceLeftoverOffers(ctx),
    vscode.commands.registerCommand('agentSwitchboard.scv.queueLeftoverPrompts', async (target?: unknown) => {
      const connectionId = await scvConnection(ctx, target, 'Queue the leftover prompts of which SCV daemon?');
      const driver = connectionId ? scvDriver(ctx, connectionId) : undefined;
      if (!driver) {
        return;
      }
      if (!driver.leftoverOffer) {
        void vscode.window.showInformationMessage('There are no leftover SCV prompts to queue: the previous session of this connection left none, or they were already queued or discarded.');
        return;
      }
      await queueLeftovers(ctx, driver);
    }),
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
            { modal: true, detail: 'A session lives on its connection: its running turn is cancelled. Its transcript is kept, and its queued prompts are offered to the new session.' },
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
