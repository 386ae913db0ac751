/**
 * AgencyProxy run commands: *Continue in a New Run* (a daemon restart loses every run but not the provider session,
 * WIRE.md 1.9, so a lost run is continued through `resumeSessionId`) and *Take Over Run* (this editor observes runs
 * other clients started without acknowledging them, because an ack deletes their history for every client; taking
 * one over says so first). A run that is lost in this window offers the continuation in a notification.
 */
import * as vscode from 'vscode';
import { AgencyProxyDriver } from '../../drivers/agencyProxy/agencyProxyDriver';
import { DEFAULT_CONTINUE_PROMPT } from '../../drivers/agencyProxy/continueRun';
import type { ModelState, RunInfo } from '../../model/modelTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { sanitizeNotificationText } from '../notificationText';
import type { CommandContext } from './commandContext';
import { errorText, runKeyOfTarget } from './commandContext';
import { pickRun } from './pickers';

const isAgencyProxyRun = (state: ModelState, run: RunInfo): boolean => state.connections.get(run.connectionId)?.protocol === 'agency-proxy';

function driverOf(ctx: CommandContext, run: RunInfo): AgencyProxyDriver | undefined {
  const driver = ctx.connections.driver(run.connectionId);
  if (driver instanceof AgencyProxyDriver && ctx.store.state.connections.get(run.connectionId)?.state.kind === 'connected') {
    return driver;
  }
  void vscode.window.showWarningMessage(`"${sanitizeNotificationText(run.title, 60)}": its AgencyProxy daemon is not connected.`);
  return undefined;
}

async function targetRun(ctx: CommandContext, target: unknown, placeHolder: string, filter: (run: RunInfo) => boolean): Promise<RunInfo | undefined> {
  const key = runKeyOfTarget(target) ?? (target === undefined ? undefined : null);
  const explicit = key ? ctx.store.state.runs.get(key) : undefined;
  return explicit ?? (await pickRun(ctx.store.state, placeHolder, (r) => isAgencyProxyRun(ctx.store.state, r) && filter(r)));
}

async function continueRun(ctx: CommandContext, run: RunInfo, prompt?: string): Promise<string | undefined> {
  const driver = driverOf(ctx, run);
  if (!driver) {
    return undefined;
  }
  const message =
    prompt ??
    (await vscode.window.showInputBox({
      title: `Continue "${sanitizeNotificationText(run.title, 60)}" in a new run`,
      prompt: 'The first message of the new run, in the same provider session',
      value: DEFAULT_CONTINUE_PROMPT,
      ignoreFocusOut: true,
    }));
  if (!message?.trim()) {
    return undefined;
  }
  try {
    const runId = await driver.continueInNewRun(run.runId, { prompt: message });
    const key = `${run.connectionId}::${runId}`;
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', key);
    return key;
  } catch (error) {
    void vscode.window.showErrorMessage(`Could not continue "${sanitizeNotificationText(run.title, 60)}": ${errorText(error)}`);
    return undefined;
  }
}

/** Offers *Continue in a New Run* once for each AgencyProxy run that becomes lost in this window. */
function watchLostRuns(ctx: CommandContext): vscode.Disposable {
  const seen = new Map<string, RunInfo['state']>();
  const offered = new Set<string>();
  const check = (state: ModelState): void => {
    for (const run of state.runs.values()) {
      const before = seen.get(run.key);
      seen.set(run.key, run.state);
      // Only a change seen here: a run restored as lost after a reload was already offered in its own window.
      if (run.state !== 'lost' || before === undefined || before === 'lost' || offered.has(run.key) || !isAgencyProxyRun(state, run)) {
        continue;
      }
      offered.add(run.key);
      void vscode.window
        .showWarningMessage(`AgencyProxy lost "${sanitizeNotificationText(run.title, 60)}" (the daemon restarted). Its transcript is kept.`, 'Continue in a New Run')
        .then((choice) => (choice ? continueRun(ctx, run) : undefined));
    }
  };
  check(ctx.store.state);
  return ctx.store.onDidChange(check);
}

export function registerAgencyProxyRunCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    watchLostRuns(ctx),
    vscode.commands.registerCommand('agentSwitchboard.agencyProxy.continueRun', async (target?: unknown, prompt?: unknown) => {
      const run = await targetRun(ctx, target, 'Continue which run in a new run?', (r) => isTerminalRunState(r.state));
      return run ? continueRun(ctx, run, typeof prompt === 'string' ? prompt : undefined) : undefined;
    }),
    vscode.commands.registerCommand('agentSwitchboard.agencyProxy.adoptRun', async (target?: unknown, confirmed?: unknown) => {
      const run = await targetRun(ctx, target, 'Take over which run?', () => true);
      const driver = run ? driverOf(ctx, run) : undefined;
      if (!run || !driver) {
        return false;
      }
      if (driver.ownsRun(run.runId)) {
        void vscode.window.showInformationMessage(`"${sanitizeNotificationText(run.title, 60)}" is already this editor's run: its events are acknowledged once stored.`);
        return true;
      }
      const choice =
        confirmed === true
          ? 'Take Over'
          : await vscode.window.showWarningMessage(
              `Take over "${sanitizeNotificationText(run.title, 60)}"?`,
              {
                modal: true,
                detail:
                  'Another client started this run. This editor only observes it. Taking it over makes this editor acknowledge its events once they are stored, which deletes them from the daemon for every client (a client that restarts can then no longer replay them).',
              },
              'Take Over',
            );
      if (choice !== 'Take Over') {
        return false;
      }
      try {
        await driver.adoptRun(run.runId);
        return true;
      } catch (error) {
        void vscode.window.showErrorMessage(`Could not take over the run: ${errorText(error)}`);
        return false;
      }
    }),
  ];
}
