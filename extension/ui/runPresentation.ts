/**
 * How runs and connections look: codicons, colours, labels. Shared by the tree, the status bar, quick picks and
 * the transcript header so every place says the same thing. Run states come from extension/protocol/runStateDisplay.ts,
 * the table the webview's header uses too.
 */
import * as vscode from 'vscode';
import type { ConnectionInfo, RunInfo } from '../model/modelTypes';
import type { RunLook } from '../protocol/runStateDisplay';
import { runDisplay } from '../protocol/runStateDisplay';
import type { RunState } from '../protocol/transcriptTypes';

/** A bare state, or a run's look (model/runLook.ts: its outcome and whether it takes messages count too). */
function lookOf(state: RunState | RunLook): RunLook {
  return typeof state === 'string' ? { state } : state;
}

/** The run's label, from the table the webview header reads too. */
export function runStateLabel(state: RunState | RunLook): string {
  return runDisplay(lookOf(state)).label;
}

/** The run's icon as a ThemeIcon (`~spin` when it turns), coloured by the table's theme colour. */
export function runIcon(state: RunState | RunLook): vscode.ThemeIcon {
  const { icon, color, spin } = runDisplay(lookOf(state));
  return new vscode.ThemeIcon(spin ? `${icon}~spin` : icon, color ? new vscode.ThemeColor(color) : undefined);
}

/** The tree row's description: lower case, like the connection rows' ("connected · …"); the header keeps the label. */
export function runDescription(run: RunInfo, look: RunLook = { state: run.state }): string {
  const label = runStateLabel(look);
  const parts = [label.charAt(0).toLowerCase() + label.slice(1)];
  const who = [run.provider, run.model].filter((p) => p !== undefined && p !== '').join(' · ');
  if (who) {
    parts.push(who);
  }
  return parts.join(' — ');
}

export function connectionStateText(connection: ConnectionInfo, now: number): string {
  const s = connection.state;
  switch (s.kind) {
    case 'idle':
      return 'not connected';
    case 'connecting':
      return s.attempt > 1 ? `connecting (attempt ${s.attempt})…` : 'connecting…';
    case 'connected':
      return connection.serverDescription ? `connected · ${connection.serverDescription}` : 'connected';
    case 'reconnecting': {
      const seconds = Math.max(0, Math.ceil((s.retryAt - now) / 1000));
      return `reconnecting in ${seconds}s — ${s.reason}`;
    }
    case 'failed':
      return `failed: ${s.reason}`;
    case 'disconnected':
      return 'disconnected';
    default: {
      const _exhaustive: never = s;
      return _exhaustive;
    }
  }
}

export function connectionIcon(connection: ConnectionInfo): vscode.ThemeIcon {
  switch (connection.state.kind) {
    case 'connected':
      return new vscode.ThemeIcon('vm-running', new vscode.ThemeColor('testing.iconPassed'));
    case 'connecting':
    case 'reconnecting':
      return new vscode.ThemeIcon('loading~spin');
    case 'failed':
      return new vscode.ThemeIcon('vm-outline', new vscode.ThemeColor('testing.iconFailed'));
    default:
      return new vscode.ThemeIcon('vm-outline');
  }
}

/** First line of a prompt, shortened, for run titles. */
export function titleFromPrompt(prompt: string, max = 60): string {
  const line = prompt.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line || 'Untitled run';
}

/**
 * A connection's "N older runs…" row in the Connections tree: its finished runs stored but older than what the model
 * holds (drivers/kit/olderRuns.ts); a click loads the next page of them.
 */
export function olderRunsItem(connectionId: string, count: number): vscode.TreeItem {
  const item = new vscode.TreeItem(`${count} older run${count === 1 ? '' : 's'}…`, vscode.TreeItemCollapsibleState.None);
  item.id = `older:${connectionId}`;
  item.iconPath = new vscode.ThemeIcon('history');
  item.tooltip = 'Show more of this connection\'s finished runs (Search Run History… finds any stored run)';
  item.command = { command: 'agentSwitchboard.showOlderRuns', title: 'Show Older Runs', arguments: [connectionId] };
  item.contextValue = 'olderRuns';
  return item;
}
