/**
 * Where the commands an agent runs through its client (ACP `terminal/create`), or runs itself and reports (ACP
 * `_meta.terminal_*`), are shown, without importing `vscode`:
 * the UI implements it (ui/agentTerminals/) with one editor terminal per command, named after the run and the
 * command, streaming its output live and ending with how it exited; a driver hands it what happens. The person sees
 * every such command as it runs, and may stop it from there.
 */
import type { TerminalExit } from '../../transport/terminalProcess';

/** One command's terminal, as the driver opens it. */
export interface TerminalViewSpec {
  readonly connectionId: string;
  /** The run (ACP: the session) the command belongs to. */
  readonly runId: string;
  /** The id the agent knows it by (unique per connection). */
  readonly terminalId: string;
  /** The run's title, for the terminal's name. */
  readonly runTitle: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /**
   * A command the agent runs itself and only reports (ACP `_meta.terminal_*`): `command` is its whole command line
   * as the agent gave it (`args` empty), and the view shows it but cannot stop it (the run's Stop does).
   */
  readonly reported?: true;
}

/** What the driver tells one command's view. */
export interface TerminalView {
  /** Output as the command wrote it (stdout and stderr interleaved). */
  output(text: string): void;
  /** The command ended. */
  exited(status: TerminalExit): void;
  /** The agent let go of the terminal: the view keeps what it shows, but nothing more will come. */
  released(): void;
}

export interface TerminalViews {
  /** Why no command may run now (an untrusted workspace), or undefined when they may. */
  refusal(): string | undefined;
  /** Opens the view of a command; `stop` is what the view calls when the person stops it there. */
  open(spec: TerminalViewSpec, stop: () => void): TerminalView;
}
