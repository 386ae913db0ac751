/**
 * What the SCV driver remembers about one connection and its (at most one) session, beyond the run model: the
 * prompts it sent, the decisions in flight, the turn that is running, the queue and the background jobs.
 *
 * A session's run id is `<session id>@<epoch>`, where the epoch names the connection (one per successful
 * handshake). A restarted daemon may hand out a session id it used before (its counter starts again), so the
 * daemon's id alone would merge a new session into an old run's transcript and approvals.
 */
import type { LocalChangeSetRecord } from '../../changeSets/localChangeSet';
import type { ScvClient } from './client';
import type { ScvJobs } from './scvBackgroundJobs';
import type { ScvQueueState } from './scvQueue';
import { emptyScvQueue } from './scvQueue';

export interface ScvSessionBook {
  readonly sessionId: string;
  /** The session is the run: run id = `scvRunId(sessionId, epoch of its connection)`. */
  readonly runId: string;
  readonly runKey: string;
  readonly cwd: string;
  /** The running turn, if any. */
  turnId: string | undefined;
  queue: ScvQueueState;
  jobs: ScvJobs;
  /** call id → proposed arguments (for approval diffs); cleared when the turn ends. */
  readonly toolArguments: Map<string, unknown>;
  /** turn id → the queued prompt that became this turn (`queue.dequeued` comes just before `turn.started`). */
  readonly dequeued: Map<string, { readonly prompt: string; readonly revision: number }>;
  /** queue id → the `turn.start` request that queued it (to forget its prompt when it is removed). */
  readonly queuedBy: Map<string, string>;
  /** The git snapshot taken when the session started (local change set), once it exists. */
  localChanges?: LocalChangeSetRecord;
}

export interface ScvConnectionBook {
  readonly client: ScvClient;
  /** This connection's epoch (set once its handshake succeeded); part of the run id of its session. */
  epoch: string;
  /** Unknown event types already logged on this connection. */
  readonly unknownTypes: Set<string>;
  /** `turn.start` request id → prompt, noted as the line goes out: the turn's events can arrive before the answer. */
  readonly sentPrompts: Map<string, string>;
  /** `approval.resolve` request id → approval id, to match a later refusal (protocol 3 has no reply to it). */
  readonly decisions: Map<string, string>;
  session: ScvSessionBook | undefined;
  /** Set once the connection counts as up; only then does a drop make the reconnect loop retry. */
  established: boolean;
  /** Why this editor closed the connection on purpose (shown on the session it ended). */
  closeReason?: string;
}

/** The run id of session `sessionId` on the connection of epoch `epoch`. */
export function scvRunId(sessionId: string, epoch: string): string {
  return `${sessionId}@${epoch}`;
}

/** The daemon's session id inside a run id (a run stored before epochs existed is just the session id). */
export function scvSessionIdOf(runId: string): string {
  const at = runId.lastIndexOf('@');
  return at < 0 ? runId : runId.slice(0, at);
}

/** The epoch inside a run id, as a number (base 36), if it has one. */
export function scvEpochOf(runId: string): number | undefined {
  const at = runId.lastIndexOf('@');
  const n = at < 0 ? NaN : parseInt(runId.slice(at + 1), 36);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The next connection epoch: the clock in ms (base 36 in the run id, so ids stay short and sort by time), but
 * always above every epoch already used (`taken`) so two handshakes in one millisecond, or a clock that went back
 * since a stored run was made, still give distinct run ids.
 */
export function nextScvEpoch(now: number, taken: Iterable<number>): number {
  let epoch = Math.floor(now);
  for (const used of taken) {
    epoch = Math.max(epoch, used + 1);
  }
  return epoch;
}

export function newSessionBook(sessionId: string, runId: string, runKey: string, cwd: string): ScvSessionBook {
  return {
    sessionId,
    runId,
    runKey,
    cwd,
    turnId: undefined,
    queue: emptyScvQueue,
    jobs: new Map(),
    toolArguments: new Map(),
    dequeued: new Map(),
    queuedBy: new Map(),
  };
}
