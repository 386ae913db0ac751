/**
 * The SCV driver (protocol 3, WIRE.md §2): one connection to the daemon, and on it at most one session, which is
 * one run in the model (run id = `<session id>@<connection epoch>`: a restarted daemon may reuse session ids).
 * Between turns the run is `idle`, during a turn `running`, and `waiting_approval` while a tool call waits for a
 * person. The server-side prompt queue is mirrored into the run (`runQueue`); background delegation jobs into a
 * "Background jobs" side panel.
 *
 * Sessions end with their connection (§6.2): when the socket drops, the run is marked `interrupted`, its pending
 * approvals expire and its transcript stays (also on disk, for reloads). The connection is then re-established
 * (initialize only) but no session is started behind the user's back: "Start New SCV Session Here" starts one.
 * Prompts still queued when a session ends are kept and offered to the next session (`scvLeftoverOffers.ts`).
 * A `turn.start` is never resent: when its outcome is unknown the user is told the prompt may or may not have
 * been sent. Seq gaps come from the client's tracker (an unknown event excuses one), not from the reducer.
 * Daemon status is read on a separate management connection. What the connection receives is folded by
 * `ScvSessionEvents`; this class owns the connection's lifecycle and the user's actions.
 */
import type { Capability } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { DaemonStatus } from '../../protocol/scvDaemonControl';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import type { Driver } from '../driver';
import { DriverError } from '../driver';
import { LocalChangeSets } from '../../changeSets/localChangeSet';
import { storeChangeSetSink } from '../kit/localChangeSetSink';
import { errorText, toDriverError } from '../kit/errors';
import { ReconnectLoop } from '../kit/reconnectLoop';
import type { Event } from '../../base/emitter';
import type { ScvClient } from './client';
import { daemonStatus } from './daemonStatus';
import type { ScvCloseInfo } from './scvClientTypes';
import { summarizeDaemonStatus } from './scvDaemonSummary';
import {
  CLEAR_NEEDS_IDLE,
  QUEUE_CONFLICT,
  QUEUE_NOT_FOUND,
  SESSION_DISCONNECTED,
  SESSION_DROPPED,
  SESSION_REPLACED,
  unknownPromptOutcome,
} from './scvErrorText';
import { ScvRequestError, ScvUnknownOutcomeError, ScvVersionMismatchError } from './scvErrors';
import type { ScvConnectionBook, ScvSessionBook } from './scvSessionBook';
import { nextConnectionEpoch, openScvConnection } from './scvConnection';
import type { ScvConnectionOptions } from './scvConnection';
import { ScvLeftoverOffers } from './scvLeftoverOffers';
import type { ScvLeftoverOffer } from './scvLeftovers';
import { ScvSessionEvents } from './scvSessionEvents';
import { defaultScvSocketPath } from './socketPath';
import { ScvTranscripts } from './scvTranscripts';

export const SCV_CAPABILITIES: readonly Capability[] = ['run.queue', 'run.cancel', 'run.clear', 'approvals', 'daemon.status'];

export interface ScvDriverOptions extends ScvConnectionOptions {
  readonly reconnectBaseMs?: number;
}

export interface StartSessionOptions {
  /** Working directory (absolute); default: the window's first workspace folder. */
  readonly cwd?: string;
  /** End this connection's live session first (a connection holds one session). */
  readonly replace?: boolean;
}

export class ScvDriver implements Driver {
  readonly protocol = 'scv' as const;
  readonly connectionId: string;
  private readonly loop: ReconnectLoop;
  private readonly transcripts: ScvTranscripts;
  private readonly events: ScvSessionEvents;
  private readonly leftovers: ScvLeftoverOffers;
  /** A new session was offered the queued prompts its connection's previous session left (see `leftoverOffer`). */
  readonly onLeftoverOffer: Event<ScvLeftoverOffer>;
  private live: ScvConnectionBook | undefined;
  /** The epoch of the latest connection (run ids are `<session id>@<epoch>`). */
  private lastEpoch = 0;
  /** The reconnect loop's "this connection dropped" callback for the current attempt. */
  private lost: ((reason: string) => void) | undefined;
  /** Start a session when the connection comes up: on connect, but not after a drop (the user decides then). */
  private autoSession = true;
  private disposed = false;

  constructor(
    private readonly ctx: DriverContext,
    private readonly options: ScvDriverOptions = {},
  ) {
    this.connectionId = ctx.connectionId;
    this.transcripts = new ScvTranscripts(ctx);
    this.events = new ScvSessionEvents(ctx, this.transcripts, new LocalChangeSets(storeChangeSetSink(ctx.store, ctx.connectionId, ctx.log)));
    this.leftovers = new ScvLeftoverOffers(ctx, this.transcripts);
    this.onLeftoverOffer = this.leftovers.onOffer;
    this.loop = new ReconnectLoop({
      connectOnce: (onLost) => this.connectOnce(onLost),
      setState: (state) => ctx.store.dispatch({ type: 'connectionState', connectionId: this.connectionId, state }),
      describeError: (error) => ({
        message: error instanceof Error ? error.message : String(error), // the cause, not errorText's request wording
        // No negotiation in protocol 3: retrying cannot help.
        fatal: error instanceof ScvVersionMismatchError,
      }),
      ...(options.reconnectBaseMs !== undefined ? { baseMs: options.reconnectBaseMs } : {}),
    });
  }

  get socketPath(): string {
    return this.ctx.profile.socketPath ?? defaultScvSocketPath();
  }

  /** The run id of the live session, if there is one. */
  get liveSessionRunId(): string | undefined {
    return this.live?.session?.runId;
  }

  /** The previous session's prompts that never ran, offered to the live session (until queued or discarded). */
  get leftoverOffer(): ScvLeftoverOffer | undefined {
    return this.leftovers.offerFor(this.liveSessionRunId);
  }

  /** Sends the offered leftover prompts into the live session (in order); resolves with how many were sent. */
  async queueLeftoverPrompts(): Promise<number> {
    const live = this.requireConnection();
    return this.leftovers.queue(live.client, live.session?.runId);
  }

  /** Forgets the offered leftover prompts. */
  discardLeftoverPrompts(): void {
    this.leftovers.discard(this.liveSessionRunId);
  }

  async connect(): Promise<void> {
    await this.transcripts.load();
    if (!this.loop.isWanted) {
      this.autoSession = true;
    }
    await this.loop.start();
  }

  async disconnect(): Promise<void> {
    this.loop.stop();
    const live = this.live;
    if (live) {
      live.closeReason ??= SESSION_DISCONNECTED;
      live.client.close();
    }
    this.live = undefined;
    // The ended session is recorded as interrupted; resolve once that is on disk.
    await this.transcripts.flush();
  }

  /** Resolves once everything folded so far is on disk (the window is about to go away; tests of a reload). */
  flushStorage(): Promise<void> {
    return this.transcripts.flush();
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.leftovers.dispose();
    void this.disconnect().then(() => this.transcripts.close());
  }

  /** Starts a session (a new run) on the connection; resolves with its run id. */
  async startNewSession(options: StartSessionOptions = {}): Promise<string> {
    let live = this.requireConnection();
    const cwd = options.cwd ?? this.ctx.workspaceFolder;
    if (!cwd) {
      throw new DriverError('Open a folder first: an SCV session works in a workspace folder.', 'no_folder');
    }
    if (live.session) {
      if (!options.replace) {
        throw new DriverError('This connection already has a live SCV session. End it first (a connection holds one session).', 'session_active');
      }
      // The session belongs to its connection: ending it means closing the connection and opening a new one.
      live.closeReason = SESSION_REPLACED;
      live.client.close();
      try {
        live = await this.openConnection();
      } catch (error) {
        this.lost?.(error instanceof Error ? error.message : String(error)); // a connection cause, as in describeError
        throw toDriverError(error);
      }
      live.established = true;
      this.live = live;
    }
    return this.startSessionOn(live, cwd);
  }

  /** Runs the prompt, or queues it while a turn runs. Never resent when its outcome is unknown. */
  async sendMessage(runId: string, text: string): Promise<void> {
    const { live, session } = this.requireSession(runId);
    try {
      await live.client.startTurn(text);
    } catch (error) {
      if (error instanceof ScvUnknownOutcomeError) {
        const snippet = text.length > 80 ? `${text.slice(0, 79)}…` : text;
        this.transcripts.event(session.runId, {
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
    const { live, session } = this.requireSession(runId);
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
    const { live, session } = this.requireSession(runId);
    if (session.turnId !== undefined) {
      throw new DriverError(CLEAR_NEEDS_IDLE, 'turn_active');
    }
    try {
      await live.client.clearSession();
    } catch (error) {
      throw error instanceof ScvRequestError && error.code === 'turn_active' ? new DriverError(CLEAR_NEEDS_IDLE, 'turn_active') : toDriverError(error);
    }
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface = 'palette'): Promise<void> {
    const { live, session } = this.requireSession(runId);
    let requestId: string;
    try {
      requestId = await live.client.resolveApproval(approvalId, decision !== 'deny');
    } catch (error) {
      throw toDriverError(error);
    }
    live.decisions.set(requestId, approvalId);
    this.transcripts.event(session.runId, { kind: 'approvalSettled', approvalId, decision, by });
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
    const session = this.live?.session;
    if (session) {
      this.events.publishQueue(session);
    }
    await this.daemonStatus();
  }

  /** `daemon.control status` on a separate connection; also updates the Connections tree. */
  async daemonStatus(): Promise<DaemonStatus> {
    let status: DaemonStatus;
    try {
      status = await daemonStatus({
        socketPath: this.socketPath,
        clientVersion: this.options.clientVersion ?? '0.1.0',
        frameTap: this.ctx.tap,
        ...(this.options.connectTimeoutMs !== undefined ? { connectTimeoutMs: this.options.connectTimeoutMs } : {}),
        ...(this.options.replyTimeoutMs !== undefined ? { replyTimeoutMs: this.options.replyTimeoutMs } : {}),
      });
    } catch (error) {
      const userError = toDriverError(error);
      this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.connectionId, details: { statusError: userError.message } });
      throw userError;
    }
    const summary = summarizeDaemonStatus(this.live?.client.server, status, Date.now());
    this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.connectionId, ...summary });
    return status;
  }

  // ---- connection ----------------------------------------------------------------------------------------------

  private async connectOnce(onLost: (reason: string) => void): Promise<void> {
    this.lost = onLost;
    const live = await this.openConnection();
    if (this.disposed || !this.loop.isWanted) {
      live.closeReason = SESSION_DISCONNECTED;
      live.client.close();
      return;
    }
    this.live = live;
    if (this.autoSession) {
      await this.autoStartSession(live);
    }
    if (live.client.state === 'closed') {
      throw new Error('the connection closed while starting');
    }
    live.established = true;
    this.daemonStatus().catch((error: unknown) => this.ctx.log.warn(`SCV daemon status: ${errorText(error)}`));
  }

  private async autoStartSession(live: ScvConnectionBook): Promise<void> {
    const cwd = this.ctx.workspaceFolder;
    if (!cwd) {
      this.autoSession = false;
      this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.connectionId, warning: 'Open a folder to start an SCV session.' });
      return;
    }
    try {
      await this.startSessionOn(live, cwd);
      this.autoSession = false;
    } catch (error) {
      if (live.client.state === 'closed') {
        return; // connectOnce fails and the loop retries, still wanting a session
      }
      this.autoSession = false;
      const message = errorText(error);
      this.ctx.log.error(`The SCV session did not start: ${message}`);
      this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.connectionId, warning: `The SCV session did not start: ${message}` });
    }
  }

  /** Opens and initializes a connection, with every handler wired. Rejects (version mismatch included) on failure. */
  private async openConnection(): Promise<ScvConnectionBook> {
    const live = await openScvConnection(
      this.ctx,
      this.socketPath,
      this.options,
      {
        event: (l, event) => this.guard(() => this.events.onEvent(l, event)),
        gap: (l, gap) => this.guard(() => this.events.onGap(l, gap)),
        error: (l, info) => this.guard(() => this.events.onError(l, info)),
        close: (l, info) => this.guard(() => this.onClose(l, info)),
      },
      () => {
        this.lastEpoch = nextConnectionEpoch(this.ctx.store.state, this.connectionId, this.lastEpoch, Date.now());
        return this.lastEpoch.toString(36);
      },
    );
    const server = live.client.server;
    this.ctx.store.dispatch({
      type: 'connectionInfo',
      connectionId: this.connectionId,
      capabilities: SCV_CAPABILITIES,
      serverDescription: server ? `${server.name} ${server.version}` : 'scv',
      warning: '',
    });
    return live;
  }

  private async startSessionOn(live: ScvConnectionBook, cwd: string): Promise<string> {
    try {
      const { snapshot } = await live.client.startSession({ cwd });
      const runId = live.session?.runId;
      if (runId === undefined) {
        throw new DriverError('The SCV session ended as it started.', 'session_ended');
      }
      this.leftovers.sessionStarted(runId, snapshot.entries);
      return runId;
    } catch (error) {
      throw toDriverError(error);
    }
  }

  private onClose(live: ScvConnectionBook, info: ScvCloseInfo): void {
    if (this.live === live) {
      this.live = undefined;
    }
    if (live.session) {
      this.events.endSession(live, live.session, live.closeReason ?? (info.kind === 'local' ? SESSION_DISCONNECTED : SESSION_DROPPED));
    }
    if (info.kind !== 'local') {
      this.ctx.log.warn(`SCV connection ended: ${info.reason}`);
      // The next connection is initialize-only; a new session waits for the user.
      this.autoSession = this.autoSession && !live.established;
      if (live.established) {
        this.lost?.(info.reason);
      }
    }
  }

  private async queueOp(runId: string, op: (client: ScvClient) => Promise<unknown>): Promise<void> {
    const { live, session } = this.requireSession(runId);
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

  private requireConnection(): ScvConnectionBook {
    const live = this.live;
    if (!live || live.client.state !== 'open') {
      throw new DriverError('SCV is not connected (the connection retries by itself; see the Connections view).', 'not_connected');
    }
    return live;
  }

  private requireSession(runId: string): { live: ScvConnectionBook; session: ScvSessionBook } {
    const live = this.live;
    const session = live?.session;
    if (!live || !session || session.runId !== runId || live.client.state !== 'open') {
      const run = this.ctx.store.state.runs.get(runKeyOf(this.connectionId, runId));
      throw new DriverError(
        run && isTerminalRunState(run.state)
          ? 'This SCV session has ended and cannot be resumed. Use "Start New SCV Session Here" to continue in a new session.'
          : 'SCV is not connected.',
        'session_ended',
      );
    }
    return { live, session };
  }

  /** Listener errors must not vanish inside the client's emitters. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.ctx.log.error(`SCV driver: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
}
