/**
 * Folds what one SCV connection receives into the run model: `session.started` makes the run; queue events keep
 * its queue; turn events become transcript items (via the pure `scvEventMapping.ts`) and the run's state; background
 * jobs feed a side panel; seq gaps and errors become transcript items. Also ends a session when its connection goes
 * (§6.2): the transcript is kept, the run is interrupted (its approvals expire with the connection, in the base
 * driver). Everything it folds goes through the kit's door, which journals it (the leftovers: `ScvStoredSessions`).
 *
 * Streamed chunks (`assistant.delta`, `tool.progress`) are held by the kit's `StreamedChunks` and folded with the
 * chunks after them in the same socket read; every other event, gap, error, the end of the read and the end of the
 * session record what is held first (SCV's seq is checked per event by the reader, before anything lands here).
 */
import { basename } from 'node:path';
import type { RunEvent } from '../../model/modelActions';
import { openToolCallIds } from '../../model/runQueries';
import type { ScvServerEvent } from '../../protocol/scv';
import type { RunState } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import type { LocalChangeSets } from '../../changeSets/localChangeSet';
import type { TurnCheckpoints } from '../kit/turnCheckpoints';
import { applyScvJobEvent, backgroundJobsPanel } from './scvBackgroundJobs';
import type { ScvErrorInfo, ScvGap } from './scvClientTypes';
import { mapScvEvent } from './scvEventMapping';
import type { ScvMappingLookup } from './scvEventMapping';
import { applyScvQueueEvent, queueForModel } from './scvQueue';
import type { ScvConnectionBook, ScvSessionBook } from './scvSessionBook';
import { newSessionBook, scvRunId } from './scvSessionBook';
import type { ScvStoredSessions } from './scvStoredSessions';
import type { DriverRuns } from '../kit/driverRuns';
import { StreamedChunks, isStreamedChunk } from '../kit/streamedChunks';
import type { StreamedChunk } from '../kit/streamedChunks';
import { neverRanNotice } from './scvStoredSessions';
import { leftoverPromptsOf } from './scvLeftovers';

export class ScvSessionEvents {
  private readonly chunks = new StreamedChunks((runId, input) => void this.runs.event(runId, input.event));

  constructor(
    private readonly ctx: DriverContext,
    private readonly runs: DriverRuns,
    private readonly stored: ScvStoredSessions,
    /** SCV sends no diffs: the editor snapshots the session's git workspace and diffs it after every turn. */
    private readonly localChanges: LocalChangeSets,
    private readonly checkpoints: TurnCheckpoints,
  ) {}

  /**
   * The session is gone with its connection (§6.2): keep the transcript, mark the run interrupted. Its approvals
   * expire with the connection (the base driver's `approvalsDieWithConnection`), right after this.
   */
  endSession(live: ScvConnectionBook, session: ScvSessionBook, reason: string): void {
    this.chunks.flush();
    live.session = undefined;
    const runId = session.runId;
    if (session.turnId !== undefined) {
      void this.runs.event(runId, { kind: 'turn', turnId: session.turnId, phase: 'cancelled', message: 'cut off when the session ended; its outcome is unknown' });
    }
    this.closeOpenTools(session);
    const leftovers = leftoverPromptsOf(session.queue);
    if (leftovers.length > 0) {
      // They stay with this run (already stored as the queue changed) until the next session offers them.
      this.stored.setQueued(runId, leftovers);
      void this.runs.event(runId, { kind: 'notice', level: 'warning', text: neverRanNotice(leftovers) });
    }
    this.runs.queue(runId, [], false);
    void this.runs.event(runId, { kind: 'stateChanged', state: 'interrupted', detail: reason, announce: true });
    void this.stored.saveRun(runId);
  }

  /** The socket read is through: what it streamed goes into the transcript. */
  endRead(): void {
    this.chunks.flush();
  }

  onEvent(live: ScvConnectionBook, event: ScvServerEvent): void {
    const chunk = scvChunkOf(event);
    if (chunk !== undefined && live.session !== undefined && 'session_id' in event && event.session_id === live.session.sessionId) {
      this.chunks.add(live.session.runId, chunk);
      return;
    }
    this.chunks.flush();
    if (event.type === 'session.started') {
      this.beginSession(live, event.session_id, event.cwd, event.model, event.restored);
      return;
    }
    if (event.type === 'unknown') {
      // A newer server's event: the client's seq rule already excused it; it is not shown (WIRE.md §2.9.2), only
      // logged — once per type and connection, since a new event type may come with every streamed chunk.
      if (!live.unknownTypes.has(event.eventType)) {
        live.unknownTypes.add(event.eventType);
        this.ctx.log.warn(`SCV sent an event type this version does not know, "${event.eventType}"; ignoring it: ${JSON.stringify(event.raw).slice(0, 300)}`);
      }
      return;
    }
    const session = live.session;
    if (!session || ('session_id' in event && event.session_id !== undefined && event.session_id !== session.sessionId)) {
      return; // `initialized`, `daemon.status`, or nothing to attach it to
    }
    this.noteBeforeMapping(live, session, event);
    const queue = applyScvQueueEvent(session.queue, event);
    if (queue) {
      session.queue = queue;
      this.publishQueue(session);
      this.stored.setQueued(session.runId, leftoverPromptsOf(queue));
    }
    const mapped = mapScvEvent(event, this.lookupFor(live, session));
    for (const e of mapped.events) {
      void this.runs.event(session.runId, e);
    }
    const jobs = applyScvJobEvent(session.jobs, event);
    if (jobs) {
      session.jobs = jobs;
      void this.runs.panels(session.runId, [backgroundJobsPanel(jobs)]);
    }
    if (event.type === 'turn.started') {
      session.turnId = event.turn_id;
    } else if (event.type === 'turn.completed' || event.type === 'turn.cancelled' || event.type === 'turn.failed') {
      if (session.turnId === event.turn_id) {
        session.turnId = undefined;
      }
      // Whatever the turn left open can no longer finish: its approvals are dropped by the server.
      this.closeOpenTools(session);
      void this.runs.expireApprovals(session.runId);
      session.toolArguments.clear();
      if (session.localChanges) {
        void this.localChanges.refresh(session.runId, session.localChanges);
      }
      void this.checkpoints.boundary(session.runId, [session.cwd]);
    }
    if (mapped.state) {
      this.setState(session, mapped.state);
    }
  }

  private beginSession(live: ScvConnectionBook, sessionId: string, cwd: string, model: string, restored: unknown): void {
    // Keyed by the connection's epoch too: a restarted daemon may reuse a session id (see `scvSessionBook.ts`).
    const runId = scvRunId(sessionId, live.epoch);
    const runKey = this.runs.key(runId);
    const session = newSessionBook(sessionId, runId, runKey, cwd);
    live.session = session;
    void this.runs.fields(runId, { title: `SCV session — ${basename(cwd) || cwd}`, model, state: 'idle', workspaceRoots: [cwd] });
    void this.runs.event(runId, { kind: 'notice', level: 'info', text: `SCV session started in ${cwd}.` });
    if (restored !== undefined) {
      void this.runs.event(runId, { kind: 'raw', label: 'Restored from a stopped session', data: restored });
    }
    void this.stored.saveRun(runId);
    void this.checkpoints.boundary(runId, [cwd]);
    void this.localChanges.begin(runId, cwd).then((record) => {
      if (record && live.session === session) {
        session.localChanges = record;
      }
    });
  }

  /** Bookkeeping that must see an event before the queue and mapping fold it. */
  private noteBeforeMapping(live: ScvConnectionBook, session: ScvSessionBook, event: ScvServerEvent): void {
    switch (event.type) {
      case 'tool.proposed':
        session.toolArguments.set(event.call_id, event.arguments);
        break;
      case 'queue.enqueued':
        session.queuedBy.set(event.entry.queue_id, event.request_id);
        break;
      case 'queue.dequeued': {
        const entry = session.queue.entries.find((e) => e.queue_id === event.queue_id);
        if (entry) {
          session.dequeued.set(event.turn_id, { prompt: entry.prompt, revision: entry.revision });
        }
        session.queuedBy.delete(event.queue_id);
        break;
      }
      case 'queue.removed': {
        const requestId = session.queuedBy.get(event.queue_id);
        if (requestId !== undefined) {
          live.sentPrompts.delete(requestId);
          session.queuedBy.delete(event.queue_id);
        }
        break;
      }
      default:
        break;
    }
  }

  private lookupFor(live: ScvConnectionBook, session: ScvSessionBook): ScvMappingLookup {
    return {
      turnPrompt: (event) => {
        const sent = live.sentPrompts.get(event.request_id);
        live.sentPrompts.delete(event.request_id);
        const queued = session.dequeued.get(event.turn_id);
        session.dequeued.delete(event.turn_id);
        if (queued) {
          // What runs is the entry as it left the queue (it may have been edited there).
          return { text: queued.prompt, note: queued.revision > 1 ? 'from the queue (edited)' : 'from the queue' };
        }
        return sent !== undefined ? { text: sent } : undefined;
      },
      toolArguments: (callId) => session.toolArguments.get(callId),
    };
  }

  onGap(live: ScvConnectionBook, gap: ScvGap): void {
    this.chunks.flush();
    const session = live.session;
    if (session && gap.sessionId === session.sessionId) {
      // The lost seqs are from..to inclusive; the model's gap takes (from, to].
      void this.runs.gap(session.runId, gap.from - 1, gap.to, 'SCV does not replay events; these never arrived');
    }
  }

  onError(live: ScvConnectionBook, info: ScvErrorInfo): void {
    this.chunks.flush();
    const session = live.session;
    const approvalId = info.requestId !== undefined ? live.decisions.get(info.requestId) : undefined;
    if (!session) {
      this.ctx.log.warn(`SCV ${info.source} error ${info.code}: ${info.message}`);
      return;
    }
    let event: RunEvent;
    if (approvalId !== undefined) {
      live.decisions.delete(info.requestId!);
      event = { kind: 'error', code: info.code, message: `SCV refused the decision on approval ${approvalId}: ${info.message}` };
    } else if (info.source === 'client' && info.code === 'malformed_event' && info.raw !== undefined) {
      event = { kind: 'raw', label: `Unreadable SCV event: ${info.message}`, data: info.raw };
    } else {
      event = { kind: 'error', code: info.code, message: info.source === 'server' ? `SCV: ${info.message}` : info.message };
    }
    void this.runs.event(session.runId, event);
  }

  setState(session: ScvSessionBook, state: RunState): void {
    const run = this.runs.get(session.runId);
    if (!run) {
      return;
    }
    const next = state === 'running' && run.pendingApprovals.length > 0 ? 'waiting_approval' : state;
    if (run.state !== next) {
      void this.runs.event(session.runId, { kind: 'stateChanged', state: next });
    }
  }

  publishQueue(session: ScvSessionBook): void {
    this.runs.queue(session.runId, queueForModel(session.queue), session.queue.paused);
  }

  private closeOpenTools(session: ScvSessionBook): void {
    for (const callId of openToolCallIds(this.runs.get(session.runId))) {
      void this.runs.event(session.runId, { kind: 'toolResult', callId, ok: null, output: '' });
    }
  }
}

/** Streamed events read nothing from earlier ones. */
const NO_LOOKUP: ScvMappingLookup = { turnPrompt: () => undefined, toolArguments: () => undefined };

/**
 * The chunk a streamed event maps to (`assistant.delta`, `tool.progress`); such an event touches nothing but the
 * transcript (no queue, jobs or state), so it may be held and folded.
 */
export function scvChunkOf(event: ScvServerEvent): StreamedChunk | undefined {
  if (event.type !== 'assistant.delta' && event.type !== 'tool.progress') {
    return undefined;
  }
  const mapped = mapScvEvent(event, NO_LOOKUP);
  const only = mapped.events.length === 1 && mapped.state === undefined ? mapped.events[0]! : undefined;
  return only !== undefined && isStreamedChunk(only) ? only : undefined;
}
