/**
 * One Unix stream socket carrying JSON frames (AgencyProxy, SCV, hyperhive), with the framing plugged in. It owns
 * what every such client needs and used to write itself:
 * - the frame tap: every value written is tapped `'out'` (just before its bytes go to the socket) and every value
 *   decoded `'in'` (before `onFrame`), exactly as sent or parsed; a throwing tap is ignored;
 * - decoding that never throws out of the socket's data handler: problems are `onFramingError` events, and a fatal
 *   one (or the peer's Close frame) ends the connection;
 * - writes with an optional deadline (a peer that stops reading cannot wedge a request), never retried;
 * - `onClose` exactly once, at the moment the connection stops carrying frames, with its cause. After `end()`,
 *   `destroy()`, a fatal framing error or a Close frame nothing more is delivered.
 */
import { Emitter } from '../base/emitter';
import type { Event } from '../base/emitter';
import type { FrameTap } from './frameTap';
import { noFrameTap, tapSafely } from './frameTap';
import type { FrameDecoder, FrameResult, Framing, FramingError } from './framing';
import { SocketConnection } from './socketConnection';

export interface StreamConnectionOptions {
  readonly framing: Framing;
  /** Receives every JSON value sent (`'out'`) and received (`'in'`). */
  readonly tap?: FrameTap;
}

export interface StreamConnectOptions extends StreamConnectionOptions {
  /** Give up connecting after this many ms (default 2000): rejects with `SocketConnectError` code `ETIMEDOUT`. */
  readonly connectTimeoutMs?: number;
}

export type StreamCloseCause =
  /** This side called `end()` or `destroy()`. */
  | 'local'
  /** The peer ended the stream (EOF). */
  | 'eof'
  /** The socket failed (`error`). */
  | 'socket_error'
  /** The peer sent the framing's Close frame (`closeCode`/`closeReason`). */
  | 'close_frame'
  /** A fatal framing error (`framingError`): the stream could not be read on. */
  | 'framing_error';

export interface StreamCloseInfo {
  readonly cause: StreamCloseCause;
  /** `socket_error`: the socket's error. */
  readonly error?: Error;
  /**
   * `framing_error`: the error that closed it. With `eof`/`socket_error`: the stream ended inside a frame
   * (`truncated`), already reported on `onFramingError`.
   */
  readonly framingError?: FramingError;
  readonly closeCode?: number;
  readonly closeReason?: string;
}

/** A value encoded by `StreamConnection.encode`, ready for `write`. */
export interface EncodedFrame {
  readonly value: unknown;
  readonly bytes: Uint8Array;
}

export type WriteOutcome =
  | { readonly kind: 'written' }
  /** Still queued when the deadline passed: the peer is not reading. Whether it will arrive is unknown. */
  | { readonly kind: 'timeout' }
  /** The socket failed part-way; some bytes may have arrived. */
  | { readonly kind: 'failed'; readonly error: Error }
  /** The connection was not open: nothing was written (or tapped). */
  | { readonly kind: 'closed' };

export class StreamConnection {
  private readonly frameEmitter = new Emitter<unknown>();
  private readonly framingErrorEmitter = new Emitter<FramingError>();
  private readonly closeEmitter = new Emitter<StreamCloseInfo>();
  private readonly readEndEmitter = new Emitter<void>();
  private readonly decoder: FrameDecoder;
  private readonly tap: FrameTap;
  private closed = false;

  /** Each decoded JSON value, in wire order (already tapped `'in'`). */
  readonly onFrame: Event<unknown> = this.frameEmitter.event;
  /** Framing problems in wire order; a `fatal` one is followed by `onClose`. */
  readonly onFramingError: Event<FramingError> = this.framingErrorEmitter.event;
  /** Fires once, when the connection stops carrying frames, whoever ended it. */
  readonly onClose: Event<StreamCloseInfo> = this.closeEmitter.event;
  /**
   * After everything one socket read held was delivered (`onFrame`, `onFramingError`): a reader that folds the
   * frames of a read (kit/streamedChunks.ts) flushes here. A read that closed the connection ends with `onClose`
   * instead.
   */
  readonly onReadEnd: Event<void> = this.readEndEmitter.event;

  /** Wraps an already connected socket. */
  constructor(
    private readonly socket: SocketConnection,
    private readonly options: StreamConnectionOptions,
  ) {
    this.decoder = options.framing.createDecoder();
    this.tap = options.tap ?? noFrameTap;
    socket.onData((chunk) => this.receive(chunk));
    socket.onClose((info) => this.peerClosed(info.error));
  }

  /** Connects to the Unix socket at `path`. Rejects with `SocketConnectError` (ENOENT, ECONNREFUSED, ETIMEDOUT …). */
  static async connect(path: string, options: StreamConnectOptions): Promise<StreamConnection> {
    const socket = await SocketConnection.connect(path, { timeoutMs: options.connectTimeoutMs });
    return new StreamConnection(socket, options);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Bytes received but not yet a whole frame (what a close now would cut off). */
  get bufferedBytes(): number {
    return this.decoder.bufferedBytes;
  }

  get maxFrameBytes(): number {
    return this.decoder.maxFrameBytes;
  }

  /** Changes the longest frame accepted from now on. */
  setMaxFrameBytes(bytes: number): void {
    this.decoder.setMaxFrameBytes(bytes);
  }

  /** Encodes `value` without sending it. Throws `FrameEncodeError` when it cannot be framed. */
  encode(value: unknown): EncodedFrame {
    return { value, bytes: this.options.framing.encode(value) };
  }

  /**
   * Taps the value `'out'` and queues its bytes. Resolves once they reached the kernel, or with `timeout` when
   * that took longer than `timeoutMs` (the write stays queued: the caller decides whether to drop the connection).
   * Never rejects, never retries.
   */
  write(frame: EncodedFrame, timeoutMs?: number): Promise<WriteOutcome> {
    if (this.closed) {
      return Promise.resolve({ kind: 'closed' });
    }
    tapSafely(this.tap, 'out', frame.value);
    return new Promise<WriteOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: WriteOutcome): void => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(outcome);
        }
      };
      const timer = timeoutMs !== undefined ? setTimeout(() => settle({ kind: 'timeout' }), timeoutMs) : undefined;
      const queued = this.socket.write(frame.bytes, (error) => settle(error ? { kind: 'failed', error } : { kind: 'written' }));
      if (!queued) {
        settle({ kind: 'closed' });
      }
    });
  }

  /**
   * Graceful close: sends the framing's Close frame (if any) after what is queued, then EOF, without waiting for
   * the peer to close its side.
   */
  end(): void {
    if (this.close({ cause: 'local' })) {
      this.socket.destroySoon(this.options.framing.closeFrame?.());
    }
  }

  /** Immediate close; queued writes are dropped. */
  destroy(): void {
    if (this.close({ cause: 'local' })) {
      this.socket.destroy();
    }
  }

  private receive(chunk: Buffer): void {
    if (this.closed) {
      return;
    }
    this.deliver(this.decode(() => this.decoder.push(chunk)), false);
    if (!this.closed) {
      this.readEndEmitter.fire();
    }
  }

  /** The socket is gone (the peer's EOF, an error, or our own end/destroy finishing). */
  private peerClosed(error: Error | undefined): void {
    if (this.closed) {
      return;
    }
    const framingError = this.deliver(this.decode(() => this.decoder.end()), true);
    this.close({
      cause: error !== undefined ? 'socket_error' : 'eof',
      ...(error !== undefined ? { error } : {}),
      ...(framingError !== undefined ? { framingError } : {}),
    });
  }

  /** Runs the decoder; a decoder bug becomes a fatal framing error instead of a throw out of a socket handler. */
  private decode(run: () => FrameResult[]): FrameResult[] {
    try {
      return run();
    } catch (error) {
      return [{ kind: 'error', error: { code: 'internal', message: `decoding failed: ${String(error)}`, fatal: true } }];
    }
  }

  /** Fires the results in order until the connection closes; returns the fatal error met at EOF, if any. */
  private deliver(results: readonly FrameResult[], atEof: boolean): FramingError | undefined {
    for (const result of results) {
      if (this.closed) {
        return undefined;
      }
      if (result.kind === 'frame') {
        tapSafely(this.tap, 'in', result.value);
        this.frameEmitter.fire(result.value);
      } else if (result.kind === 'error') {
        this.framingErrorEmitter.fire(result.error);
        if (result.error.fatal) {
          if (atEof) {
            return result.error;
          }
          if (this.close({ cause: 'framing_error', framingError: result.error })) {
            this.socket.destroy();
          }
        }
      } else if (this.close({ cause: 'close_frame', ...closeDetail(result.code, result.reason) })) {
        // The peer has said its last word; finish our side without answering (WIRE.md §1.2).
        this.socket.end();
      }
    }
    return undefined;
  }

  /** Marks the connection closed and fires `onClose`; false if it already was. */
  private close(info: StreamCloseInfo): boolean {
    if (this.closed) {
      return false;
    }
    this.closed = true;
    this.closeEmitter.fire(info);
    this.frameEmitter.dispose();
    this.framingErrorEmitter.dispose();
    this.closeEmitter.dispose();
    this.readEndEmitter.dispose();
    return true;
  }
}

function closeDetail(code: number | undefined, reason: string | undefined): Pick<StreamCloseInfo, 'closeCode' | 'closeReason'> {
  return code === undefined ? {} : { closeCode: code, closeReason: reason ?? '' };
}
