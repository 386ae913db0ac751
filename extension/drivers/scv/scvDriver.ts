/**
 * The SCV driver (protocol 3, WIRE.md §2): one connection to the daemon, and on it at most one session, which is
 * one run in the model (run id = `<session id>@<connection epoch>`: a restarted daemon may reuse session ids).
 * Between turns the run is `idle`, during a turn `running`, and `waiting_approval` while a tool call waits for a
 * person. The server-side prompt queue is mirrored into the run (`runQueue`); background delegation jobs into a
 * "Background jobs" side panel.
 *
 * Sessions end with their connection (§6.2): when the socket drops, the run is marked `interrupted`, its pending
 * approvals expire and its transcript stays (also on disk, for reloads). The connection is then re-established and,
 * when it had a session, a new session starts in its place (§6.2 step 2; a new run): it runs nothing by itself.
 * Prompts still queued when a session ends are kept and offered to the next session (`scvLeftoverOffers.ts`), never
 * sent without the user's answer.
 * A `turn.start` is never resent: when its outcome is unknown the user is told the prompt may or may not have
 * been sent. Seq gaps come from the client's tracker (an unknown event excuses one), not from the reducer.
 * Daemon status is read on a separate management connection. What the connection receives is folded by
 * `ScvSessionEvents`; the live connection and its session are `ScvLiveConnection`'s; this class carries out the
 * user's actions. Reconnecting, cleanup and the expiry of a session's approvals with its connection are the base
 * driver's (`approvalsDieWithConnection`).
 */
import * as z from 'zod/mini';
import type { DaemonStatus } from '../../protocol/scvDaemonControl';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import { isAllowing } from '../../protocol/transcriptTypes';
import type { ActionAnswers, ActionOffer, ActionResult, ActionTarget } from '../kit/daemonActions';
import { leftoverActionOffer, performScvAction } from './scvActions';
import type { DriverContext } from '../connectionManager';
import type { Driver, StartRunConfirmation, StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { LocalChangeSets } from '../../changeSets/localChangeSet';
import { TurnCheckpoints } from '../kit/turnCheckpoints';
import type { Event } from '../../base/emitter';
import { scvRunConfirmation, SCV_NEW_RUN_ASKS, startScvRun } from './scvNewRun';
import type { StartSessionOptions } from './scvNewRun';
import { BaseDriver } from '../kit/baseDriver';
import type { ConnectionScope } from '../kit/connectionScope';
import { runsChangeSetSink } from '../kit/localChangeSetSink';
import { toDriverError } from '../kit/errors';
import type { ScvClient } from './client';
import { CLEAR_NEEDS_IDLE, QUEUE_CONFLICT, QUEUE_NOT_FOUND, unknownPromptOutcome } from './scvErrorText';
import { ScvRequestError, ScvUnknownOutcomeError, ScvVersionMismatchError } from './scvErrors';
import type { ScvConnectionOptions } from './scvConnection';
import { ScvLeftoverOffers } from './scvLeftoverOffers';
import type { ScvLeftoverOffer } from './scvLeftovers';
import { ScvLiveConnection } from './scvLiveConnection';
import { ScvSessionEvents } from './scvSessionEvents';
import { defaultScvSocketPath } from './socketPath';
import { ScvStoredSessions } from './scvStoredSessions';
import type { Journaling } from '../kit/runJournaling';

export interface ScvDriverOptions extends ScvConnectionOptions {
  readonly reconnectBaseMs?: number;
}

export class ScvDriver extends BaseDriver implements Driver {
  readonly protocol = 'scv' as const;
  /** Journaled without a cursor (SCV cannot replay); a removed run's waiting prompts, their offer and change set go. */
  protected readonly journaling: Journaling<never> = {
    cursor: z.never(), books: 'none', removed: (runId) => (this.stored.forget(runId), this.leftovers.forgetRun(runId), this.localChanges.forget(runId)),
  };
  private readonly localChanges = new LocalChangeSets(runsChangeSetSink(this.runs, this.ctx.log));
  private readonly stored: ScvStoredSessions;
  private readonly events: ScvSessionEvents;
  private readonly leftovers: ScvLeftoverOffers;
  private readonly connections: ScvLiveConnection;
  /** A new session was offered the queued prompts its connection's previous session left (see `leftoverOffer`). */
  readonly onLeftoverOffer: Event<ScvLeftoverOffer>;
  private loaded: Promise<void> | undefined;
  /** The sessions' file checkpoints, at each start and turn end (issue #26: rewind; the UI is to come). */
  readonly checkpoints: TurnCheckpoints;

  constructor(
    ctx: DriverContext,
    options: ScvDriverOptions = {},
  ) {
    super(ctx, {
      // A session ends with its connection (§6.2), and what it waited for with it.
      approvalsDieWithConnection: true,
      ...(options.reconnectBaseMs !== undefined ? { reconnect: { baseMs: options.reconnectBaseMs } } : {}),
    });
    this.stored = new ScvStoredSessions(this.runs);
    this.checkpoints = new TurnCheckpoints(ctx, this.runs);
    this.events = new ScvSessionEvents(ctx, this.runs, this.stored, this.localChanges, this.checkpoints);
    this.leftovers = this.driverScope.add(new ScvLeftoverOffers(ctx, this.runs, this.stored));
    this.onLeftoverOffer = this.leftovers.onOffer;
    this.connections = new ScvLiveConnection(ctx, () => this.socketPath, options, this.events, this.leftovers, this.runs);
  }

  get socketPath(): string {
    return this.ctx.profile.socketPath ?? defaultScvSocketPath();
  }

  /** The run id of the live session, if there is one. */
  get liveSessionRunId(): string | undefined {
    return this.connections.live?.session?.runId;
  }

  /** The previous session's prompts that never ran, offered to the live session (until queued or discarded). */
  get leftoverOffer(): ScvLeftoverOffer | undefined {
    return this.leftovers.offerFor(this.liveSessionRunId);
  }

  /** Sends the offered leftover prompts into the live session (in order); resolves with how many were sent. */
  async queueLeftoverPrompts(): Promise<number> {
    const live = this.connections.requireConnection();
    return this.leftovers.queue(live.client, live.session?.runId);
  }

  /** Forgets the offered leftover prompts. */
  discardLeftoverPrompts(): void {
    this.leftovers.discard(this.liveSessionRunId);
  }

  /** Leftover offers, as the notification the UI shows (scvActions.ts). */
  readonly onOffer: Event<ActionOffer> = (listener) => this.onLeftoverOffer((offer) => listener(leftoverActionOffer(this.connectionId, offer)));

  openOffers(): readonly ActionOffer[] {
    const offer = this.leftoverOffer;
    return offer ? [leftoverActionOffer(this.connectionId, offer)] : [];
  }

  performAction(command: string, target: ActionTarget, answers: ActionAnswers): Promise<ActionResult> {
    return performScvAction(this, command, target, answers);
  }

  override async connect(): Promise<void> {
    if (!this.wantsConnection) {
      this.connections.wantSession();
    }
    await super.connect();
  }

  /** Starts a session (a new run) on the connection; resolves with its run id. */
  async startNewSession(options: StartSessionOptions = {}): Promise<string> {
    let live = this.connections.requireConnection();
    const cwd = options.cwd ?? this.ctx.workspaceFolder;
    if (!cwd) {
      throw new DriverError('Open a folder first: an SCV session works in a workspace folder.', 'no_folder');
    }
    if (live.session) {
      if (!options.replace) {
        throw new DriverError('This connection already has a live SCV session. End it first (a connection holds one session).', 'session_active');
      }
      // The session belongs to its connection: ending it means closing the connection and opening a new one.
      live = await this.connections.replace(live, () => this.renewConnection());
    }
    return this.connections.startSessionOn(live, cwd);
  }

  /** "New Run…" (scvNewRun.ts): the prompt is the first turn of a session; no model or permission question. */
  readonly newRunAsks = SCV_NEW_RUN_ASKS;

  startRun(options: StartRunOptions): Promise<string> {
    return startScvRun(this, this.ctx.store, options);
  }

  startRunConfirmation(): StartRunConfirmation | undefined {
    return scvRunConfirmation(this, this.ctx.store);
  }

  /** Runs the prompt, or queues it while a turn runs. Never resent when its outcome is unknown. */
  async sendMessage(runId: string, text: string): Promise<void> {
    const { live, session } = this.connections.requireSession(runId);
    try {
      await live.client.startTurn(text);
    } catch (error) {
      if (error instanceof ScvUnknownOutcomeError) {
        const snippet = text.length > 80 ? `${text.slice(0, 79)}…` : text;
        void this.runs.event(session.runId, {
          kind: 'notice',
          level: 'warning',
          text: `SCV did not confirm the prompt "${snippet}": it may or may not have been sent. It was not resent.`,
        });
        throw unknownPromptOutcome(error);
      }
      throw toDriverError(error);
    }
  }

  async cancelRun(runId: string): Promise<void> {
    const { live, session } = this.connections.requireSession(runId);
    const turnId = session.turnId;
    if (turnId === undefined) {
      throw new DriverError('No turn is running in this SCV session.', 'no_turn');
    }
    try {
      await live.client.cancelTurn(turnId);
    } catch (error) {
      if (error instanceof ScvRequestError && error.code === 'turn_not_found') {
        return; // it ended meanwhile
      }
      throw toDriverError(error);
    }
  }

  /** Forgets the session's history and queue on the daemon. Only while no turn runs. */
  async clearSession(runId: string): Promise<void> {
    const { live, session } = this.connections.requireSession(runId);
    if (session.turnId !== undefined) {
      throw new DriverError(CLEAR_NEEDS_IDLE, 'turn_active');
    }
    try {
      await live.client.clearSession();
    } catch (error) {
      throw error instanceof ScvRequestError && error.code === 'turn_active' ? new DriverError(CLEAR_NEEDS_IDLE, 'turn_active') : toDriverError(error);
    }
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface = 'palette', rule?: string): Promise<void> {
    const { live, session } = this.connections.requireSession(runId);
    let requestId: string;
    try {
      requestId = await live.client.resolveApproval(approvalId, isAllowing(decision));
    } catch (error) {
      throw toDriverError(error);
    }
    live.decisions.set(requestId, approvalId);
    void this.runs.event(session.runId, { kind: 'approvalSettled', approvalId, decision, by, ...(rule !== undefined ? { rule } : {}) });
    if (session.turnId !== undefined) {
      this.events.setState(session, 'running');
    }
  }

  async editQueueEntry(runId: string, queueId: string, revision: number, prompt: string): Promise<void> {
    await this.queueOp(runId, (client) => client.updateQueue(queueId, revision, prompt));
  }

  async moveQueueEntry(runId: string, queueId: string, revision: number, beforeQueueId: string | null): Promise<void> {
    await this.queueOp(runId, (client) => client.moveQueue(queueId, revision, beforeQueueId));
  }

  async removeQueueEntry(runId: string, queueId: string, revision: number): Promise<void> {
    await this.queueOp(runId, (client) => client.removeQueue(queueId, revision));
  }

  async pauseQueue(runId: string, paused: boolean): Promise<void> {
    await this.queueOp(runId, (client) => client.pause(paused));
  }

  /** Re-reads the daemon status and shows the queue as this editor knows it. */
  async refresh(): Promise<void> {
    const session = this.connections.live?.session;
    if (session) {
      this.events.publishQueue(session);
    }
    await this.daemonStatus();
  }

  /** `daemon.control status` on a separate connection; also updates the Connections tree. */
  daemonStatus(): Promise<DaemonStatus> {
    return this.connections.readDaemonStatus();
  }

  // ---- connection (scvLiveConnection.ts; the base driver reconnects) --------------------------------------------

  protected override connectOnce(connection: ConnectionScope): Promise<void> {
    return this.connections.connectOnce(connection);
  }

  protected override isFatal(error: unknown): boolean {
    return error instanceof ScvVersionMismatchError; // no negotiation in protocol 3: retrying cannot help
  }

  protected override connectionErrorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error); // the cause, not errorText's request wording
  }

  // ---- after a reload (scvStoredSessions.ts) -----------------------------------------------------------------------

  /** Rebuilds the stored sessions once, before the first connect. */
  protected override loadStorage(): Promise<void> {
    this.loaded ??= this.runs.replay(this.stored.restorePolicy());
    return this.loaded;
  }

  /** The ended session is recorded as interrupted; resolve once that is on disk. */
  protected override afterDisconnect(): Promise<void> {
    return this.runs.flush();
  }

  private async queueOp(runId: string, op: (client: ScvClient) => Promise<unknown>): Promise<void> {
    const { live, session } = this.connections.requireSession(runId);
    try {
      await op(live.client);
    } catch (error) {
      if (error instanceof ScvRequestError && (error.code === 'queue_conflict' || error.code === 'queue_not_found')) {
        // Protocol 3 cannot re-read the queue, but this connection saw every change: show that copy again so the
        // view (which acted on an older revision) catches up.
        this.events.publishQueue(session);
        throw new DriverError(error.code === 'queue_conflict' ? QUEUE_CONFLICT : QUEUE_NOT_FOUND, error.code);
      }
      throw toDriverError(error);
    }
  }

  /** A snapshot still being taken is waited for: its git writes must not outlive the driver (or a test's folder). */
  protected override async closeStorage(): Promise<void> {
    await this.checkpoints.settled();
    return super.closeStorage();
  }
}
