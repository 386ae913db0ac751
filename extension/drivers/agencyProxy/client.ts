/**
 * AgencyProxyClient: one connection to an AgencyProxy 0.3 daemon (WIRE.md §1). `connect()` opens the socket and
 * completes `hello` before resolving, so every typed method runs on a negotiated connection. The socket, framing,
 * frame tap and request matching are `AgencyProxyConnection`'s; this class is the typed protocol on top of it.
 *
 * Event frames go to `onEvent` in wire order (an `attachRun` snapshot resolves after the replayed events that
 * arrived in the same chunk were fired — subscribe to `onEvent` before attaching). Bad frames, Close and EOF end
 * the connection with a reason on `onClose`; pending requests then reject with `connection_closed`.
 */
import type { Event } from '../../base/emitter';
import {
  PROTOCOL_VERSION,
  SHUTDOWN_MIN_MINOR,
  idempotencyKeys,
  isTerminalRunState,
} from '../../protocol/agencyProxy';
import type {
  ApprovalDecision,
  ClientMessage,
  EventFrame,
  ProtocolVersion,
  ProviderAccountUsage,
  ProviderStatus,
  ResponseFrame,
  RunRequestInput,
  RunSnapshot,
  ShutdownMode,
} from '../../protocol/agencyProxy';
import { AgencyProxyConnection } from './agencyProxyConnection';
import type { ResponseOf } from './agencyProxyConnection';
import type {
  AgencyProxyClientOptions,
  AgencyProxyCloseInfo,
  AgencyProxyWarning,
  ShutdownResult,
} from './agencyProxyClientTypes';
import { AgencyProxyError, isAgencyProxyError } from './agencyProxyError';

export type { AgencyProxyClientOptions, AgencyProxyCloseInfo, AgencyProxyWarning, ShutdownResult } from './agencyProxyClientTypes';

export const CLIENT_NAME = 'agent-switchboard';

export class AgencyProxyClient {
  private negotiated: ProtocolVersion | undefined;
  private serverCapabilities: readonly string[] = [];
  private server = '';

  /** Event frames of attached runs, in wire order. Dedupe by `sequence` (WIRE.md §1.9). */
  readonly onEvent: Event<EventFrame>;
  /** The frames since the last one were a read, or one turn's part of it (a reader that folds a read's chunks flushes here). */
  readonly onReadEnd: Event<void>;
  /** Fires once when the connection ends. */
  readonly onClose: Event<AgencyProxyCloseInfo>;
  /** Frames that were ignored (unparseable server frames, late responses). The connection stays open. */
  readonly onWarning: Event<AgencyProxyWarning>;

  private constructor(
    private readonly connection: AgencyProxyConnection,
    private readonly options: AgencyProxyClientOptions,
  ) {
    this.onEvent = connection.onEvent;
    this.onReadEnd = connection.onReadEnd;
    this.onClose = connection.onClose;
    this.onWarning = connection.onWarning;
  }

  /** Connects to `socketPath` and performs hello. Rejects with AgencyProxyError (or SocketConnectError). */
  static async connect(options: AgencyProxyClientOptions): Promise<AgencyProxyClient> {
    const client = new AgencyProxyClient(await AgencyProxyConnection.open(options), options);
    try {
      await client.handshake();
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /** The negotiated version (major 0, minor = min(ours, daemon's)). */
  get version(): ProtocolVersion {
    return this.negotiated ?? PROTOCOL_VERSION;
  }
  get capabilities(): readonly string[] {
    return this.serverCapabilities;
  }
  get serverName(): string {
    return this.server;
  }
  get isOpen(): boolean {
    return this.connection.isOpen;
  }

  listRuns(): Promise<RunSnapshot[]> {
    return this.request({ type: 'list_runs' }, 'runs').then((r) => r.runs);
  }
  probeProviders(): Promise<ProviderStatus[]> {
    return this.request({ type: 'probe_providers' }, 'providers').then((r) => r.providers);
  }
  readAccountUsage(): Promise<ProviderAccountUsage[]> {
    return this.request({ type: 'read_account_usage' }, 'account_usage').then((r) => r.providers);
  }
  /** Starts (does not attach) a run. `conflict` after a retry means "already started" (or another client's id). */
  async startRun(runId: string, request: RunRequestInput): Promise<void> {
    const message = { type: 'start_run', run_id: runId, request, idempotency_key: idempotencyKeys.start(runId) } as const;
    await this.request(message, 'accepted');
  }
  /** Resolves with the snapshot; replayed events (sequence > afterSequence) and live events follow on onEvent. */
  attachRun(runId: string, afterSequence: number): Promise<RunSnapshot> {
    return this.request({ type: 'attach_run', run_id: runId, after_sequence: afterSequence }, 'run').then((r) => r.run);
  }
  async detachRun(runId: string): Promise<void> {
    await this.request({ type: 'detach_run', run_id: runId }, 'accepted');
  }
  /** Not deduplicated by the daemon: never retry automatically. `n` numbers the client's messages for the key. */
  async injectMessage(runId: string, body: string, n: number): Promise<void> {
    const key = idempotencyKeys.inject(runId, n);
    await this.request({ type: 'inject_message', run_id: runId, body, idempotency_key: key }, 'accepted');
  }
  /** `conflict` means "already cancelling" and is safe to ignore. */
  async cancelRun(runId: string): Promise<void> {
    await this.request({ type: 'cancel_run', run_id: runId, idempotency_key: idempotencyKeys.cancel(runId) }, 'accepted');
  }
  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision): Promise<void> {
    const key = idempotencyKeys.approval(runId, approvalId);
    await this.request(
      { type: 'decide_approval', run_id: runId, approval_id: approvalId, decision, idempotency_key: key }, 'accepted');
  }
  /** Global and destructive: ack only what was rendered or persisted. Use Number.MAX_SAFE_INTEGER for "all". */
  async ackEvents(runId: string, throughSequence: number): Promise<void> {
    await this.request({ type: 'ack_events', run_id: runId, through_sequence: throughSequence }, 'accepted');
  }
  /** `accepted` then the daemon exits; `conflict` while runs are active. */
  async shutdownIfIdle(): Promise<void> {
    await this.request({ type: 'shutdown_if_idle' }, 'accepted');
  }

  /**
   * Stops the daemon. Minor ≥ 3: `shutdown{mode}`. Older daemons would close on the unknown type, so emulate
   * (WIRE.md §1.12): for `terminate` cancel every active run, then poll `shutdown_if_idle` every
   * `shutdownPollMs` until accepted, giving up after `shutdownEmulationTimeoutMs` with a `timeout` error.
   */
  async shutdown(mode: ShutdownMode): Promise<ShutdownResult> {
    if (this.version.minor >= SHUTDOWN_MIN_MINOR) {
      await this.request({ type: 'shutdown', mode }, 'accepted');
      return { emulated: false };
    }
    if (mode === 'terminate') {
      for (const run of await this.listRuns()) {
        if (!isTerminalRunState(run.state)) {
          await this.cancelRun(run.runId).catch((error: unknown) => {
            // conflict = already cancelling/finished; not_found = gone. Both are fine here.
            if (!isAgencyProxyError(error, 'conflict') && !isAgencyProxyError(error, 'not_found')) {
              throw error;
            }
          });
        }
      }
    }
    const pollMs = this.options.shutdownPollMs ?? 100;
    const deadline = Date.now() + (this.options.shutdownEmulationTimeoutMs ?? 10_000);
    for (;;) {
      try {
        await this.shutdownIfIdle();
        return { emulated: true };
      } catch (error) {
        if (!isAgencyProxyError(error, 'conflict')) {
          throw error;
        }
        if (Date.now() + pollMs > deadline) {
          throw new AgencyProxyError('timeout', `AgencyProxy ${this.version.major}.${this.version.minor} still had ` +
            `active runs after emulated shutdown (${mode}); last answer: ${error.message}`, false, 'shutdown');
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Sends a Close frame and ends the connection; pending requests reject with `connection_closed`. */
  close(): void {
    this.connection.close();
  }

  private async handshake(): Promise<void> {
    const clientName = this.options.clientName ?? CLIENT_NAME;
    let reply: ResponseOf<'hello'>;
    try {
      reply = await this.request({ type: 'hello', client_name: clientName, version: { ...PROTOCOL_VERSION } },
        'hello', this.options.helloTimeoutMs ?? 5000);
    } catch (error) {
      if (isAgencyProxyError(error, 'incompatible_version')) {
        throw new AgencyProxyError('incompatible_version', `The AgencyProxy daemon at ${this.options.socketPath} ` +
          `speaks a different protocol major version and rejected ${PROTOCOL_VERSION.major}.${PROTOCOL_VERSION.minor} ` +
          `("${error.message}"). Agent Switchboard supports AgencyProxy ${PROTOCOL_VERSION.major}.x: install a ` +
          'matching agency-proxy or update Agent Switchboard.', true, 'hello');
      }
      if (isAgencyProxyError(error) && !error.fromDaemon) {
        throw new AgencyProxyError('handshake_failed',
          `AgencyProxy handshake with ${this.options.socketPath} failed: ${error.message}`, false, 'hello');
      }
      throw error;
    }
    if (reply.version.major !== PROTOCOL_VERSION.major) {
      throw new AgencyProxyError('incompatible_version', `The AgencyProxy daemon at ${this.options.socketPath} ` +
        `speaks ${reply.version.major}.x; Agent Switchboard supports ${PROTOCOL_VERSION.major}.x. Install a ` +
        'matching agency-proxy or update Agent Switchboard.', false, 'hello');
    }
    this.negotiated = { major: reply.version.major, minor: Math.min(reply.version.minor, PROTOCOL_VERSION.minor) };
    this.serverCapabilities = reply.capabilities;
    this.server = reply.server_name;
  }

  private request<T extends ResponseFrame['type']>(message: ClientMessage, expect: T, timeoutMs?: number): Promise<ResponseOf<T>> {
    return this.connection.request(message, expect, timeoutMs);
  }
}
