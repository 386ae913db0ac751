/** `TerminalViews` for the driver tests: records what each command's view was told, and can refuse like the editor. */
import type { TerminalView, TerminalViewSpec, TerminalViews } from '../../../../extension/drivers/kit/terminalViews';
import type { TerminalExit } from '../../../../extension/transport/terminalProcess';

export interface RecordedTerminal {
  readonly spec: TerminalViewSpec;
  readonly stop: () => void;
  output: string;
  exit?: TerminalExit;
  released: boolean;
}

export class RecordingTerminalViews implements TerminalViews {
  readonly opened: RecordedTerminal[] = [];
  /** Set to refuse every command (an untrusted workspace). */
  refuseWith: string | undefined;

  refusal(): string | undefined {
    return this.refuseWith;
  }

  open(spec: TerminalViewSpec, stop: () => void): TerminalView {
    const recorded: RecordedTerminal = { spec, stop, output: '', released: false };
    this.opened.push(recorded);
    return {
      output: (text) => void (recorded.output += text),
      exited: (status) => void (recorded.exit = status),
      released: () => void (recorded.released = true),
    };
  }
}
