/**
 * "New Run…" on SCV. The prompt becomes the first turn of a session: the session the connection opened by itself
 * while nothing has run in it, otherwise a new session (`session.start`, WIRE.md §2.4) that replaces the live one
 * — a connection holds one session (§2.1) — which the user confirms first. No model or permission question: a
 * session runs on the daemon's configured model endpoint, and approvals are asked per tool call.
 */
import type { RunStore } from '../../model/runStore';
import { runKeyOf } from '../../model/modelTypes';
import type { StartRunConfirmation, StartRunOptions } from '../driver';

export interface StartSessionOptions {
  /** Working directory (absolute); default: the window's first workspace folder. */
  readonly cwd?: string;
  /** End this connection's live session first (a connection holds one session). */
  readonly replace?: boolean;
}

/** What of the SCV driver a new run uses. */
interface ScvSessions {
  readonly connectionId: string;
  readonly liveSessionRunId: string | undefined;
  startNewSession(options: StartSessionOptions): Promise<string>;
  sendMessage(runId: string, text: string): Promise<void>;
}

type Store = Pick<RunStore, 'state' | 'transcript'>;

export const SCV_NEW_RUN_ASKS = { model: false, permission: false } as const;

/** Asked before a new run ends the live session. */
const REPLACE_SESSION: StartRunConfirmation = {
  message: 'End the current SCV session and start the run in a new one?',
  detail: 'An SCV connection holds one session: its running turn is cancelled. Its transcript is kept, and its queued prompts are offered to the new session.',
  button: 'Start New Session',
};

/** Nothing was prompted in the session and nothing waits in its queue: a new run may take it over. */
function isUnused(store: Store, connectionId: string, runId: string): boolean {
  const key = runKeyOf(connectionId, runId);
  const run = store.state.runs.get(key);
  const items = store.transcript(key)?.snapshot() ?? [];
  return run?.state === 'idle' && (run.queue?.length ?? 0) === 0 && !items.some((i) => i.kind === 'user' || i.kind === 'turn');
}

export async function startScvRun(driver: ScvSessions, store: Store, options: StartRunOptions): Promise<string> {
  const live = driver.liveSessionRunId;
  const cwd = options.workspaceRoots[0];
  const runId = live !== undefined && isUnused(store, driver.connectionId, live) ? live : await driver.startNewSession({ ...(cwd ? { cwd } : {}), replace: true });
  await driver.sendMessage(runId, options.prompt);
  return runId;
}

export function scvRunConfirmation(driver: ScvSessions, store: Store): StartRunConfirmation | undefined {
  const live = driver.liveSessionRunId;
  return live === undefined || isUnused(store, driver.connectionId, live) ? undefined : REPLACE_SESSION;
}
