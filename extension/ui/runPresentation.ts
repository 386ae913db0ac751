/**
 * How runs and connections look: codicons, colours, labels. Shared by the tree, the status bar, quick picks and
 * the transcript header so every place says the same thing.
 */
import * as vscode from 'vscode';
import type { ConnectionInfo, RunInfo } from '../model/modelTypes';
import type { RunState } from '../protocol/transcriptTypes';

const RUN_ICONS: Record<RunState, [string, string | undefined]> = {
  starting: ['loading~spin', undefined],
  running: ['sync~spin', 'charts.blue'],
  waiting_approval: ['bell-dot', 'charts.yellow'],
  finishing: ['loading~spin', undefined],
  // Not a spinner: the run finished answering and waits for the user (an interactive run, an SCV session).
  idle: ['comment-discussion', 'charts.green'],
  completed: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  canceled: ['circle-slash', 'disabledForeground'],
  interrupted: ['debug-disconnect', 'charts.orange'],
  lost: ['question', 'charts.orange'],
  stopped: ['debug-stop', 'disabledForeground'],
};

export function runStateLabel(state: RunState): string {
  switch (state) {
    case 'waiting_approval':
      return 'waiting for approval';
    case 'idle':
      return 'waiting for your message';
    default:
      return state;
  }
}

export function runIcon(state: RunState): vscode.ThemeIcon {
  const [id, color] = RUN_ICONS[state];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

export function runDescription(run: RunInfo): string {
  const parts = [runStateLabel(run.state)];
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
