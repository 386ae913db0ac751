/** How each run state looks: a codicon and a human label. */
import type { RunState } from '../extension/protocol/transcriptTypes';

export interface StateDisplay {
  readonly icon: string;
  readonly label: string;
  /** Extra codicon classes (spinning). */
  readonly extra: readonly string[];
}

const SPIN = ['codicon-modifier-spin'];

const DISPLAY: Record<RunState, StateDisplay> = {
  starting: { icon: 'loading', label: 'Starting', extra: SPIN },
  running: { icon: 'loading', label: 'Running', extra: SPIN },
  waiting_approval: { icon: 'shield', label: 'Waiting for approval', extra: [] },
  finishing: { icon: 'loading', label: 'Finishing', extra: SPIN },
  // The answer is complete and the run waits for the user: no spinner (an interactive run, an SCV session).
  idle: { icon: 'comment-discussion', label: 'Waiting for your message', extra: [] },
  completed: { icon: 'pass', label: 'Completed', extra: [] },
  failed: { icon: 'error', label: 'Failed', extra: [] },
  canceled: { icon: 'circle-slash', label: 'Canceled', extra: [] },
  interrupted: { icon: 'debug-pause', label: 'Interrupted', extra: [] },
  lost: { icon: 'debug-disconnect', label: 'Lost', extra: [] },
  stopped: { icon: 'debug-stop', label: 'Stopped', extra: [] },
};

export function stateDisplay(state: RunState): StateDisplay {
  return DISPLAY[state];
}

/** A turn is in progress: sends are queued (when the daemon queues) and Stop makes sense. */
export function isTurnActive(state: RunState): boolean {
  return state === 'starting' || state === 'running' || state === 'waiting_approval' || state === 'finishing';
}
