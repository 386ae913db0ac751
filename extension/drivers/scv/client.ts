/**
 * ScvClient — one connection to an SCV daemon (protocol 3) over a Unix socket, NDJSON both ways (WIRE.md §2).
 *
 * - Handshake: `initialize` → `initialized`; a `version_mismatch` becomes an `ScvVersionMismatchError` naming both
 *   versions. Then `session.start` → `session.started` → `queue.snapshot`, or `daemon.control` (see `control`).
 * - Reading: lines over `max_server_frame_bytes + 2` (8,388,610 until `session.started`) are dropped without being
 *   buffered and reported on `onError`; every `seq` goes through a per-session `SeqTracker` (gaps → `onGap`).
 * - Writing: lines over 1 MiB are refused before anything is sent. A write that does not complete within
 *   `writeTimeoutMs` is never retried (SCV has no idempotency: a prompt could run twice): the request rejects with
 *   `ScvUnknownOutcomeError` and the connection is dropped, as the reference client does.
 */
import * as net from 'node:net';
import * as path from 'node:path';
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import { SCV_MAX_CLIENT_LINE_BYTES, SCV_MAX_PROMPT_BYTES, SCV_PROTOCOL_VERSION } from '../../protocol/scv';
import type { ScvEventOf, ScvKnownEvent, ScvServerEvent } from '../../protocol/scv';
import * as msg from '../../protocol/scvClientMessages';
import type { ScvClientMessage, SessionStartOptions } from '../../protocol/scvClientMessages';
import type { DaemonCommand, DaemonStatus } from '../../protocol/scvDaemonControl';
import type { Attachment, PeerInfo } from '../../protocol/scvTypes';
import { noFrameTap } from '../../transport/frameTap';
import type { FrameTap } from '../../transport/frameTap';
import { ScvEventReader } from './eventReader';
import { newScvPendingRequests, offerEvent, rejectUnreadable } from './scvWaiters';
import type { ScvWaiter } from './scvWaiters';
import { ScvNotSentError, ScvRequestError, ScvUnknownOutcomeError, ScvVersionMismatchError } from './scvErrors';
import { timedWrite } from './timedWrite';
import { defaultScvSocketPath } from './socketPath';
import type {
  ScvClientOptions,
  ScvClientState,
  ScvCloseInfo,
  ScvErrorInfo,
  ScvGap,
  ScvTurnStartAnswer,
  ScvTurnTerminalEvent,
} from './scvClientTypes';

export class ScvClient {
  private readonly emitEvent = new Emitter<ScvServerEvent>();
  private readonly emitGap = new Emitter<ScvGap>();
  private readonly emitError = new Emitter<ScvErrorInfo>();
  private readonly emitClose = new Emitter<ScvCloseInfo>();
  /** Every parsed server event except `error` (see `onError`), including `unknown` ones (to show raw). */
  readonly onEvent: Event<ScvServerEvent> = this.emitEvent.event;
  readonly onGap: Event<ScvGap> = this.emitGap.event;
  /** Server `error`s not claimed by a waiting request, every fatal one, and problems found while reading. */
  readonly onError: Event<ScvErrorInfo> = this.emitError.event;
  /** Fires once when the connection ends, whatever the cause. */
  readonly onClose: Event<ScvCloseInfo> = this.emitClose.event;

  readonly socketPath: string;
  private readonly tap: FrameTap;
  private readonly writeTimeoutMs: number;
  private readonly replyTimeoutMs: number;
  private readonly reader: ScvEventReader;
  private readonly pending = newScvPendingRequests();
  private socket: net.Socket | undefined;
  private nextId = 1;
  private stateValue: ScvClientState = 'new';
  private sessionIdValue: string | undefined;
  private serverValue: PeerInfo | undefined;

  constructor(private readonly options: ScvClientOptions) {
    this.socketPath = options.socketPath ?? defaultScvSocketPath();
    this.tap = options.frameTap ?? noFrameTap;
    this.writeTimeoutMs = options.writeTimeoutMs ?? 3_000;
    this.replyTimeoutMs = options.replyTimeoutMs ?? 20_000;
    this.reader = new ScvEventReader(this.tap, {
      event: (event) => {
        if (event.type === 'session.started') {
          this.sessionIdValue = event.session_id;
        }
        this.emitEvent.fire(event);
        if (event.type !== 'unknown') {
          offerEvent(this.pending, event);
        }
      },
      serverError: (event) => this.onServerError(event),
      gap: (gap) => this.emitGap.fire(gap),
      clientError: (code, message, raw) => {
        if (code === 'malformed_event') {
          rejectUnreadable(this.pending, raw, (req) =>
            new ScvUnknownOutcomeError(req.type, req.requestId, 'malformed_reply', `its answer could not be read (${message})`),
          );
        }
        this.reportClientError(code, message, raw);
      },
      isOpen: () => !this.isClosed(),
    });
  }

  get state(): ScvClientState {
    return this.stateValue;
  }
  get sessionId(): string | undefined {
    return this.sessionIdValue;
  }
  get server(): PeerInfo | undefined {
    return this.serverValue;
  }
  /** The server line limit in force (reader size). */
  get maxServerLineBytes(): number {
    return this.reader.maxLineBytes;
  }

  /** Connects and performs the handshake. Rejects with `ScvVersionMismatchError` when protocols differ. */
  async connect(): Promise<ScvEventOf<'initialized'>> {
    if (this.stateValue !== 'new') {
      throw new ScvNotSentError(`connect() called on a ${this.stateValue} ScvClient; create a new one`);
    }
    this.stateValue = 'connecting';
    const timeoutMs = this.options.connectTimeoutMs ?? 3_000;
    const deadline = setTimeout(() => {
      this.closeWith({ kind: 'connect_failed', reason: `no handshake with ${this.socketPath} within ${timeoutMs} ms` });
    }, timeoutMs);
    try {
      await this.openSocket();
      const id = this.newRequestId();
      const initialized = await this.request<ScvEventOf<'initialized'>>(
        msg.buildInitialize(id, SCV_PROTOCOL_VERSION, {
          name: this.options.clientName ?? 'agent-switchboard',
          version: this.options.clientVersion,
        }),
        (ev) => (ev.type === 'initialized' && ev.request_id === id ? { value: ev } : undefined),
      );
      if (initialized.protocol_version !== SCV_PROTOCOL_VERSION) {
        const error = new ScvVersionMismatchError(SCV_PROTOCOL_VERSION, initialized.protocol_version, '');
        this.closeWith({ kind: 'fatal', reason: error.message });
        throw error;
      }
      this.serverValue = initialized.server;
      return initialized;
    } finally {
      clearTimeout(deadline);
    }
  }

  /** Starts this connection's one session; resolves after `session.started` and its `queue.snapshot`. */
  async startSession(
    options: SessionStartOptions,
  ): Promise<{ started: ScvEventOf<'session.started'>; snapshot: ScvEventOf<'queue.snapshot'> }> {
    if (!path.isAbsolute(options.cwd)) {
      throw new ScvNotSentError(`session.start needs an absolute cwd, got "${options.cwd}"; not sent`);
    }
    const id = this.newRequestId();
    let started: ScvEventOf<'session.started'> | undefined;
    return this.request(msg.buildSessionStart(id, options), (ev) => {
      if (ev.type === 'session.started' && ev.request_id === id) {
        started = ev;
      } else if (started && ev.type === 'queue.snapshot' && ev.session_id === started.session_id) {
        return { value: { started, snapshot: ev } };
      }
      return undefined;
    });
  }

  /** Runs (or queues) a prompt. Never retried: on `ScvUnknownOutcomeError` the prompt may or may not run. */
  async startTurn(prompt: string, attachments: readonly Attachment[] = []): Promise<ScvTurnStartAnswer> {
    const sessionId = this.requireSession('turn.start');
    const bytes = Buffer.byteLength(prompt, 'utf8');
    if (bytes > SCV_MAX_PROMPT_BYTES) {
      throw new ScvNotSentError(`prompt is ${bytes} bytes; SCV accepts prompts up to ${SCV_MAX_PROMPT_BYTES} bytes — not sent`);
    }
    if (prompt === '' && attachments.length === 0) {
      throw new ScvNotSentError('an empty prompt needs at least one attachment; not sent');
    }
    const id = this.newRequestId();
    return this.request<ScvTurnStartAnswer>(msg.buildTurnStart(id, sessionId, prompt, attachments), (ev) => {
      if (ev.type === 'turn.started' && ev.request_id === id) {
        return { value: { kind: 'started', event: ev } };
      }
      if (ev.type === 'queue.enqueued' && ev.request_id === id) {
        return { value: { kind: 'queued', event: ev } };
      }
      return undefined;
    });
  }

  async updateQueue(queueId: string, revision: number, prompt: string): Promise<ScvEventOf<'queue.updated'>> {
    const sessionId = this.requireSession('queue.update');
    const id = this.newRequestId();
    return this.request(msg.buildQueueUpdate(id, sessionId, queueId, revision, prompt), answer(id, 'queue.updated'));
  }

  /** Moves a queued prompt before `beforeQueueId`, or to the end when `null`. */
  async moveQueue(queueId: string, revision: number, beforeQueueId: string | null): Promise<ScvEventOf<'queue.moved'>> {
    const sessionId = this.requireSession('queue.move');
    const id = this.newRequestId();
    return this.request(msg.buildQueueMove(id, sessionId, queueId, revision, beforeQueueId), answer(id, 'queue.moved'));
  }

  async removeQueue(queueId: string, revision: number): Promise<ScvEventOf<'queue.removed'>> {
    const sessionId = this.requireSession('queue.remove');
    const id = this.newRequestId();
    return this.request(msg.buildQueueRemove(id, sessionId, queueId, revision), answer(id, 'queue.removed'));
  }

  async pause(paused: boolean): Promise<ScvEventOf<'session.paused'>> {
    const sessionId = this.requireSession('session.pause');
    const id = this.newRequestId();
    return this.request(msg.buildSessionPause(id, sessionId, paused), answer(id, 'session.paused'));
  }

  /** Cancels a turn; resolves with its terminal event (normally `turn.cancelled`, which carries the turn's own
   * `request_id`, so it is matched by `turn_id`). */
  async cancelTurn(turnId: string): Promise<ScvTurnTerminalEvent> {
    const sessionId = this.requireSession('turn.cancel');
    const id = this.newRequestId();
    return this.request(msg.buildTurnCancel(id, sessionId, turnId), (ev) =>
      (ev.type === 'turn.cancelled' || ev.type === 'turn.completed' || ev.type === 'turn.failed') && ev.turn_id === turnId
        ? { value: ev }
        : undefined,
    );
  }

  /**
   * Answers an approval. Protocol 3 has no dedicated reply, so this resolves once the line is written; progress
   * shows as `tool.started`/`tool.completed`, and a refusal (`approval_not_found`) arrives on `onError` with this
   * request's id, which is returned.
   */
  async resolveApproval(approvalId: string, approved: boolean): Promise<string> {
    const sessionId = this.requireSession('approval.resolve');
    const id = this.newRequestId();
    await this.send(msg.buildApprovalResolve(id, sessionId, approvalId, approved));
    return id;
  }

  async clearSession(): Promise<ScvEventOf<'session.cleared'>> {
    const sessionId = this.requireSession('session.clear');
    const id = this.newRequestId();
    return this.request(msg.buildSessionClear(id, sessionId), answer(id, 'session.cleared'));
  }

  /** Management (`daemon.control`; socket only, no session needed). Resolves with the daemon's status. */
  async control(command: DaemonCommand): Promise<DaemonStatus> {
    const id = this.newRequestId();
    const event = await this.request(msg.buildDaemonControl(id, command), answer(id, 'daemon.status'));
    return event.status;
  }

  /** Ends the connection (EOF: the daemon cancels the active turn and the session is gone). */
  close(): void {
    this.closeWith({ kind: 'local', reason: 'closed by the client' });
  }

  dispose(): void {
    this.close();
    this.emitEvent.dispose();
    this.emitGap.dispose();
    this.emitError.dispose();
    this.emitClose.dispose();
  }

  // ---- internals ----

  /** Re-reads the state (TypeScript narrows a field across a loop whose body can close the connection). */
  private isClosed(): boolean {
    return this.stateValue === 'closed';
  }

  private newRequestId(): string {
    return String(this.nextId++);
  }

  /** Callers are `async`, so this throw becomes a rejection. */
  private requireSession(type: string): string {
    if (this.sessionIdValue === undefined || this.stateValue !== 'open') {
      throw new ScvNotSentError(`${type} needs an open session; call connect() and startSession() first — not sent`);
    }
    return this.sessionIdValue;
  }

  private openSocket(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(this.socketPath);
      this.socket = socket;
      let connected = false;
      const onConnectError = (error: Error): void => {
        reject(new ScvNotSentError(`cannot connect to the SCV daemon at ${this.socketPath}: ${error.message}`));
        this.closeWith({ kind: 'connect_failed', reason: error.message });
      };
      socket.once('error', onConnectError);
      socket.once('connect', () => {
        connected = true;
        socket.off('error', onConnectError);
        socket.on('error', (error) => this.closeWith({ kind: 'socket_error', reason: error.message }));
        this.stateValue = 'open';
        resolve();
      });
      socket.on('data', (chunk: Buffer) => {
        if (!this.isClosed()) {
          this.reader.push(chunk);
        }
      });
      socket.on('end', () => this.closeWith({ kind: 'eof', reason: 'the daemon closed the connection' }));
      socket.on('close', () => {
        if (!connected) {
          // e.g. the connect deadline destroyed the socket (a no-op if the error handler already rejected)
          reject(new ScvNotSentError(`connection to ${this.socketPath} closed before it was established`));
        }
        this.closeWith({ kind: 'eof', reason: 'the daemon closed the connection' });
      });
    });
  }

  private request<T>(message: ScvClientMessage, accept: (ev: ScvKnownEvent) => { value: T } | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req: ScvWaiter = {
        requestId: message.request_id,
        type: message.type,
        accept,
        resolve: (value) => resolve(value as T),
        reject,
      };
      this.pending.add(req.requestId, req, this.replyTimeoutMs, (timedOut) =>
        timedOut.reject(
          new ScvUnknownOutcomeError(timedOut.type, timedOut.requestId, 'reply_timeout', `no answer within ${this.replyTimeoutMs} ms`),
        ),
      );
      this.send(message).catch((error: unknown) => {
        this.pending.reject(message.request_id, error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** Writes one line. Resolves once it reached the kernel; never retries. */
  private async send(message: ScvClientMessage): Promise<void> {
    const socket = this.socket;
    const open = this.stateValue === 'open' || (this.stateValue === 'connecting' && message.type === 'initialize');
    if (!socket || !open || socket.destroyed) {
      throw new ScvNotSentError(`${message.type} not sent: the connection is ${this.stateValue}`);
    }
    const invalid = msg.validateScvClientMessage(message);
    if (invalid !== undefined) {
      throw new ScvNotSentError(`${message.type} not sent: invalid message (${invalid})`);
    }
    const line = JSON.stringify(message);
    const bytes = Buffer.byteLength(line, 'utf8');
    if (bytes > SCV_MAX_CLIENT_LINE_BYTES) {
      throw new ScvNotSentError(
        `${message.type} not sent: the line is ${bytes} bytes, over the SCV client line limit of ${SCV_MAX_CLIENT_LINE_BYTES} bytes`,
      );
    }
    this.tap('out', message);
    const outcome = await timedWrite(socket, line + '\n', this.writeTimeoutMs);
    if (outcome.kind === 'written') {
      return;
    }
    const error =
      outcome.kind === 'timeout'
        ? new ScvUnknownOutcomeError(
            message.type,
            message.request_id,
            'write_timeout',
            `the write did not complete within ${this.writeTimeoutMs} ms (the daemon is not reading); the connection was dropped`,
          )
        : new ScvUnknownOutcomeError(message.type, message.request_id, 'write_failed', outcome.error.message);
    // Settle this request with the precise reason before closing rejects everything else as 'closed'.
    this.pending.reject(message.request_id, error);
    if (outcome.kind === 'timeout') {
      this.closeWith({ kind: 'write_timeout', reason: error.message });
    }
    throw error;
  }

  private onServerError(event: ScvEventOf<'error'>): void {
    const requestId = event.request_id;
    let claimed = false;
    if (event.code === 'version_mismatch') {
      // Whether or not it names the initialize, it is the answer to the handshake.
      const error = ScvVersionMismatchError.fromServerMessage(SCV_PROTOCOL_VERSION, event.message);
      claimed = this.pending.size > 0;
      this.pending.rejectAll(() => error);
    } else if (requestId !== undefined && this.pending.has(requestId)) {
      claimed = this.pending.reject(requestId, new ScvRequestError(event.code, event.message, requestId, event.fatal));
    }
    if (!claimed || event.fatal) {
      this.emitError.fire({
        source: 'server',
        code: event.code,
        message: event.message,
        fatal: event.fatal,
        ...(requestId !== undefined ? { requestId } : {}),
        raw: event,
      });
    }
    if (event.fatal) {
      this.closeWith({ kind: 'fatal', reason: `${event.code}: ${event.message}` });
    }
  }

  private reportClientError(code: string, message: string, raw?: unknown): void {
    this.emitError.fire({ source: 'client', code, message, fatal: false, ...(raw !== undefined ? { raw } : {}) });
  }

  private closeWith(info: ScvCloseInfo): void {
    if (this.stateValue === 'closed') {
      return;
    }
    // A line cut off by the close is lost (and any event in it): say so before reporting the close.
    const danglingBytes = this.reader.end();
    if (danglingBytes > 0 && info.kind !== 'local') {
      this.reportClientError('truncated_frame', `the connection ended in the middle of a ${danglingBytes}-byte line`);
    }
    this.stateValue = 'closed';
    const socket = this.socket;
    if (socket && !socket.destroyed) {
      if (info.kind === 'local') {
        socket.destroySoon(); // flush what was written, then EOF
      } else {
        socket.destroy();
      }
    }
    this.pending.rejectAll(
      (req) => new ScvUnknownOutcomeError(req.type, req.requestId, 'closed', `the connection closed before the answer (${info.reason})`),
    );
    this.emitClose.fire(info);
  }
}

/** A waiter for the event of `type` that answers request `id`. */
function answer<T extends ScvKnownEvent['type']>(
  id: string,
  type: T,
): (ev: ScvKnownEvent) => { value: Extract<ScvKnownEvent, { type: T }> } | undefined {
  return (ev) =>
    ev.type === type && 'request_id' in ev && ev.request_id === id
      ? { value: ev as Extract<ScvKnownEvent, { type: T }> }
      : undefined;
}
