/**
 * AgencyProxyClient: one connection to an AgencyProxy 0.3 daemon (WIRE.md §1). `connect()` opens the socket and
 * completes `hello` before resolving, so every typed method runs on a negotiated connection.
 *
 * Requests are matched to responses by `request_id` with a per-request timeout; a late response is dropped. Event
 * frames go to `onEvent` in wire order (an `attachRun` snapshot resolves after the replayed events that arrived
 * in the same chunk were fired — subscribe to `onEvent` before attaching). Bad frames, Close and EOF end the
 * connection with a reason on `onClose`; pending requests then reject with `connection_closed`.
 */
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import {
  PROTOCOL_VERSION,
  SHUTDOWN_MIN_MINOR,
  buildClientFrame,
  idempotencyKeys,
  isTerminalRunState,
  parseServerFrame,
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
import type { FrameTap } from '../../transport/frameTap';
import { noFrameTap } from '../../transport/frameTap';
import { LengthPrefixedDecoder, encodeCloseFrame, encodeJsonFrame } from '../../transport/lengthPrefixed';
import type { DecodeResult } from '../../transport/lengthPrefixed';
import { SocketConnection } from '../../transport/socketConnection';
import { AgencyProxyError, isAgencyProxyError } from './agencyProxyError';
import { PendingRequests } from '../kit/pendingRequests';

export const CLIENT_NAME = 'agent-switchboard';

export interface AgencyProxyClientOptions {
  readonly socketPath: string;
  readonly clientName?: string;
  /** Socket connect timeout (default 2000 ms). */
  readonly connectTimeoutMs?: number;
  /** Hello reply timeout (default 5000 ms). */
  readonly helloTimeoutMs?: number;
  /** Default per-request timeout (default 15000 ms). */
  readonly requestTimeoutMs?: number;
  /** Receives every JSON frame sent ('out') and received ('in'). */
  readonly frameTap?: FrameTap;
  /** shutdown() emulation against minor < 3: poll interval (default 100 ms) and overall bound (default 10000 ms). */
  readonly shutdownPollMs?: number;
  readonly shutdownEmulationTimeoutMs?: number;
  /** First request id (default 1); tests use it to exercise the wrap. */
  readonly firstRequestId?: number;
}

export interface AgencyProxyCloseInfo {
  /** Human-readable cause, e.g. "the daemon closed the connection". */
  readonly reason: string;
  /** True when this client called close(). */
  readonly byClient: boolean;
  /** Set for protocol-level failures (bad frame, truncated stream). */
  readonly error?: AgencyProxyError;
}

export interface AgencyProxyWarning {
  readonly message: string;
  readonly frame: unknown;
}

export interface ShutdownResult {
  /** True when the daemon is older than 0.3 and shutdown was emulated (cancel + shutdown_if_idle polling). */
  readonly emulated: boolean;
}

interface Pending {
  readonly type: string;
  readonly resolve: (frame: ResponseFrame) => void;
  readonly reject: (error: Error) => void;
}

type ResponseOf<T extends ResponseFrame['type']> = Extract<ResponseFrame, { type: T }>;

export class AgencyProxyClient {
  private readonly eventEmitter = new Emitter<EventFrame>();
  private readonly closeEmitter = new Emitter<AgencyProxyCloseInfo>();
  private readonly warningEmitter = new Emitter<AgencyProxyWarning>();
  /** The daemon may send Ping/Pong; they carry nothing for us and must never be answered (WIRE.md §1.2). */
  private readonly decoder = new LengthPrefixedDecoder({ ignorePingPong: true });
  private readonly pending = new PendingRequests<number, Pending>();
  private readonly tap: FrameTap;
  private nextId: number;
  private closeInfo: AgencyProxyCloseInfo | undefined;
  private negotiated: ProtocolVersion | undefined;
  private serverCapabilities: readonly string[] = [];
  private server = '';

  /** Event frames of attached runs, in wire order. Dedupe by `sequence` (WIRE.md §1.9). */
  readonly onEvent: Event<EventFrame> = this.eventEmitter.event;
  /** Fires once when the connection ends. */
  readonly onClose: Event<AgencyProxyCloseInfo> = this.closeEmitter.event;
  /** Frames that were ignored (unparseable server frames, late responses). The connection stays open. */
  readonly onWarning: Event<AgencyProxyWarning> = this.warningEmitter.event;

  private constructor(
    private readonly connection: SocketConnection,
    private readonly options: AgencyProxyClientOptions,
  ) {
    this.tap = options.frameTap ?? noFrameTap;
    this.nextId = options.firstRequestId ?? 1;
    connection.onData((chunk) => this.handleResults(this.decoder.push(chunk)));
    connection.onClose((info) => {
      this.handleResults(this.decoder.end());
      this.finish({
        reason: info.error !== undefined ? `connection error: ${info.error.message}` : 'the daemon closed the connection',
        byClient: false,
      });
    });
  }

  /** Connects to `socketPath` and performs hello. Rejects with AgencyProxyError (or SocketConnectError). */
  static async connect(options: AgencyProxyClientOptions): Promise<AgencyProxyClient> {
    const connection = await SocketConnection.connect(options.socketPath, { timeoutMs: options.connectTimeoutMs });
    const client = new AgencyProxyClient(connection, options);
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
    return this.closeInfo === undefined;
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
    if (this.closeInfo === undefined) {
      this.connection.end(encodeCloseFrame());
      this.finish({ reason: 'closed by the client', byClient: true });
    }
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

  private request<T extends ResponseFrame['type']>(
    message: ClientMessage,
    expect: T,
    timeoutMs = this.options.requestTimeoutMs ?? 15_000,
  ): Promise<ResponseOf<T>> {
    if (this.closeInfo !== undefined) {
      return Promise.reject(new AgencyProxyError('connection_closed',
        `cannot send ${message.type}: connection closed (${this.closeInfo.reason})`, false, message.type, true));
    }
    const requestId = this.allocateId();
    let frame: ReturnType<typeof buildClientFrame>;
    let bytes: Buffer;
    try {
      frame = buildClientFrame(requestId, message);
      bytes = encodeJsonFrame(frame);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const code = error instanceof RangeError && detail.includes('exceeds') ? 'frame_too_large' : 'invalid_request';
      return Promise.reject(new AgencyProxyError(code, `cannot send ${message.type}: ${detail}`, false, message.type));
    }
    return new Promise<ResponseOf<T>>((resolve, reject) => {
      const onTimeout = (): void => reject(new AgencyProxyError('timeout',
        `AgencyProxy did not answer ${message.type} (request ${requestId}) within ${timeoutMs} ms`, false, message.type));
      this.pending.add(requestId, {
        type: message.type,
        reject,
        resolve: (response) => {
          if (response.type === expect) {
            resolve(response as ResponseOf<T>);
          } else if (response.type === 'error') {
            reject(new AgencyProxyError(response.code, response.message, true, message.type));
          } else {
            const got = response.type === 'unknown' ? `${response.rawType}${response.issue ? ` (${response.issue})` : ''}` : response.type;
            reject(new AgencyProxyError('unexpected_response',
              `AgencyProxy answered ${message.type} with "${got}" instead of "${expect}"`, false, message.type));
          }
        },
      }, timeoutMs, onTimeout);
      this.tap('out', frame);
      this.connection.write(bytes);
    });
  }

  private allocateId(): number {
    let id = this.nextId;
    if (id <= 0 || id > Number.MAX_SAFE_INTEGER) {
      id = 1; // never 0, never above 2^53 − 1
    }
    this.nextId = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }

  private handleResults(results: readonly DecodeResult[]): void {
    for (const result of results) {
      if (this.closeInfo !== undefined) {
        return;
      }
      if (result.type === 'message') {
        this.tap('in', result.value);
        this.dispatch(result.value);
      } else if (result.type === 'close') {
        const detail = result.code !== undefined ? ` (code ${result.code}${result.reason ? `: ${result.reason}` : ''})` : '';
        this.connection.end();
        this.finish({ reason: `the daemon sent Close${detail}`, byClient: false });
      } else {
        const error = new AgencyProxyError(result.code, `AgencyProxy sent a bad frame: ${result.message}`, false);
        this.connection.destroy();
        this.finish({ reason: `${error.message}; connection closed`, byClient: false, error });
      }
    }
  }

  private dispatch(value: unknown): void {
    const parsed = parseServerFrame(value);
    if (!parsed.ok) {
      this.warningEmitter.fire({ message: `ignored a server frame: ${parsed.error}`, frame: value });
      return;
    }
    const frame = parsed.frame;
    if (frame.kind === 'event') {
      this.eventEmitter.fire(frame);
      return;
    }
    const pending = this.pending.take(frame.request_id);
    if (pending === undefined) {
      this.warningEmitter.fire({ message: `dropped a response to unknown or timed-out request ${frame.request_id}`, frame: value });
      return;
    }
    pending.resolve(frame);
  }

  private finish(info: AgencyProxyCloseInfo): void {
    if (this.closeInfo !== undefined) {
      return;
    }
    this.closeInfo = info;
    this.pending.rejectAll((pending, id) => new AgencyProxyError('connection_closed',
      `connection closed before AgencyProxy answered ${pending.type} (request ${id}): ${info.reason}`, false, pending.type));
    this.closeEmitter.fire(info);
    this.eventEmitter.dispose();
    this.closeEmitter.dispose();
    this.warningEmitter.dispose();
  }
}
