/**
 * Resolves what a hive command acts on: a tree node (`{type:'run', key}` = an agent, `{type:'connection', id}` = a
 * hive), a run key / connection id string, or nothing (then a quick pick). Also the argument object tests and
 * automation may pass to skip prompts.
 */
import * as vscode from 'vscode';
import { HiveDriver } from '../../drivers/hive/hiveDriver';
import type { HiveAgentSummary } from '../../drivers/hive/hiveDriver';
import { runKeyOf } from '../../model/modelTypes';
import type { CommandContext } from './commandContext';
import { connectionIdOfTarget, runKeyOfTarget } from './commandContext';
import { pickConnection } from './pickers';

/** Optional second argument of the hive commands: answers that skip the prompts. */
export interface HiveCommandArgs {
  /** Skip the modal confirmation of a destructive action. */
  readonly confirmed?: boolean;
  readonly lines?: number;
  readonly scheduleId?: number;
  readonly scheduleAction?: 'fire' | 'edit' | 'cancel';
  readonly body?: string;
  readonly description?: string;
  readonly intervalSeconds?: number;
  readonly name?: string;
  readonly inputs?: readonly string[];
  readonly targets?: readonly string[];
  readonly unit?: string;
  readonly priority?: string;
  readonly grep?: string;
}

export function hiveArgs(value: unknown): HiveCommandArgs {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as HiveCommandArgs) : {};
}

export function hiveDriverOf(ctx: CommandContext, connectionId: string): HiveDriver | undefined {
  const driver = ctx.connections.driver(connectionId);
  return driver instanceof HiveDriver ? driver : undefined;
}

export interface HiveTarget {
  readonly connectionId: string;
  readonly driver: HiveDriver;
}

export interface AgentTarget extends HiveTarget {
  readonly name: string;
  readonly runKey: string;
}

function isHiveConnection(ctx: CommandContext, id: string): boolean {
  const connection = ctx.store.state.connections.get(id);
  return connection?.protocol === 'hive' && connection.state.kind === 'connected';
}

/** The hive a command acts on. `needManager`: only hives whose manager socket is reachable. */
export async function resolveHive(ctx: CommandContext, target: unknown, needManager: boolean): Promise<HiveTarget | undefined> {
  const runKey = runKeyOfTarget(target);
  const connectionId =
    (runKey ? ctx.store.state.runs.get(runKey)?.connectionId : undefined) ??
    connectionIdOfTarget(target) ??
    (await pickConnection(
      ctx.store.state,
      needManager ? 'Which hive (with its manager socket)?' : 'Which hive?',
      (c) => isHiveConnection(ctx, c.id) && (!needManager || c.capabilities.includes('hive.manager')),
    ));
  if (!connectionId) {
    return undefined;
  }
  const driver = hiveDriverOf(ctx, connectionId);
  if (!driver || !isHiveConnection(ctx, connectionId)) {
    void vscode.window.showWarningMessage('That hive is not connected.');
    return undefined;
  }
  if (needManager && !driver.hasManager) {
    void vscode.window.showWarningMessage(`This needs the hive manager's socket, and "${ctx.store.state.connections.get(connectionId)?.name ?? connectionId}" has none.`);
    return undefined;
  }
  return { connectionId, driver };
}

/** The agent a command acts on; `filter` narrows the quick pick (a tree node is taken as given). */
export async function resolveAgent(
  ctx: CommandContext,
  target: unknown,
  placeHolder: string,
  filter: (agent: HiveAgentSummary, driver: HiveDriver) => boolean,
): Promise<AgentTarget | undefined> {
  const runKey = runKeyOfTarget(target);
  if (runKey) {
    const run = ctx.store.state.runs.get(runKey);
    const driver = run ? hiveDriverOf(ctx, run.connectionId) : undefined;
    if (!run || !driver || !isHiveConnection(ctx, run.connectionId)) {
      void vscode.window.showWarningMessage('That is not an agent of a connected hive.');
      return undefined;
    }
    return { connectionId: run.connectionId, driver, name: run.runId, runKey };
  }
  const only = connectionIdOfTarget(target);
  const items: (vscode.QuickPickItem & { agent: AgentTarget })[] = [];
  for (const connection of ctx.store.state.connections.values()) {
    const driver = hiveDriverOf(ctx, connection.id);
    if (!driver || (only !== undefined && connection.id !== only) || !isHiveConnection(ctx, connection.id)) {
      continue;
    }
    for (const agent of driver.agents().filter((a) => filter(a, driver))) {
      items.push({
        label: agent.name,
        description: `${agent.isManager ? 'manager' : agent.running ? 'running' : 'stopped'} · ${connection.name}`,
        agent: { connectionId: connection.id, driver, name: agent.name, runKey: runKeyOf(connection.id, agent.name) },
      });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No hive agent fits (is a hive connected?).');
    return undefined;
  }
  if (items.length === 1) {
    return items[0]!.agent;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.agent;
}

/** A modal confirmation; `args.confirmed` (tests, automation) skips it. */
export async function confirmModal(args: HiveCommandArgs, message: string, detail: string, button: string): Promise<boolean> {
  if (args.confirmed) {
    return true;
  }
  try {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) === button;
  } catch {
    return false; // no dialog could be shown (e.g. a headless workbench): not confirmed, nothing happens
  }
}

export const APPROVED_ELSEWHERE =
  'hyperhive decides it on the host admin side: approve or deny it on the dashboard (or host.sock). It cannot be approved from the editor.';
