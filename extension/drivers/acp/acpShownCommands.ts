/**
 * The views of the commands an agent runs itself and reports (acpCommandReports.ts): one read-only editor terminal
 * per command (kit/terminalViews.ts, the same view as the client's own terminals), opened once the command line is
 * known (or output comes first), with the output as it streams and the exit status at the end. Nothing is executed:
 * the view only shows what the agent says it ran. Bounded like the client's terminals (acpTerminals.ts owns these and
 * gives its limits): at most `maxBytes` shown per command (then one line says the rest is not), at most `maxRunning`
 * commands shown running at once per connection, and a bounded memory of the ended ones (a late report of an ended
 * command opens nothing).
 */
import type { TerminalView, TerminalViews } from '../kit/terminalViews';
import { completeEnd } from '../../transport/terminalOutput';
import type { AcpCommandReport } from './acpCommandReports';

/** Ended commands remembered per connection, so a late report of one does not open a second view. */
const MAX_ENDED = 256;

export interface AcpShownCommandDeps {
  readonly connectionId: string;
  /** Where commands are shown (absent: nowhere). */
  readonly views: TerminalViews | undefined;
  /** The title of the run, for the terminal's name. */
  runTitle(sessionId: string): string;
  /** The session's directory (when the agent names none). */
  sessionCwd(sessionId: string): string | undefined;
  /** The most output bytes shown per command. */
  readonly maxBytes: number;
  /** The most commands shown running at once. */
  readonly maxRunning: number;
}

interface ShownCommand {
  readonly view: TerminalView;
  bytes: number;
  cut: boolean;
}

export class AcpShownCommands {
  private readonly running = new Map<string, ShownCommand>();
  private readonly ended = new Set<string>();

  constructor(private readonly deps: AcpShownCommandDeps) {}

  /** What one update said of a command of `sessionId`. */
  apply(sessionId: string, report: AcpCommandReport): void {
    const key = `${sessionId}\u0000${report.terminalId}`;
    if (this.ended.has(key)) {
      return;
    }
    const shown = this.running.get(key) ?? this.open(key, sessionId, report);
    if (!shown) {
      return;
    }
    if (report.output !== undefined) {
      this.write(shown, report.output);
    }
    if (report.exit) {
      shown.view.exited(report.exit);
      this.end(key, shown);
    }
  }

  /** The agent went away: what still runs will report nothing more. */
  releaseAll(): void {
    for (const [key, shown] of this.running) {
      this.end(key, shown);
    }
  }

  private open(key: string, sessionId: string, report: AcpCommandReport): ShownCommand | undefined {
    const views = this.deps.views;
    // Not before the command line is known (claude-agent-acp names the terminal while the input still streams),
    // unless the command already shows something.
    const worthShowing = report.commandLine !== undefined || report.output !== undefined || report.exit !== undefined;
    if (!views || !worthShowing || this.running.size >= this.deps.maxRunning) {
      return undefined;
    }
    const spec = {
      connectionId: this.deps.connectionId,
      runId: sessionId,
      terminalId: report.terminalId,
      runTitle: this.deps.runTitle(sessionId),
      command: report.commandLine ?? 'a command',
      args: [],
      cwd: report.cwd ?? this.deps.sessionCwd(sessionId) ?? '',
      reported: true as const,
    };
    // The agent runs it: there is nothing here to stop (the run's Stop asks the agent to).
    const shown: ShownCommand = { view: views.open(spec, () => undefined), bytes: 0, cut: false };
    this.running.set(key, shown);
    return shown;
  }

  private write(shown: ShownCommand, text: string): void {
    if (shown.cut) {
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    const max = this.deps.maxBytes;
    const room = max - shown.bytes;
    if (bytes.length <= room) {
      shown.bytes += bytes.length;
      shown.view.output(text);
      return;
    }
    const fits = bytes.subarray(0, completeEnd(bytes.subarray(0, room)));
    shown.view.output(`${fits.toString('utf8')}\n[The rest of the output is not shown: over ${max} bytes.]\n`);
    shown.bytes = max;
    shown.cut = true;
  }

  private end(key: string, shown: ShownCommand): void {
    shown.view.released();
    this.running.delete(key);
    this.ended.add(key);
    if (this.ended.size > MAX_ENDED) {
      this.ended.delete(this.ended.values().next().value!);
    }
  }
}
