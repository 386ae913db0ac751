/**
 * What the ACP driver knows about each session beyond the model: its working directory, whether a turn is running,
 * the prompts queued behind it (editable, as in the SCV queue: the agent takes one prompt at a time), its modes and
 * config options and the ones the person chose, the event-mapping state, its local change set record, and whether this agent process has the
 * session (created here, or loaded after a reload). A run is a session: the run id is the session id.
 */
import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import type { LocalChangeSetRecord } from '../../changeSets/localChangeSet';
import type { QueueEntry } from '../../model/modelTypes';
import { DriverError } from '../kit/errors';
import type { AcpMappingState } from './acpEventMapping';
import type { AcpChosen } from './acpSessionChoices';
import { newAcpMappingState } from './acpEventMapping';

export interface AcpSession {
  readonly sessionId: string;
  readonly cwd: string;
  /** A `session/prompt` is in flight. */
  turn: boolean;
  /** The agent process knows this session (created here or loaded); false for one restored from the journal. */
  live: boolean;
  queue: QueueEntry[];
  /** The user paused the queue: prompts wait after the running turn. */
  paused: boolean;
  modes?: SessionModeState;
  configOptions?: readonly SessionConfigOption[];
  /** The mode and settings the person chose (kept with the session; applied again after a load). */
  chosen: AcpChosen;
  mapping: AcpMappingState;
  localChanges?: LocalChangeSetRecord;
  /** Updates arrive for this session while `session/load` replays what the journal already holds: drop them. */
  loading: boolean;
  /** A `session/load` the person waits for; Stop aborts it (`$/cancel_request`). */
  reopening?: AbortController | undefined;
  /** A subagent session whose agent lets the client cancel its work (acpSubagents.ts). */
  canCancel?: boolean;
}

export class AcpSessions {
  private readonly sessions = new Map<string, AcpSession>();
  private nextQueueId = 0;

  add(sessionId: string, cwd: string, live: boolean): AcpSession {
    const session: AcpSession = { sessionId, cwd, turn: false, live, queue: [], paused: false, chosen: {}, mapping: newAcpMappingState(), loading: false };
    this.sessions.set(sessionId, session);
    return session;
  }

  get(sessionId: string): AcpSession | undefined {
    return this.sessions.get(sessionId);
  }

  require(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw new DriverError(`There is no ACP session ${sessionId} on this connection.`);
    }
    return session;
  }

  /** The session's run was removed: nothing of it is kept (opening it again from the agent starts afresh). */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  all(): AcpSession[] {
    return [...this.sessions.values()];
  }

  /** The agent process went away: no session is live or mid-turn any more (their transcripts stay). */
  agentGone(): void {
    for (const session of this.sessions.values()) {
      session.live = false;
      session.turn = false;
      session.loading = false;
      session.mapping = newAcpMappingState();
    }
  }

  enqueue(session: AcpSession, prompt: string): QueueEntry {
    const entry: QueueEntry = { queueId: `q${++this.nextQueueId}`, revision: 1, prompt, submitter: 'you' };
    session.queue = [...session.queue, entry];
    return entry;
  }

  /** Takes the next queued prompt off the queue. */
  dequeue(session: AcpSession): QueueEntry | undefined {
    const [next, ...rest] = session.queue;
    session.queue = rest;
    return next;
  }

  edit(session: AcpSession, queueId: string, revision: number, prompt: string): void {
    session.queue = session.queue.map((e) => (this.current(session, queueId, revision) === e ? { ...e, prompt, revision: e.revision + 1 } : e));
  }

  move(session: AcpSession, queueId: string, revision: number, beforeQueueId: string | null): void {
    const entry = this.current(session, queueId, revision);
    const rest = session.queue.filter((e) => e !== entry);
    const at = beforeQueueId === null ? rest.length : rest.findIndex((e) => e.queueId === beforeQueueId);
    rest.splice(at < 0 ? rest.length : at, 0, { ...entry, revision: entry.revision + 1 });
    session.queue = rest;
  }

  remove(session: AcpSession, queueId: string, revision: number): void {
    const entry = this.current(session, queueId, revision);
    session.queue = session.queue.filter((e) => e !== entry);
  }

  /** The entry, if the caller saw its latest revision (an edit of a stale view is refused, as SCV does). */
  private current(session: AcpSession, queueId: string, revision: number): QueueEntry {
    const entry = session.queue.find((e) => e.queueId === queueId);
    if (!entry) {
      throw new DriverError('That prompt is no longer queued (it was sent or removed).', 'stale');
    }
    if (entry.revision !== revision) {
      throw new DriverError('That queued prompt changed meanwhile; look again.', 'stale');
    }
    return entry;
  }
}
