/**
 * The request/response layer of one AgencyProxy connection (WIRE.md §1) over a length-prefixed `StreamConnection`
 * (which owns the socket, the framing and the frame tap). Requests are matched to responses by `request_id` in the
 * kit's pending table, with a per-request timeout; a late response is dropped with a warning. Event frames go to
 * `onEvent` in wire order. A bad frame, a Close frame or EOF ends the connection with a reason on `onClose`;
 * pending requests then reject with `connection_closed`.
 */
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import { buildClientFrame, parseServerFrame } from '../../protocol/agencyProxy';
import type { ClientMessage, EventFrame, ResponseFrame } from '../../protocol/agencyProxy';
import { FrameEncodeError } from '../../transport/framing';
import { lengthPrefixedFraming } from '../../transport/lengthPrefixedFraming';
import { StreamConnection } from '../../transport/streamConnection';
import type { EncodedFrame, StreamCloseInfo } from '../../transport/streamConnection';
import { PendingRequests } from '../kit/pendingRequests';
import { AgencyProxyError } from './agencyProxyError';
import type { AgencyProxyClientOptions, AgencyProxyCloseInfo, AgencyProxyWarning } from './agencyProxyClientTypes';

/** The daemon may send Ping/Pong; they carry nothing for us and must never be answered (WIRE.md §1.2). */
const FRAMING = lengthPrefixedFraming({ ignorePingPong: true });

interface Pending {
  readonly type: string;
  readonly resolve: (frame: ResponseFrame) => void;
  readonly reject: (error: Error) => void;
}

export type ResponseOf<T extends ResponseFrame['type']> = Extract<ResponseFrame, { type: T }>;

export class AgencyProxyConnection {
  private readonly eventEmitter = new Emitter<EventFrame>();
  private readonly readEndEmitter = new Emitter<void>();
  private readonly closeEmitter = new Emitter<AgencyProxyCloseInfo>();
  private readonly warningEmitter = new Emitter<AgencyProxyWarning>();
  private readonly pending = new PendingRequests<number, Pending>();
  private nextId: number;
  private closeInfo: AgencyProxyCloseInfo | undefined;

  /** Event frames of attached runs, in wire order. */
  readonly onEvent: Event<EventFrame> = this.eventEmitter.event;
  /**
   * The frames since the last one were a read, or the part of it one turn of the event loop delivers (a large read
   * is delivered over several turns: transport/readPacing.ts); also just before the connection ends. A reader that
   * folds consecutive frames (kit/streamedChunks.ts) flushes here.
   */
  readonly onReadEnd: Event<void> = this.readEndEmitter.event;
  /** Fires once when the connection ends. */
  readonly onClose: Event<AgencyProxyCloseInfo> = this.closeEmitter.event;
  /** Frames that were ignored (unparseable server frames, late responses). The connection stays open. */
  readonly onWarning: Event<AgencyProxyWarning> = this.warningEmitter.event;

  private constructor(
    private readonly stream: StreamConnection,
    private readonly options: AgencyProxyClientOptions,
  ) {
    this.nextId = options.firstRequestId ?? 1;
    stream.onFrame((value) => this.dispatch(value));
    stream.onReadEnd(() => this.readEndEmitter.fire());
    stream.onClose((info) => this.streamClosed(info));
  }

  /** Opens the socket (no hello yet). Rejects with `SocketConnectError`. */
  static async open(options: AgencyProxyClientOptions): Promise<AgencyProxyConnection> {
    const stream = await StreamConnection.connect(options.socketPath, {
      framing: FRAMING,
      ...(options.frameTap !== undefined ? { tap: options.frameTap } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    });
    return new AgencyProxyConnection(stream, options);
  }

  get isOpen(): boolean {
    return this.closeInfo === undefined;
  }

  /** Sends `message` and resolves with the response of type `expect`; an `error` response rejects (refused). */
  request<T extends ResponseFrame['type']>(
    message: ClientMessage,
    expect: T,
    timeoutMs = this.options.requestTimeoutMs ?? 15_000,
  ): Promise<ResponseOf<T>> {
    if (this.closeInfo !== undefined) {
      return Promise.reject(new AgencyProxyError('connection_closed',
        `cannot send ${message.type}: connection closed (${this.closeInfo.reason})`, false, message.type, true));
    }
    const requestId = this.allocateId();
    let frame: EncodedFrame;
    try {
      frame = this.stream.encode(buildClientFrame(requestId, message));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const code = error instanceof FrameEncodeError && error.reason === 'too_large' ? 'frame_too_large' : 'invalid_request';
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
      // A failed write surfaces as the close that follows it; the outcome itself adds nothing here.
      void this.stream.write(frame);
    });
  }

  /** Sends a Close frame and ends the connection; pending requests reject with `connection_closed`. */
  close(): void {
    if (this.closeInfo === undefined) {
      this.stream.end();
      this.finish({ reason: 'closed by the client', byClient: true });
    }
  }

  private allocateId(): number {
    let id = this.nextId;
    if (id <= 0 || id > Number.MAX_SAFE_INTEGER) {
      id = 1; // never 0, never above 2^53 − 1
    }
    this.nextId = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }

  private dispatch(value: unknown): void {
    if (this.closeInfo !== undefined) {
      return;
    }
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

  private streamClosed(info: StreamCloseInfo): void {
    if (info.cause === 'local') {
      return; // close() has said why
    }
    if (info.framingError !== undefined) {
      const error = new AgencyProxyError(info.framingError.code, `AgencyProxy sent a bad frame: ${info.framingError.message}`, false);
      this.finish({ reason: `${error.message}; connection closed`, byClient: false, error });
    } else if (info.cause === 'close_frame') {
      const code = info.closeCode;
      const detail = code !== undefined ? ` (code ${code}${info.closeReason ? `: ${info.closeReason}` : ''})` : '';
      this.finish({ reason: `the daemon sent Close${detail}`, byClient: false });
    } else {
      this.finish({
        reason: info.error !== undefined ? `connection error: ${info.error.message}` : 'the daemon closed the connection',
        byClient: false,
      });
    }
  }

  private finish(info: AgencyProxyCloseInfo): void {
    if (this.closeInfo !== undefined) {
      return;
    }
    // What arrived before the end is folded before anyone hears of the close.
    this.readEndEmitter.fire();
    this.closeInfo = info;
    this.pending.rejectAll((pending, id) => new AgencyProxyError('connection_closed',
      `connection closed before AgencyProxy answered ${pending.type} (request ${id}): ${info.reason}`, false, pending.type));
    this.closeEmitter.fire(info);
    this.eventEmitter.dispose();
    this.readEndEmitter.dispose();
    this.closeEmitter.dispose();
    this.warningEmitter.dispose();
  }
}
