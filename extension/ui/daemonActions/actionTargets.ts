/**
 * Which declared actions apply where, and what an action command acts on. Enablement is the kit's pure
 * `actionApplies` over model data plus the driver's facts, so the tree's context menus, the transcript header's
 * buttons and the quick picks always agree.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { RegisteredAction } from '../../drivers/daemonRegistry';
import { registeredActions } from '../../drivers/daemonRegistry';
import type { ActionSubject, ActionTarget, DaemonAction } from '../../drivers/kit/daemonActions';
import { actionApplies } from '../../drivers/kit/daemonActions';
import type { ModelState, RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/runKeys';
import { connectionIdOfTarget, runKeyOfTarget } from '../commands/commandContext';
import { pickConnection, pickRun } from '../commands/pickers';
import { sanitizeNotificationText } from '../notificationText';

const ALL = registeredActions();

/** The subject `actionApplies` is evaluated on, with the driver's facts (none while there is no driver). */
export function subjectOf(state: ModelState, connections: ConnectionManager, connectionId: string, run?: RunInfo): ActionSubject | undefined {
  const connection = state.connections.get(connectionId);
  if (!connection) {
    return undefined;
  }
  const facts = connections.driver(connectionId)?.actionFacts?.(run?.runId) ?? [];
  return { connection, ...(run ? { run } : {}), facts };
}

function applies(entry: RegisteredAction, subject: ActionSubject | undefined): subject is ActionSubject {
  return subject !== undefined && subject.connection.protocol === entry.protocol && actionApplies(entry.action, subject);
}

/** The actions that apply to a connection (no run) or to one of its runs right now. */
export function applicableActions(state: ModelState, connections: ConnectionManager, connectionId: string, run?: RunInfo): readonly DaemonAction[] {
  const subject = subjectOf(state, connections, connectionId, run);
  return ALL.filter((entry) => applies(entry, subject)).map((entry) => entry.action);
}

/**
 * The actions a tree row offers: those that apply to it, and on a run's row also the connection actions that have
 * a run-row menu (they act on the run's connection; the menu's `runStates` narrow them in package.json).
 */
export function rowActions(state: ModelState, connections: ConnectionManager, connectionId: string, run?: RunInfo): readonly DaemonAction[] {
  if (!run) {
    return applicableActions(state, connections, connectionId);
  }
  const connectionSubject = subjectOf(state, connections, connectionId);
  const onRunRows = ALL.filter((e) => e.action.scope === 'connection' && e.action.menus?.some((m) => m.item === 'run') && applies(e, connectionSubject));
  return [...applicableActions(state, connections, connectionId, run), ...onRunRows.map((e) => e.action)];
}

export interface ResolvedTarget {
  readonly target: ActionTarget;
  readonly run?: RunInfo;
  readonly connectionName: string;
}

/**
 * What the command acts on: the tree node or run key / connection id it was given, else the selected run (run
 * scope), else one the user picks among those the action applies to. An explicit target the action does not apply
 * to is refused with a message saying why, so nothing is sent that the daemon would reject.
 */
export async function resolveTarget(
  entry: RegisteredAction,
  given: unknown,
  state: ModelState,
  connections: ConnectionManager,
  selectedRunKey: string | undefined,
): Promise<ResolvedTarget | undefined> {
  const { action } = entry;
  const explicitRunKey = runKeyOfTarget(given);
  const explicitConnection = connectionIdOfTarget(given);
  const nameOf = (id: string): string => state.connections.get(id)?.name ?? id;
  const refuse = (what: string): undefined => {
    void vscode.window.showWarningMessage(`"${action.title}" does not apply to ${what} now.`);
    return undefined;
  };
  if (action.scope === 'connection') {
    const id = explicitConnection ?? (explicitRunKey ? state.runs.get(explicitRunKey)?.connectionId : undefined);
    if (id !== undefined) {
      return applies(entry, subjectOf(state, connections, id)) ? { target: { connectionId: id }, connectionName: nameOf(id) } : refuse(`"${sanitizeNotificationText(nameOf(id), 60)}"`);
    }
    const picked = await pickConnection(state, action.pickTarget, (c) => applies(entry, subjectOf(state, connections, c.id)));
    return picked ? { target: { connectionId: picked }, connectionName: nameOf(picked) } : undefined;
  }
  const runApplies = (run: RunInfo): boolean => applies(entry, subjectOf(state, connections, run.connectionId, run));
  const asResolved = (run: RunInfo): ResolvedTarget => ({ target: { connectionId: run.connectionId, runId: run.runId }, run, connectionName: nameOf(run.connectionId) });
  if (explicitRunKey !== undefined) {
    const run = state.runs.get(explicitRunKey);
    return run && runApplies(run) ? asResolved(run) : refuse(run ? `"${sanitizeNotificationText(run.title, 60)}"` : 'that run');
  }
  const selected = selectedRunKey ? state.runs.get(selectedRunKey) : undefined;
  if (explicitConnection === undefined && selected && runApplies(selected)) {
    return asResolved(selected);
  }
  const picked = await pickRun(state, action.pickTarget, (r) => (explicitConnection === undefined || r.connectionId === explicitConnection) && runApplies(r));
  return picked ? asResolved(picked) : undefined;
}

/** The run key or connection id an offer's target stands for (what an action command takes as its target). */
export function targetArgument(target: ActionTarget): string {
  return target.runId !== undefined ? runKeyOf(target.connectionId, target.runId) : target.connectionId;
}
