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
import {
  SCV_INITIAL_READER_BYTES,
  SCV_MAX_CLIENT_LINE_BYTES,
  SCV_MAX_PROMPT_BYTES,
  SCV_PROTOCOL_VERSION,
  parseScvServerEvent,
} from '../../protocol/scv';
import type { ScvEventOf, ScvKnownEvent, ScvServerEvent } from '../../protocol/scv';
import * as msg from '../../protocol/scvClientMessages';
import type { ScvClientMessage, SessionStartOptions } from '../../protocol/scvClientMessages';
import type { DaemonCommand, DaemonStatus } from '../../protocol/scvDaemonControl';
import type { Attachment, PeerInfo } from '../../protocol/scvTypes';
import { NdjsonDecoder } from '../../transport/ndjsonDecoder';
import { noFrameTap } from '../../transport/frameTap';
import type { FrameTap } from '../../transport/frameTap';
import { PendingRequests } from './pendingRequests';
import type { PendingRequest } from './pendingRequests';
import { ScvNotSentError, ScvRequestError, ScvUnknownOutcomeError, ScvVersionMismatchError } from './scvErrors';
import { SeqTracker } from './seqTracker';
import type { SeqObservation } from './seqTracker';
import { defaultScvSocketPath } from './socketPath';

export interface ScvClientOptions {
  /** Default: `$SCV_HOME/state/server.sock`, else `~/.scv/state/server.sock`. */
  readonly socketPath?: string;
  /** Sent as `client.version` in `initialize`. */
  readonly clientVersion: string;
  /** Sent as `client.name`; default `agent-switchboard`. */
  readonly clientName?: string;
  /** Receives every JSON frame sent (`out`) and received (`in`). */
  readonly frameTap?: FrameTap;
  /** Connect + initialize; default 3,000 ms. */
  readonly connectTimeoutMs?: number;
  /** How long a line may take to reach the kernel before its outcome counts as unknown; default 3,000 ms. */
  readonly writeTimeoutMs?: number;
  /** How long to wait for the answer to a request; default 20,000 ms. */
  readonly replyTimeoutMs?: number;
}

/** An error from the daemon (`source: 'server'`) or found by this client (`source: 'client'`). */
export interface ScvErrorInfo {
  readonly source: 'server' | 'client';
  /** A protocol `ErrorCode` for server errors; for client errors one of `frame_too_large`, `malformed_frame`,
   * `malformed_event`, `seq_out_of_order`, `truncated_frame`. */
  readonly code: string;
  readonly message: string;
  readonly fatal: boolean;
  readonly requestId?: string;
  /** The offending JSON, when there was one. */
  readonly raw?: unknown;
}

/** Events `from`..`to` of session `sessionId` were lost (they will never arrive). */
export interface ScvGap {
  readonly sessionId: string;
  readonly from: number;
  readonly to: number;
  /** The `seq` that revealed the gap. */
  readonly seq: number;
}

export interface ScvCloseInfo {
  readonly kind: 'local' | 'eof' | 'fatal' | 'socket_error' | 'write_timeout' | 'connect_failed';
  readonly reason: string;
}

export type ScvTurnStartAnswer =
  | { readonly kind: 'started'; readonly event: ScvEventOf<'turn.started'> }
  | { readonly kind: 'queued'; readonly event: ScvEventOf<'queue.enqueued'> };

export type ScvTurnTerminalEvent = ScvEventOf<'turn.completed'> | ScvEventOf<'turn.cancelled'> | ScvEventOf<'turn.failed'>;

export type ScvClientState = 'new' | 'connecting' | 'open' | 'closed';

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
  private readonly decoder = new NdjsonDecoder(SCV_INITIAL_READER_BYTES);
  private readonly pending = new PendingRequests();
  private readonly trackers = new Map<string, SeqTracker>();
  private socket: net.Socket | undefined;
  private nextId = 1;
  private stateValue: ScvClientState = 'new';
  private sessionIdValue: string | undefined;
  private serverValue: PeerInfo | undefined;
  private readerLimit = SCV_INITIAL_READER_BYTES;

  constructor(private readonly options: ScvClientOptions) {
    this.socketPath = options.socketPath ?? defaultScvSocketPath();
    this.tap = options.frameTap ?? noFrameTap;
    this.writeTimeoutMs = options.writeTimeoutMs ?? 3_000;
    this.replyTimeoutMs = options.replyTimeoutMs ?? 20_000;
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
    return this.readerLimit;
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
      const onConnectError = (error: Error): void => {
        reject(new ScvNotSentError(`cannot connect to the SCV daemon at ${this.socketPath}: ${error.message}`));
        this.closeWith({ kind: 'connect_failed', reason: error.message });
      };
      socket.once('error', onConnectError);
      socket.once('connect', () => {
        socket.off('error', onConnectError);
        socket.on('error', (error) => this.closeWith({ kind: 'socket_error', reason: error.message }));
        this.stateValue = 'open';
        resolve();
      });
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('end', () => this.onEnd());
      socket.on('close', () => {
        if (this.stateValue === 'connecting') {
          reject(new ScvNotSentError(`connection to ${this.socketPath} closed before the handshake`));
        }
        this.closeWith({ kind: 'eof', reason: 'the daemon closed the connection' });
      });
    });
  }

  private request<T>(message: ScvClientMessage, accept: (ev: ScvKnownEvent) => { value: T } | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req: PendingRequest = {
        requestId: message.request_id,
        type: message.type,
        accept,
        resolve: (value) => resolve(value as T),
        reject,
      };
      this.pending.add(req, this.replyTimeoutMs, (timedOut) =>
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
  private send(message: ScvClientMessage): Promise<void> {
    const socket = this.socket;
    const open = this.stateValue === 'open' || (this.stateValue === 'connecting' && message.type === 'initialize');
    if (!socket || !open || socket.destroyed) {
      return Promise.reject(new ScvNotSentError(`${message.type} not sent: the connection is ${this.stateValue}`));
    }
    const invalid = msg.validateScvClientMessage(message);
    if (invalid !== undefined) {
      return Promise.reject(new ScvNotSentError(`${message.type} not sent: invalid message (${invalid})`));
    }
    const line = JSON.stringify(message);
    const bytes = Buffer.byteLength(line, 'utf8');
    if (bytes > SCV_MAX_CLIENT_LINE_BYTES) {
      return Promise.reject(
        new ScvNotSentError(
          `${message.type} not sent: the line is ${bytes} bytes, over the SCV client line limit of ${SCV_MAX_CLIENT_LINE_BYTES} bytes`,
        ),
      );
    }
    this.tap('out', message);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        const error = new ScvUnknownOutcomeError(
          message.type,
          message.request_id,
          'write_timeout',
          `the write did not complete within ${this.writeTimeoutMs} ms (the daemon is not reading); the connection was dropped`,
        );
        reject(error);
        this.closeWith({ kind: 'write_timeout', reason: error.message });
      }, this.writeTimeoutMs);
      socket.write(line + '\n', (error) => {
        if (settled) {
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (error) {
          reject(new ScvUnknownOutcomeError(message.type, message.request_id, 'write_failed', error.message));
        } else {
          resolve();
        }
      });
    });
  }

  private onData(chunk: Buffer): void {
    if (this.stateValue === 'closed') {
      return;
    }
    try {
      for (const result of this.decoder.push(chunk)) {
        if (this.isClosed()) {
          return;
        }
        if (result.kind === 'oversized') {
          this.reportClientError(
            'frame_too_large',
            `dropped a server line of ${result.bytes} bytes: over the limit of ${this.readerLimit} bytes`,
          );
          continue;
        }
        this.onLine(result.text);
      }
    } catch (error) {
      // Never throw out of a socket handler: report and carry on.
      this.reportClientError('internal_error', `failed to handle server data: ${String(error)}`);
    }
  }

  private onLine(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reportClientError('malformed_frame', `server line is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    this.tap('in', value);
    const parsed = parseScvServerEvent(value);
    if (!parsed.ok) {
      if (parsed.seq !== undefined) {
        this.trackSeq(parsed.session_id, (t) => t.observe(parsed.seq!));
      }
      this.reportClientError('malformed_event', parsed.message, value);
      return;
    }
    const event = parsed.event;
    if (event.type === 'unknown') {
      this.trackSeq(event.session_id, (t) => t.observeUnknown(event.seq));
      this.emitEvent.fire(event);
      return;
    }
    if (event.type === 'error') {
      this.onServerError(event);
      return;
    }
    if (event.type === 'session.started') {
      this.sessionIdValue = event.session_id;
      this.trackers.set(event.session_id, new SeqTracker());
      this.readerLimit = event.max_server_frame_bytes + 2;
      this.decoder.setMaxLineBytes(this.readerLimit);
    }
    if ('seq' in event) {
      this.trackSeq(event.session_id, (t) => t.observe(event.seq));
    }
    this.emitEvent.fire(event);
    this.pending.offer(event);
  }

  private onServerError(event: ScvEventOf<'error'>): void {
    const requestId = event.request_id;
    let claimed = false;
    if (requestId !== undefined && this.pending.has(requestId)) {
      const error =
        event.code === 'version_mismatch'
          ? new ScvVersionMismatchError(SCV_PROTOCOL_VERSION, otherVersion(event.message), event.message)
          : new ScvRequestError(event.code, event.message, requestId, event.fatal);
      claimed = this.pending.reject(requestId, error);
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

  private trackSeq(sessionId: string | undefined, observe: (tracker: SeqTracker) => SeqObservation | undefined): void {
    const sid = sessionId ?? this.sessionIdValue;
    if (sid === undefined) {
      return;
    }
    let tracker = this.trackers.get(sid);
    if (!tracker) {
      tracker = new SeqTracker();
      this.trackers.set(sid, tracker);
    }
    const result = observe(tracker);
    if (result?.kind === 'gap') {
      this.emitGap.fire({ sessionId: sid, from: result.from, to: result.to, seq: result.seq });
    } else if (result?.kind === 'stale') {
      this.reportClientError('seq_out_of_order', `session ${sid}: seq ${result.seq} after ${result.last}`);
    }
  }

  private onEnd(): void {
    const { danglingBytes } = this.decoder.end();
    if (danglingBytes > 0) {
      this.reportClientError('truncated_frame', `the daemon closed the connection in the middle of a ${danglingBytes}-byte line`);
    }
    this.closeWith({ kind: 'eof', reason: 'the daemon closed the connection' });
  }

  private reportClientError(code: string, message: string, raw?: unknown): void {
    this.emitError.fire({ source: 'client', code, message, fatal: false, ...(raw !== undefined ? { raw } : {}) });
  }

  private closeWith(info: ScvCloseInfo): void {
    if (this.stateValue === 'closed') {
      return;
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

/** The daemon's protocol version as its `version_mismatch` message states it: the first integer that is not ours. */
function otherVersion(message: string): number | undefined {
  for (const m of message.matchAll(/\d+/g)) {
    const n = Number(m[0]);
    if (n !== SCV_PROTOCOL_VERSION) {
      return n;
    }
  }
  return undefined;
}
