/**
 * The SCV driver's live connection and its (at most one) session. A connection attempt opens and initializes a
 * client with every handler wired (`openScvConnection`), ties closing it to the attempt's `ConnectionScope`, and
 * starts a session on it when the user asked to connect, and again after a drop that ended a live session (the
 * daemon restarted, the socket broke): WIRE.md 6.2 says to reconnect with a new `session.start`, and the user had a
 * session. Nothing runs in it that the user did not decide: an unanswered `turn.start` is never resent, and the
 * prompts the ended session still had queued are only offered (scvLeftoverOffers.ts). A drop with no session
 * comes back initialize-only. Starting a session on a connection that has one replaces the connection, since the
 * session belongs to it.
 */
import { toDisposable } from '../../base/emitter';
import type { Capability } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { DaemonStatus } from '../../protocol/scvDaemonControl';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import { DriverError } from '../driver';
import type { ConnectionScope } from '../kit/connectionScope';
import { errorText, toDriverError } from '../kit/errors';
import { daemonStatus } from './daemonStatus';
import type { ScvCloseInfo } from './scvClientTypes';
import { nextConnectionEpoch, openScvConnection } from './scvConnection';
import type { ScvConnectionOptions } from './scvConnection';
import { summarizeDaemonStatus } from './scvDaemonSummary';
import { SESSION_DISCONNECTED, SESSION_DROPPED, SESSION_REPLACED } from './scvErrorText';
import type { ScvLeftoverOffers } from './scvLeftoverOffers';
import type { ScvConnectionBook, ScvSessionBook } from './scvSessionBook';
import type { DriverRuns } from '../kit/driverRuns';
import type { ScvSessionEvents } from './scvSessionEvents';

export const SCV_CAPABILITIES: readonly Capability[] = ['run.start', 'runs.sessions', 'run.queue', 'run.cancel', 'run.clear', 'approvals', 'daemon.status'];

export class ScvLiveConnection {
  private current: ScvConnectionBook | undefined;
  /** The epoch of the latest connection (run ids are `<session id>@<epoch>`). */
  private lastEpoch = 0;
  /** Start a session when the connection comes up: on connect, and after a drop that ended a live session. */
  private autoSession = true;

  constructor(
    private readonly ctx: DriverContext,
    private readonly socketPath: () => string,
    private readonly options: ScvConnectionOptions,
    private readonly events: ScvSessionEvents,
    private readonly leftovers: ScvLeftoverOffers,
    private readonly runs: DriverRuns,
  ) {}

  get live(): ScvConnectionBook | undefined {
    return this.current;
  }

  /** The next connection starts a session again (the user asked to connect). */
  wantSession(): void {
    this.autoSession = true;
  }

  async connectOnce(connection: ConnectionScope): Promise<void> {
    const live = await this.open(connection);
    if (!connection.isOpen) {
      return; // disconnected meanwhile: `open` tied the close to the ended scope, so it is closed again
    }
    this.current = live;
    if (this.autoSession) {
      await this.autoStartSession(live);
    }
    if (live.client.state === 'closed') {
      throw new Error('the connection closed while starting');
    }
    live.established = true;
    this.readDaemonStatus().catch((error: unknown) => this.ctx.log.warn(`SCV daemon status: ${errorText(error)}`));
  }

  /**
   * Ends the live connection (and with it its session) and opens a new one in `next`, for a new session. When the
   * new one cannot be opened, `next` is lost, so the reconnect loop takes over.
   */
  async replace(live: ScvConnectionBook, renew: () => ConnectionScope): Promise<ScvConnectionBook> {
    live.closeReason = SESSION_REPLACED;
    const next = renew();
    try {
      const replacement = await this.open(next);
      replacement.established = true;
      this.current = replacement;
      return replacement;
    } catch (error) {
      next.lost(error instanceof Error ? error.message : String(error)); // a connection cause, as in the connection state
      throw toDriverError(error);
    }
  }

  /** `daemon.control status` on a separate connection; also updates the Connections tree. */
  async readDaemonStatus(): Promise<DaemonStatus> {
    let status: DaemonStatus;
    try {
      status = await daemonStatus({
        socketPath: this.socketPath(),
        clientVersion: this.options.clientVersion ?? '0.1.0',
        frameTap: this.ctx.tap,
        ...(this.options.connectTimeoutMs !== undefined ? { connectTimeoutMs: this.options.connectTimeoutMs } : {}),
        ...(this.options.replyTimeoutMs !== undefined ? { replyTimeoutMs: this.options.replyTimeoutMs } : {}),
      });
    } catch (error) {
      const userError = toDriverError(error);
      this.runs.connectionInfo({ details: { statusError: userError.message } });
      throw userError;
    }
    const summary = summarizeDaemonStatus(this.current?.client.server, status, Date.now());
    this.runs.connectionInfo({ ...summary });
    return status;
  }

  /** Starts a session on `live`; resolves with its run id. */
  async startSessionOn(live: ScvConnectionBook, cwd: string): Promise<string> {
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

  requireConnection(): ScvConnectionBook {
    const live = this.current;
    if (!live || live.client.state !== 'open') {
      throw new DriverError('SCV is not connected (the connection retries by itself; see the Connections view).', 'not_connected');
    }
    return live;
  }

  requireSession(runId: string): { live: ScvConnectionBook; session: ScvSessionBook } {
    const live = this.current;
    const session = live?.session;
    if (!live || !session || session.runId !== runId || live.client.state !== 'open') {
      const run = this.ctx.store.state.runs.get(runKeyOf(this.ctx.connectionId, runId));
      throw new DriverError(
        run && isTerminalRunState(run.state)
          ? 'This SCV session has ended and cannot be resumed. Use "Start New SCV Session Here" to continue in a new session.'
          : 'SCV is not connected.',
        'session_ended',
      );
    }
    return { live, session };
  }

  private async autoStartSession(live: ScvConnectionBook): Promise<void> {
    const cwd = this.ctx.workspaceFolder;
    if (!cwd) {
      this.autoSession = false;
      this.runs.connectionInfo({ warning: 'Open a folder to start an SCV session.' });
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
      this.runs.connectionInfo({ warning: `The SCV session did not start: ${message}` });
    }
  }

  /**
   * Opens and initializes a connection, with every handler wired and its close tied to `connection` (closed at once
   * if that already ended). Rejects (version mismatch included) on failure.
   */
  private async open(connection: ConnectionScope): Promise<ScvConnectionBook> {
    const live = await openScvConnection(
      this.ctx,
      this.socketPath(),
      this.options,
      {
        event: (l, event) => this.guard(() => this.events.onEvent(l, event)),
        gap: (l, gap) => this.guard(() => this.events.onGap(l, gap)),
        error: (l, info) => this.guard(() => this.events.onError(l, info)),
        close: (l, info) => this.guard(() => this.onClose(l, info, connection)),
        readEnd: () => this.guard(() => this.events.endRead()),
      },
      () => {
        this.lastEpoch = nextConnectionEpoch(this.ctx.store.state, this.ctx.connectionId, this.lastEpoch, Date.now());
        return this.lastEpoch.toString(36);
      },
    );
    connection.add(
      toDisposable(() => {
        live.closeReason ??= SESSION_DISCONNECTED;
        live.client.close();
        if (this.current === live) {
          this.current = undefined;
        }
      }),
    );
    if (!connection.isOpen) {
      return live;
    }
    const server = live.client.server;
    this.runs.connectionInfo({ capabilities: SCV_CAPABILITIES,
      serverDescription: server ? `${server.name} ${server.version}` : 'scv',
      warning: '',
    });
    return live;
  }

  private onClose(live: ScvConnectionBook, info: ScvCloseInfo, connection: ConnectionScope): void {
    if (this.current === live) {
      this.current = undefined;
    }
    const hadSession = live.session !== undefined;
    if (live.session) {
      this.events.endSession(live, live.session, live.closeReason ?? (info.kind === 'local' ? SESSION_DISCONNECTED : SESSION_DROPPED));
    }
    if (info.kind !== 'local') {
      this.ctx.log.warn(`SCV connection ended: ${info.reason}`);
      // The session the user had ended with the connection (a daemon restart): the next connection starts a new one
      // (§6.2). A connection that held none comes back initialize-only; one that failed while starting keeps trying.
      this.autoSession = live.established ? hadSession : this.autoSession;
      if (live.established) {
        connection.lost(info.reason);
      }
    }
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
