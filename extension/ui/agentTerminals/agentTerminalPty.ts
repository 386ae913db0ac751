/**
 * One command an agent runs through the editor, shown in an editor terminal (a `vscode.Pseudoterminal`: there is no
 * shell behind it, the driver runs the process and hands over what it writes). It shows the command line and where it
 * runs, then the output live, then how it ended. Ctrl+C there, or closing the terminal, stops the command. Output that
 * comes before VS Code opened the terminal waits for it (its last SHOWN_TEXT_KEEP characters). Once the command ended the terminal stays, showing it.
 * A command the agent runs itself and reports (`spec.reported`) is shown the same way, but nothing here can stop it.
 */
import * as vscode from 'vscode';
import type { TerminalView, TerminalViewSpec } from '../../drivers/kit/terminalViews';
import type { TerminalExit } from '../../transport/terminalProcess';

/** How much of what a terminal showed is kept as text (for `shownText`, which the integration tests read). */
const SHOWN_TEXT_KEEP = 256 * 1024;
const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const RESET = '\x1b[0m';
/** Nothing more will be written: the cursor would only suggest someone could type. */
const HIDE_CURSOR = '\x1b[?25l';

/** What the terminal says when the command ended. */
export function exitLine(status: TerminalExit): string {
  if (status.signal !== null) {
    return `Stopped (${status.signal})`;
  }
  return status.exitCode === 0 ? 'Exited with code 0' : `Exited with code ${status.exitCode ?? '?'}`;
}

/** A command line as a person would type it (arguments with spaces or quotes quoted). */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}

/** The command line a terminal shows: a reported one as the agent gave it, else built from command and arguments. */
export function shownCommandLine(spec: TerminalViewSpec): string {
  return spec.reported ? spec.command : commandLine(spec.command, spec.args);
}

export type AgentTerminalState = 'running' | 'exited' | 'released';

export class AgentTerminalPty implements vscode.Pseudoterminal, TerminalView {
  private readonly writes = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writes.event;
  /** VS Code opened the terminal: writes go to it (before, `shown` holds them for `open`). */
  private opened = false;
  private shown = '';
  /** The last character written was a CR (a CRLF split across two writes must not become CR CR LF). */
  private afterCr = false;
  /** The last character written ended a line. */
  private atLineStart = true;
  state: AgentTerminalState = 'running';
  exit: TerminalExit | undefined;

  constructor(
    readonly spec: TerminalViewSpec,
    private readonly stop: () => void,
  ) {
    const by = spec.reported ? `  ${DIM}(run by the agent: this terminal only shows it)${RESET}` : '';
    this.write(`${DIM}${spec.cwd}${RESET}\r\n${BOLD}$ ${shownCommandLine(spec)}${RESET}${by}\r\n`);
  }

  /** The text shown so far, without colours (the last SHOWN_TEXT_KEEP characters). */
  get shownText(): string {
    // eslint-disable-next-line no-control-regex -- the escape sequences this class writes itself
    return this.shown.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '\n');
  }

  open(): void {
    this.opened = true;
    this.writes.fire(this.shown);
  }

  /** The person closed the terminal: a command still running is stopped. */
  close(): void {
    if (this.state === 'running') {
      this.stop();
    }
  }

  handleInput(data: string): void {
    // Nobody types into the command (its stdin is empty); Ctrl+C stops it, as in any terminal — but one the agent
    // runs itself cannot be stopped from here (the run's Stop asks the agent).
    if (data === '\x03' && this.state === 'running' && !this.spec.reported) {
      this.write(`${DIM}^C${RESET}\r\n`);
      this.stop();
    }
  }

  output(text: string): void {
    // The process writes bare LFs (it has no pty): a terminal needs CR LF to start the next line at its left.
    let converted = '';
    for (const ch of text) {
      converted += ch === '\n' && !this.afterCr ? '\r\n' : ch;
      this.afterCr = ch === '\r';
    }
    this.write(converted);
  }

  exited(status: TerminalExit): void {
    this.exit = status;
    this.state = 'exited';
    const ok = status.exitCode === 0;
    this.write(`${this.atLineStart ? '' : '\r\n'}${ok ? GREEN : RED}${exitLine(status)}${RESET}\r\n${HIDE_CURSOR}`);
  }

  released(): void {
    this.state = 'released';
  }

  dispose(): void {
    this.writes.dispose();
  }

  private write(text: string): void {
    if (text === '') {
      return;
    }
    this.atLineStart = text.endsWith('\n');
    this.shown = (this.shown + text).slice(-SHOWN_TEXT_KEEP);
    if (this.opened) {
      this.writes.fire(text);
    }
  }
}
