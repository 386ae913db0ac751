/**
 * The machinery under `ScvClient`: one NDJSON `StreamConnection` (socket, framing, frame tap), the event reader,
 * the kit's pending-request table and the connection state. `ScvClient` builds the protocol's requests on top.
 *
 * - Reading: lines over the reader's limit are dropped without being buffered and reported on `onError`; every
 *   `seq` goes through a per-session `SeqTracker` (gaps → `onGap`).
 * - Writing: lines over 1 MiB are refused before anything is sent. A write that does not complete within
 *   `writeTimeoutMs` is never retried (SCV has no idempotency: a prompt could run twice): the request rejects with
 *   `ScvUnknownOutcomeError` and the connection is dropped, as the reference client does.
 */
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import { SCV_MAX_CLIENT_LINE_BYTES, SCV_PROTOCOL_VERSION } from '../../protocol/scv';
import type { ScvEventOf, ScvKnownEvent, ScvServerEvent } from '../../protocol/scv';
import { validateScvClientMessage } from '../../protocol/scvClientMessages';
import type { ScvClientMessage } from '../../protocol/scvClientMessages';
import { noFrameTap } from '../../transport/frameTap';
import type { FrameTap } from '../../transport/frameTap';
import { FrameEncodeError } from '../../transport/framing';
import { SocketConnectError } from '../../transport/socketConnection';
import { StreamConnection } from '../../transport/streamConnection';
import type { EncodedFrame, StreamCloseInfo } from '../../transport/streamConnection';
import { errorText } from '../kit/errors';
import { ScvEventReader, scvFraming } from './eventReader';
import { ScvNotSentError, ScvRequestError, ScvUnknownOutcomeError, ScvVersionMismatchError } from './scvErrors';
import { newScvPendingRequests, offerEvent, rejectUnreadable } from './scvWaiters';
import type { ScvWaiter } from './scvWaiters';
import type { ScvClientState, ScvCloseInfo, ScvErrorInfo, ScvGap } from './scvClientTypes';

const FRAMING = scvFraming(SCV_MAX_CLIENT_LINE_BYTES);

export interface ScvChannelOptions {
  readonly socketPath: string;
  readonly frameTap?: FrameTap;
  readonly writeTimeoutMs: number;
  readonly replyTimeoutMs: number;
}

export class ScvChannel {
  private readonly emitEvent = new Emitter<ScvServerEvent>();
  private readonly emitGap = new Emitter<ScvGap>();
  private readonly emitError = new Emitter<ScvErrorInfo>();
  private readonly emitClose = new Emitter<ScvCloseInfo>();
  private readonly emitReadEnd = new Emitter<void>();
  readonly onEvent: Event<ScvServerEvent> = this.emitEvent.event;
  readonly onGap: Event<ScvGap> = this.emitGap.event;
  readonly onError: Event<ScvErrorInfo> = this.emitError.event;
  readonly onClose: Event<ScvCloseInfo> = this.emitClose.event;
  /** Everything one socket read held was delivered (a reader folding a read's chunks flushes here). */
  readonly onReadEnd: Event<void> = this.emitReadEnd.event;

  private readonly reader: ScvEventReader;
  private readonly pending = newScvPendingRequests();
  private stream: StreamConnection | undefined;
  private nextId = 1;
  private stateValue: ScvClientState = 'new';
  private sessionIdValue: string | undefined;

  constructor(private readonly options: ScvChannelOptions) {
    this.reader = new ScvEventReader({
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
      lineLimit: (bytes) => this.stream?.setMaxFrameBytes(bytes),
    });
  }

  get state(): ScvClientState {
    return this.stateValue;
  }
  get sessionId(): string | undefined {
    return this.sessionIdValue;
  }
  get maxServerLineBytes(): number {
    return this.reader.maxLineBytes;
  }

  /** Re-reads the state (TypeScript narrows a field across a loop whose body can close the connection). */
  isClosed(): boolean {
    return this.stateValue === 'closed';
  }

  newRequestId(): string {
    return String(this.nextId++);
  }

  /** The open session's id; throws `ScvNotSentError` (a rejection in the async callers) without one. */
  requireSession(type: string): string {
    if (this.sessionIdValue === undefined || this.stateValue !== 'open') {
      throw new ScvNotSentError(`${type} needs an open session; call connect() and startSession() first — not sent`);
    }
    return this.sessionIdValue;
  }

  /** Opens the socket (state `new` → `connecting` → `open`). Rejects with `ScvNotSentError`. */
  async open(timeoutMs: number): Promise<void> {
    this.stateValue = 'connecting';
    let stream: StreamConnection;
    try {
      stream = await StreamConnection.connect(this.options.socketPath, {
        framing: FRAMING,
        tap: this.options.frameTap ?? noFrameTap,
        connectTimeoutMs: timeoutMs,
      });
    } catch (error) {
      if (this.isClosed()) {
        throw this.notEstablished(); // the handshake deadline got there first
      }
      const detail = error instanceof SocketConnectError && error.cause instanceof Error ? error.cause.message : errorText(error);
      this.closeWith({ kind: 'connect_failed', reason: detail });
      throw new ScvNotSentError(`cannot connect to the SCV daemon at ${this.options.socketPath}: ${detail}`);
    }
    if (this.isClosed()) {
      stream.destroy();
      throw this.notEstablished();
    }
    this.stream = stream;
    stream.onFrame((value) => this.reader.frame(value));
    stream.onFramingError((error) => this.reader.framingError(error));
    stream.onReadEnd(() => this.emitReadEnd.fire());
    stream.onClose((info) => this.streamClosed(info));
    this.stateValue = 'open';
  }

  /** Sends `message` and resolves with what `accept` makes of the event that answers it. */
  request<T>(message: ScvClientMessage, accept: (ev: ScvKnownEvent) => { value: T } | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req: ScvWaiter = {
        requestId: message.request_id,
        type: message.type,
        accept,
        resolve: (value) => resolve(value as T),
        reject,
      };
      const replyTimeoutMs = this.options.replyTimeoutMs;
      this.pending.add(req.requestId, req, replyTimeoutMs, (timedOut) =>
        timedOut.reject(
          new ScvUnknownOutcomeError(timedOut.type, timedOut.requestId, 'reply_timeout', `no answer within ${replyTimeoutMs} ms`),
        ),
      );
      this.send(message).catch((error: unknown) => {
        this.pending.reject(message.request_id, error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** Writes one line. Resolves once it reached the kernel; never retries. */
  async send(message: ScvClientMessage): Promise<void> {
    const stream = this.stream;
    const open = this.stateValue === 'open' || (this.stateValue === 'connecting' && message.type === 'initialize');
    if (!stream || !open || !stream.isOpen) {
      throw new ScvNotSentError(`${message.type} not sent: the connection is ${this.stateValue}`);
    }
    const invalid = validateScvClientMessage(message);
    if (invalid !== undefined) {
      throw new ScvNotSentError(`${message.type} not sent: invalid message (${invalid})`);
    }
    let frame: EncodedFrame;
    try {
      frame = stream.encode(message);
    } catch (error) {
      if (error instanceof FrameEncodeError && error.reason === 'too_large') {
        throw new ScvNotSentError(
          `${message.type} not sent: the line is ${error.bytes} bytes, over the SCV client line limit of ${SCV_MAX_CLIENT_LINE_BYTES} bytes`,
        );
      }
      throw new ScvNotSentError(`${message.type} not sent: ${errorText(error)}`);
    }
    const writeTimeoutMs = this.options.writeTimeoutMs;
    const outcome = await stream.write(frame, writeTimeoutMs);
    if (outcome.kind === 'written') {
      return;
    }
    if (outcome.kind === 'closed') {
      throw new ScvNotSentError(`${message.type} not sent: the connection is ${this.stateValue}`);
    }
    const error =
      outcome.kind === 'timeout'
        ? new ScvUnknownOutcomeError(
            message.type,
            message.request_id,
            'write_timeout',
            `the write did not complete within ${writeTimeoutMs} ms (the daemon is not reading); the connection was dropped`,
          )
        : new ScvUnknownOutcomeError(message.type, message.request_id, 'write_failed', outcome.error.message);
    // Settle this request with the precise reason before closing rejects everything else as 'closed'.
    this.pending.reject(message.request_id, error);
    if (outcome.kind === 'timeout') {
      this.closeWith({ kind: 'write_timeout', reason: error.message });
    }
    throw error;
  }

  closeWith(info: ScvCloseInfo): void {
    if (this.stateValue === 'closed') {
      return;
    }
    const stream = this.stream;
    // A line cut off by a close this side decides is lost (and any event in it): say so before reporting the close.
    // (When the daemon ended the stream, the connection has reported it already.)
    const danglingBytes = stream?.isOpen === true ? stream.bufferedBytes : 0;
    if (danglingBytes > 0 && info.kind !== 'local') {
      this.reportClientError('truncated_frame', `the connection ended in the middle of a ${danglingBytes}-byte line`);
    }
    this.stateValue = 'closed';
    if (info.kind === 'local') {
      stream?.end(); // flush what was written, then EOF
    } else {
      stream?.destroy();
    }
    this.pending.rejectAll(
      (req) => new ScvUnknownOutcomeError(req.type, req.requestId, 'closed', `the connection closed before the answer (${info.reason})`),
    );
    this.emitClose.fire(info);
  }

  dispose(): void {
    this.emitEvent.dispose();
    this.emitGap.dispose();
    this.emitError.dispose();
    this.emitClose.dispose();
    this.emitReadEnd.dispose();
  }

  private notEstablished(): ScvNotSentError {
    return new ScvNotSentError(`connection to ${this.options.socketPath} closed before it was established`);
  }

  private streamClosed(info: StreamCloseInfo): void {
    if (info.cause === 'socket_error' && info.error !== undefined) {
      this.closeWith({ kind: 'socket_error', reason: info.error.message });
    } else if (info.cause === 'framing_error' && info.framingError !== undefined) {
      this.closeWith({ kind: 'fatal', reason: info.framingError.message });
    } else if (info.cause !== 'local') {
      this.closeWith({ kind: 'eof', reason: 'the daemon closed the connection' });
    }
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
}
