/**
 * How each run state looks, everywhere: the Connections tree, quick picks and the status bar (extension/ui/
 * runPresentation.ts) and the transcript header (webview/runStateDisplay.ts) read this one table.
 *
 * `icon` is a codicon name (no `~spin` suffix: `spin` says whether it turns); `color` is a VS Code theme colour id
 * (the tree uses `new ThemeColor(color)`, the webview the CSS class `color-<id with dots as dashes>`, one rule per id
 * in media/transcript.css). Pure data: shared with the webview bundle.
 */
import type { RunState } from './transcriptTypes';

export interface RunStateDisplay {
  readonly icon: string;
  /** A human label, sentence case ("Waiting for approval"). */
  readonly label: string;
  /** Theme colour id, or none (the default foreground). */
  readonly color: string | undefined;
  /** The icon spins: the daemon is working on this run. */
  readonly spin: boolean;
}

export const RUN_STATE_DISPLAY: Readonly<Record<RunState, RunStateDisplay>> = {
  starting: { icon: 'loading', label: 'Starting', color: 'charts.blue', spin: true },
  running: { icon: 'loading', label: 'Running', color: 'charts.blue', spin: true },
  waiting_approval: { icon: 'shield', label: 'Waiting for approval', color: 'charts.yellow', spin: false },
  finishing: { icon: 'loading', label: 'Finishing', color: 'charts.blue', spin: true },
  // The answer is complete and the run waits for the user: no spinner (an interactive run, an SCV session).
  idle: { icon: 'comment-discussion', label: 'Waiting for your message', color: 'charts.green', spin: false },
  completed: { icon: 'pass', label: 'Completed', color: 'testing.iconPassed', spin: false },
  failed: { icon: 'error', label: 'Failed', color: 'testing.iconFailed', spin: false },
  canceled: { icon: 'circle-slash', label: 'Canceled', color: 'disabledForeground', spin: false },
  interrupted: { icon: 'debug-pause', label: 'Interrupted', color: 'charts.orange', spin: false },
  lost: { icon: 'debug-disconnect', label: 'Lost', color: 'charts.orange', spin: false },
  stopped: { icon: 'debug-stop', label: 'Stopped', color: 'disabledForeground', spin: false },
};

export function runStateDisplay(state: RunState): RunStateDisplay {
  return RUN_STATE_DISPLAY[state];
}

/**
 * What besides its state decides how a run looks (model/runLook.ts derives it from the model). The tree, the board
 * and the transcript header all show `runDisplay` of it, so they cannot disagree about a run's outcome.
 */
export interface RunLook {
  readonly state: RunState;
  /** Why the run's change set was refused (it failed verification): the run's result cannot be trusted. */
  readonly changeSetRefused?: string;
  /** The run takes no message from the user (a subagent): idle, it is not waiting for you. */
  readonly takesNoMessages?: boolean;
}

/** A run whose delivered change set failed verification: whatever its state, its outcome is a failure. */
export const CHANGE_SET_REFUSED_DISPLAY: RunStateDisplay = { icon: 'error', label: 'Change set refused', color: 'testing.iconFailed', spin: false };
/** Idle, but not for the user to answer (a subagent between its parent's turns). */
export const IDLE_NOT_YOURS_DISPLAY: RunStateDisplay = { icon: 'circle-large-outline', label: 'Idle', color: undefined, spin: false };

/** How a run looks everywhere: its state's row of the table, unless its outcome or who it listens to says more. */
export function runDisplay(look: RunLook): RunStateDisplay {
  if (look.changeSetRefused !== undefined) {
    return CHANGE_SET_REFUSED_DISPLAY;
  }
  if (look.state === 'idle' && look.takesNoMessages === true) {
    return IDLE_NOT_YOURS_DISPLAY;
  }
  return RUN_STATE_DISPLAY[look.state];
}

/** The CSS class the webview gives an element coloured by `color` (`charts.blue` → `color-charts-blue`). */
export function themeColorClass(color: string): string {
  return `color-${color.replace(/\./g, '-')}`;
}
