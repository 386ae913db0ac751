/**
 * The editor's side of `TerminalViews` (drivers/kit/terminalViews.ts): every command an agent runs through the
 * editor gets an editor terminal of its own (agentTerminalPty.ts), named after the run and the command, in the
 * terminal panel where people look for commands. "Show terminal" on the transcript's tool row and the palette's
 * "Show Agent Terminal…" reveal one. In an untrusted workspace no command runs at all. A terminal whose command ended
 * stays open, showing it, until the person closes it.
 */
import * as vscode from 'vscode';
import type { TerminalView, TerminalViewSpec, TerminalViews } from '../../drivers/kit/terminalViews';
import { runKeyOf } from '../../model/runKeys';
import type { AgentTerminalState } from './agentTerminalPty';
import { AgentTerminalPty, shownCommandLine } from './agentTerminalPty';

/** The longest terminal name (the tab and the list of terminals show it). */
const NAME_MAX = 60;

/** What the tests (and anyone automating the extension) can read of an agent terminal. */
export interface AgentTerminalInfo {
  readonly name: string;
  readonly runKey: string;
  readonly terminalId: string;
  readonly state: AgentTerminalState;
  /** What it shows, without colours. */
  readonly text: string;
}

interface Entry {
  readonly terminal: vscode.Terminal;
  readonly pty: AgentTerminalPty;
  readonly runKey: string;
}

/** The terminal's name: the run's title and the command line, cut to fit. */
export function terminalName(spec: TerminalViewSpec): string {
  const name = `${spec.runTitle} · ${shownCommandLine(spec)}`.replace(/\s+/g, ' ');
  return name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name;
}

export class AgentTerminals implements TerminalViews, vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.subscriptions.push(
      vscode.window.onDidCloseTerminal((closed) => {
        for (const [key, entry] of this.entries) {
          if (entry.terminal === closed) {
            this.entries.delete(key);
            entry.pty.dispose();
          }
        }
      }),
      vscode.commands.registerCommand('agentSwitchboard.showAgentTerminal', (runKey?: unknown, terminalId?: unknown) =>
        typeof runKey === 'string' && typeof terminalId === 'string' ? this.reveal(runKey, terminalId) : this.pick(),
      ),
    );
  }

  refusal(): string | undefined {
    return vscode.workspace.isTrusted ? undefined : 'This workspace is not trusted: Agent Switchboard runs no commands for an agent in it.';
  }

  open(spec: TerminalViewSpec, stop: () => void): TerminalView {
    const pty = new AgentTerminalPty(spec, stop);
    const terminal = vscode.window.createTerminal({ name: terminalName(spec), pty, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
    const runKey = runKeyOf(spec.connectionId, spec.runId);
    this.entries.set(keyOf(runKey, spec.terminalId), { terminal, pty, runKey });
    return pty;
  }

  /** Shows the terminal of a run's command (the transcript's "Show terminal"). */
  async reveal(runKey: string, terminalId: string): Promise<void> {
    const entry = this.entries.get(keyOf(runKey, terminalId));
    if (!entry) {
      void vscode.window.showInformationMessage('That terminal is no longer open: it was closed, or the window was reloaded since the command ran.');
      return;
    }
    entry.terminal.show(false);
  }

  list(): AgentTerminalInfo[] {
    return [...this.entries.values()].map(({ terminal, pty, runKey }) => ({ name: terminal.name, runKey, terminalId: pty.spec.terminalId, state: pty.state, text: pty.shownText }));
  }

  dispose(): void {
    for (const entry of this.entries.values()) {
      entry.terminal.dispose();
    }
    this.entries.clear();
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  private async pick(): Promise<void> {
    const entries = [...this.entries.values()];
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('No agent has run a command in a terminal of this window.');
      return;
    }
    const state = (e: Entry): string => (e.pty.state === 'running' ? 'running' : e.pty.exit ? (e.pty.exit.signal ?? `exit ${e.pty.exit.exitCode ?? '?'}`) : 'ended');
    const chosen = await vscode.window.showQuickPick(
      entries.map((entry) => ({ label: entry.terminal.name, description: state(entry), detail: entry.pty.spec.cwd, entry })),
      { title: 'Show Agent Terminal', placeHolder: 'A command an agent ran' },
    );
    chosen?.entry.terminal.show(false);
  }
}

function keyOf(runKey: string, terminalId: string): string {
  return `${runKey}\u0000${terminalId}`;
}
