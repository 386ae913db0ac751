/**
 * What the SCV driver remembers about one connection and its (at most one) session, beyond the run model: the
 * prompts it sent, the decisions in flight, the turn that is running, the queue and the background jobs.
 */
import type { LocalChangeSetRecord } from '../localChangeSet';
import type { ScvClient } from './client';
import type { ScvJobs } from './scvBackgroundJobs';
import type { ScvQueueState } from './scvQueue';
import { emptyScvQueue } from './scvQueue';

export interface ScvSessionBook {
  readonly sessionId: string;
  /** The session is the run: run id = session id. */
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

export function newSessionBook(sessionId: string, runKey: string, cwd: string): ScvSessionBook {
  return {
    sessionId,
    runId: sessionId,
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
