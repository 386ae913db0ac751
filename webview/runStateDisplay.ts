/**
 * How each run state looks in the webview: the shared table (extension/protocol/runStateDisplay.ts, the tree reads
 * the same) as codicon classes.
 */
import type { RunLook } from '../extension/protocol/runStateDisplay';
import { runDisplay, themeColorClass } from '../extension/protocol/runStateDisplay';
import type { RunState } from '../extension/protocol/transcriptTypes';

export interface StateDisplay {
  readonly icon: string;
  readonly label: string;
  /** Extra classes for the icon: the colour class and, when it turns, the spin modifier. */
  readonly extra: readonly string[];
}

/** A bare state, or the run's look as the host sends it (its refused change set, whether it takes messages). */
export function stateDisplay(state: RunState | RunLook): StateDisplay {
  const { icon, label, color, spin } = runDisplay(typeof state === 'string' ? { state } : state);
  return { icon, label, extra: [...(color ? [themeColorClass(color)] : []), ...(spin ? ['codicon-modifier-spin'] : [])] };
}

/** A turn is in progress: sends are queued (when the daemon queues) and Stop makes sense. */
export function isTurnActive(state: RunState): boolean {
  return state === 'starting' || state === 'running' || state === 'waiting_approval' || state === 'finishing';
}
