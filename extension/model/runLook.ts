/**
 * The facts besides its state that decide how a run looks and whether it ended badly (protocol/runStateDisplay.ts's
 * `RunLook`): a refused change set, and whether the run takes messages from the user at all. One derivation for the Connections
 * tree, the run board and the transcript header, so a run whose result failed verification is a failure on each.
 */
import type { RunLook } from '../protocol/runStateDisplay';
import type { ModelState, RunInfo } from './modelTypes';

export type { RunLook };

export function runLookOf(state: ModelState, run: RunInfo): RunLook {
  const changeSet = state.changeSets.get(run.key);
  return {
    state: run.state,
    ...(changeSet?.status === 'refused' ? { changeSetRefused: changeSet.reason ?? 'it failed verification' } : {}),
    // A subagent takes its instructions from its parent session (ui/runMessaging.ts). Capabilities are not asked:
    // a connection that is down says nothing about whether its runs take messages once it is back.
    ...(run.parentRunId !== undefined ? { takesNoMessages: true } : {}),
  };
}

/** The run ended in a way the user should see: it failed, the daemon lost it, or its change set was refused. */
export function endedBadly(look: RunLook): boolean {
  return look.state === 'failed' || look.state === 'lost' || look.changeSetRefused !== undefined;
}
