/** Quick picks shared by the commands: choose a connection, a run, a pending approval. */
import * as vscode from 'vscode';
import type { Capability, ModelState, RunInfo } from '../../model/modelTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { connectionStateText, runDescription } from '../runPresentation';

export async function pickConnection(
  state: ModelState,
  placeHolder: string,
  filter: (c: { id: string; capabilities: readonly Capability[]; state: { kind: string } }) => boolean = () => true,
): Promise<string | undefined> {
  const items = [...state.connections.values()].filter(filter).map((c) => ({
    label: c.name,
    description: `${c.protocol} — ${connectionStateText(c, Date.now())}`,
    id: c.id,
  }));
  if (items.length === 0) {
    const choice = await vscode.window.showInformationMessage('No matching daemon connection.', 'Manage Connections');
    if (choice) {
      await vscode.commands.executeCommand('agentSwitchboard.manageConnections');
    }
    return undefined;
  }
  if (items.length === 1) {
    return items[0]!.id;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.id;
}

export async function pickRun(state: ModelState, placeHolder: string, filter: (r: RunInfo) => boolean): Promise<RunInfo | undefined> {
  const runs = [...state.runs.values()].filter(filter).sort((a, b) => b.createdAt - a.createdAt);
  if (runs.length === 0) {
    void vscode.window.showInformationMessage('There is no run for that.');
    return undefined;
  }
  if (runs.length === 1) {
    return runs[0];
  }
  const items = runs.map((r) => ({ label: r.title, description: runDescription(r), detail: `${state.connections.get(r.connectionId)?.name ?? ''} · ${r.runId}`, run: r }));
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.run;
}

export function isActiveRun(run: RunInfo): boolean {
  return !isTerminalRunState(run.state) && run.state !== 'stopped';
}

/** A run that waits for the user's next message and that its connected daemon can end (see `run.end`). */
export function isEndableRun(state: ModelState, run: RunInfo): boolean {
  const connection = state.connections.get(run.connectionId);
  return run.state === 'idle' && connection?.state.kind === 'connected' && connection.capabilities.includes('run.end');
}
