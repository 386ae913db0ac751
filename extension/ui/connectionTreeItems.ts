/**
 * What the Connections tree (connectionsTreeProvider.ts) shows of a connection row, and the `contextValue` flags of a
 * run row: `package.json`'s menus match these flags, so a menu offers only what works for that row now.
 */
import * as vscode from 'vscode';
import type { ConnectionInfo, ModelState, RunInfo } from '../model/modelTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import { takesMessages } from './runMessaging';
import { connectionIcon, connectionStateText } from './runPresentation';

/** What the tree adds to a connection row that a repository's settings define (ui/workspaceConnections). */
export interface ConnectionNote {
  readonly description?: string;
  readonly tooltip: string;
  readonly flag: string;
}

/** A connection's row: its state, the daemon's status lines, its note; `actionFlags` are its daemon actions' flags. */
export function connectionTreeItem(connection: ConnectionInfo, note: ConnectionNote | undefined, actionFlags: string): vscode.TreeItem {
  const item = new vscode.TreeItem(connection.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `connection:${connection.id}`;
  item.description = connectionStateText(connection, Date.now());
  item.iconPath = connectionIcon(connection);
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.appendText(`${connection.name} (${connection.protocol})\n\n${item.description}`);
  if (connection.warning) {
    tooltip.appendText(`\n\n⚠ ${connection.warning}`);
  }
  // Daemon-reported status lines (e.g. SCV components and delegations); structured values stay out of the tooltip.
  const detailLines = Object.entries(connection.details ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  if (detailLines.length > 0) {
    tooltip.appendText(`\n\n${detailLines.map(([k, v]) => `${k}: ${v}`).join('\n')}`);
  }
  if (note) {
    // While it is not connected, what keeps it from connecting (not allowed yet, refused, untrusted) is its state.
    if (note.description && (connection.state.kind === 'idle' || connection.state.kind === 'disconnected')) {
      item.description = note.description;
      item.iconPath = new vscode.ThemeIcon('workspace-untrusted');
    }
    tooltip.appendText(`\n\n${note.tooltip}`);
  }
  item.tooltip = tooltip;
  const flags = (note?.flag ?? '') + (connection.capabilities.includes('run.start') ? '+start' : '') + actionFlags;
  item.contextValue = `connection.${connection.state.kind}${flags}`;
  return item;
}

/** A run row's flags: what it can be sent, ended or cancelled with, whether it waits for approval or has changes. */
export function runContextFlags(run: RunInfo, state: ModelState): string {
  const capabilities = state.connections.get(run.connectionId)?.capabilities ?? [];
  const active = !isTerminalRunState(run.state) && run.state !== 'stopped';
  let flags = '';
  if (takesMessages(run, capabilities)) {
    flags += '+send';
  }
  const connected = state.connections.get(run.connectionId)?.state.kind === 'connected';
  if (connected && run.state === 'idle' && capabilities.includes('run.end')) {
    // Waiting for the user: End Run (the same cancel_run) says what it does; Cancel would suggest work is stopped.
    flags += '+end';
  } else if (active && capabilities.includes('run.cancel')) {
    flags += '+cancel';
  }
  if (run.pendingApprovals.length > 0) {
    flags += '+approval';
  }
  if (state.changeSets.has(run.key)) {
    flags += '+changes';
  }
  return flags;
}
