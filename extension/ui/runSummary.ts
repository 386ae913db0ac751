/**
 * Builds the transcript header (`RunSummary`) for a run from the model: state, queue, side panels (stored and
 * derived, see runPanels.ts) and the allowed actions. It speaks the webview contract, so it lives beside the view
 * rather than in the model. Pure (no `vscode`).
 */
import type { ModelState, SlashCommand } from '../model/modelTypes';
import { runKeyOf } from '../model/runKeys';
import { runLookOf } from '../model/runLook';
import { usageLongText, usageShortText } from '../protocol/runUsage';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { DaemonActionButton, RunSummary, SlashCommandView } from '../protocol/webviewMessages';
import { continueRefusal } from './checkpoints/continueRefusal';
import { runPanelsOf } from './runPanels';
import { takesMessages } from './runMessaging';

/** `daemonActions`: the header buttons of the daemon actions that apply to the run now (actionTargets.ts). */
export function runSummaryOf(state: ModelState, runKey: string, daemonActions: readonly DaemonActionButton[] = []): RunSummary | null {
  const run = state.runs.get(runKey);
  const connection = run ? state.connections.get(run.connectionId) : undefined;
  // A run lives only as long as its connection's profile (the reducer drops both together).
  if (!run || !connection) {
    return null;
  }
  const panels = runPanelsOf(state, runKey);
  const parent = run.parentRunId !== undefined ? state.runs.get(runKeyOf(run.connectionId, run.parentRunId)) : undefined;
  const capabilities = connection.capabilities;
  const connected = connection.state.kind === 'connected';
  const active = !isTerminalRunState(run.state) && run.state !== 'stopped';
  const queues = capabilities.includes('run.queue');
  const canSend = connected && takesMessages(run, capabilities);
  const look = runLookOf(state, run);
  const noContinue = continueRefusal(state, run);
  return {
    key: run.key,
    protocol: connection.protocol,
    connectionName: connection.name,
    runId: run.runId,
    title: run.title,
    ...(run.provider ? { provider: run.provider } : {}),
    ...(run.model ? { model: run.model } : {}),
    state: run.state,
    ...(run.stateDetail ? { stateDetail: run.stateDetail } : {}),
    ...(look.changeSetRefused !== undefined ? { changeSetRefused: look.changeSetRefused } : {}),
    ...(look.takesNoMessages ? { takesNoMessages: true } : {}),
    pendingApprovals: run.pendingApprovals.length,
    actions: {
      send: canSend,
      queues,
      stop: connected && active && capabilities.includes('run.cancel') && run.state !== 'idle',
      end: connected && run.state === 'idle' && capabilities.includes('run.end'),
      changeSet: state.changeSets.has(run.key),
    },
    ...(daemonActions.length > 0 ? { daemonActions: daemonActions.map((a) => ({ ...a })) } : {}),
    // A finished session's queue is gone with it; showing its controls would only lead to errors.
    ...(run.queue && active ? { queue: run.queue.map((q) => ({ ...q })) } : {}),
    ...(run.queuePaused !== undefined && active ? { queuePaused: run.queuePaused } : {}),
    ...(panels.length > 0 ? { panels: panels.map((p) => ({ ...p, entries: [...p.entries] })) } : {}),
    ...(run.slashCommands && run.slashCommands.length > 0 ? { slashCommands: run.slashCommands.map(slashCommandView) } : {}),
    ...(run.usage ? { usage: { short: usageShortText(run.usage), long: usageLongText(run.usage) } } : {}),
    ...(parent ? { parentTitle: parent.title } : {}),
    ...(noContinue !== undefined ? { noContinue } : {}),
  };
}

/** Only the fields the view knows: a driver's object may carry more (the webview's schema would keep it anyway). */
function slashCommandView(command: SlashCommand): SlashCommandView {
  return { name: command.name, description: command.description, ...(command.hint !== undefined ? { hint: command.hint } : {}) };
}
