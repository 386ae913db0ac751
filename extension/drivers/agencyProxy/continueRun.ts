/**
 * "Continue in a new run": the AgencyProxy daemon keeps runs in memory only, so a restart loses them (WIRE.md
 * 1.9), but the provider session survives and a new run can resume it with `resumeSessionId`. This module turns a
 * lost (or ended) run into the options of that new run. Pure; the driver starts it.
 */
import type { RunInfo } from '../../model/modelTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StartRunOptions } from '../driver';
import { DriverError } from '../driver';

export interface ContinueRunOptions {
  /** The first message of the new run (default: ask the provider to pick up where it stopped). */
  readonly prompt?: string;
  readonly permission?: string;
  readonly approvals?: boolean;
  readonly interactive?: boolean;
}

/** What a continued run adds to a plain start: the session to resume and a title that names the old run. */
export interface Continuation {
  readonly resumeSessionId: string;
  readonly title: string;
}

export const DEFAULT_CONTINUE_PROMPT = 'Continue where you left off.';

export function planContinuation(
  run: RunInfo | undefined,
  runId: string,
  sessionId: string | undefined,
  options: ContinueRunOptions,
): { readonly start: StartRunOptions; readonly continuation: Continuation } {
  if (!run) {
    throw new DriverError(`Unknown run ${runId}.`);
  }
  if (!isTerminalRunState(run.state)) {
    // Two live runs on one provider session would interleave their turns.
    throw new DriverError(`"${run.title}" is still ${run.state}; continue it in place, or end it first.`);
  }
  if (sessionId === undefined) {
    throw new DriverError(`"${run.title}" never opened a provider session, so there is nothing to continue.`);
  }
  return {
    start: {
      prompt: options.prompt ?? DEFAULT_CONTINUE_PROMPT,
      ...(run.provider !== undefined ? { provider: run.provider } : {}),
      ...(run.model !== undefined ? { model: run.model } : {}),
      ...(options.permission !== undefined ? { permission: options.permission } : {}),
      ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
      ...(options.interactive !== undefined ? { interactive: options.interactive } : {}),
      workspaceRoots: run.workspaceRoots ?? [],
    },
    continuation: { resumeSessionId: sessionId, title: `Continued: ${run.title}`.slice(0, 80) },
  };
}
