/**
 * One Unix stream socket carrying JSON frames (AgencyProxy, SCV, hyperhive), with the framing plugged in. It owns
 * what every such client needs and used to write itself:
 * - the frame tap: every value written is tapped `'out'` (just before its bytes go to the socket) and every value
 *   decoded `'in'` (before `onFrame`), exactly as sent or parsed; a throwing tap is ignored;
 * - decoding that never throws out of the socket's data handler: problems are `onFramingError` events, and a fatal
 *   one (or the peer's Close frame) ends the connection;
 * - writes with an optional deadline (a peer that stops reading cannot wedge a request), never retried;
 * - `onClose` exactly once, at the moment the connection stops carrying frames, with its cause. After `end()`,
 *   `destroy()`, a fatal framing error or a Close frame nothing more is delivered;
 * - paced delivery (readPacing.ts): a read is decoded and delivered frame by frame, and after a turn's budget the
 *   rest waits for a later turn of the event loop, in order. While such a backlog waits the socket is paused, so
 *   the peer's writes wait in the kernel instead of piling up here; the peer's EOF is handled after the backlog.
 */
import { Emitter } from '../base/emitter';
import type { Event } from '../base/emitter';
import type { FrameTap } from './frameTap';
import { noFrameTap, tapSafely } from './frameTap';
import type { FrameDecoder, FrameResult, FramingError } from './framing';
import { ReadTurn } from './readPacing';
import type { ReadPacing } from './readPacing';
import { SocketConnection } from './socketConnection';
import type { EncodedFrame, StreamCloseInfo, StreamConnectionOptions, StreamConnectOptions, WriteOutcome } from './streamConnectionTypes';

export type { EncodedFrame, StreamCloseCause, StreamCloseInfo, StreamConnectionOptions, StreamConnectOptions, WriteOutcome } from './streamConnectionTypes';

export class StreamConnection {
  private readonly frameEmitter = new Emitter<unknown>();
  private readonly framingErrorEmitter = new Emitter<FramingError>();
  private readonly closeEmitter = new Emitter<StreamCloseInfo>();
  private readonly readEndEmitter = new Emitter<void>();
  private readonly decoder: FrameDecoder;
  private readonly tap: FrameTap;
  private readonly pacing: ReadPacing;
  private closed = false;
  /** A turn ended with frames left: the next one is scheduled, and the socket is paused until they are through. */
  private backlog = false;
  /**
   * The budget of this turn of the event loop. Every read delivered before the loop turns shares it (several socket
   * reads in one poll phase; a resumed socket's next chunk in the same task); cleared at the loop's next check phase.
   */
  private turn: ReadTurn | undefined;
  /** The socket closed while a backlog waited (its error, if any): handled once the backlog is delivered. */
  private endedBehindBacklog: { readonly error: Error | undefined } | undefined;

  /** Each decoded JSON value, in wire order (already tapped `'in'`). */
  readonly onFrame: Event<unknown> = this.frameEmitter.event;
  /** Framing problems in wire order; a `fatal` one is followed by `onClose`. */
  readonly onFramingError: Event<FramingError> = this.framingErrorEmitter.event;
  /** Fires once, when the connection stops carrying frames, whoever ended it. */
  readonly onClose: Event<StreamCloseInfo> = this.closeEmitter.event;
  /**
   * After the frames of one turn were delivered (`onFrame`, `onFramingError`): everything a socket read held, or as
   * much of it as the turn's budget allowed (the rest follows in later turns). A reader that folds the frames of a
   * read (kit/streamedChunks.ts) flushes here. A read that closed the connection ends with `onClose` instead.
   */
  readonly onReadEnd: Event<void> = this.readEndEmitter.event;

  /** Wraps an already connected socket. */
  constructor(
    private readonly socket: SocketConnection,
    private readonly options: StreamConnectionOptions,
  ) {
    this.decoder = options.framing.createDecoder();
    this.tap = options.tap ?? noFrameTap;
    this.pacing = options.pacing ?? {};
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
    try {
      this.decoder.feed(chunk);
    } catch (error) {
      this.deliver(internalError(error), false);
      return;
    }
    if (!this.backlog) {
      this.deliverTurn();
    }
  }

  /**
   * Delivers what was fed, in order, until the decoder needs more bytes or the turn's budget is spent. Then the
   * read ends (`onReadEnd`); with frames left, the next turn is scheduled and the socket waits for it.
   */
  private deliverTurn(): void {
    this.backlog = false;
    let turn = this.turn;
    if (turn === undefined) {
      const started = (turn = this.turn = new ReadTurn(this.pacing));
      // The budget lasts until the event loop turns (its check phase), not just this callback: libuv hands several
      // reads of one socket to one poll phase, one callback each, and a budget per callback would let them add up
      // to a stall however small each is.
      setImmediate(() => {
        if (this.turn === started) {
          this.turn = undefined;
        }
      });
    }
    for (;;) {
      if (this.closed) {
        return;
      }
      const result = this.decodeNext();
      if (result === undefined) {
        break;
      }
      this.deliver(result, false);
      if (turn.spend() && !this.closed) {
        this.readEndEmitter.fire();
        this.backlog = true;
        this.socket.pause();
        setImmediate(() => this.deliverTurn());
        return;
      }
    }
    if (this.closed) {
      return;
    }
    this.readEndEmitter.fire();
    const ended = this.endedBehindBacklog;
    if (ended !== undefined) {
      this.endedBehindBacklog = undefined;
      this.peerClosed(ended.error);
    } else {
      this.socket.resume();
    }
  }

  /** The socket is gone (the peer's EOF, an error, or our own end/destroy finishing). */
  private peerClosed(error: Error | undefined): void {
    if (this.closed) {
      return;
    }
    if (this.backlog) {
      this.endedBehindBacklog = { error }; // what arrived before the end is delivered first
      return;
    }
    let results: FrameResult[];
    try {
      results = this.decoder.end();
    } catch (caught) {
      results = [internalError(caught)];
    }
    let framingError: FramingError | undefined;
    for (const result of results) {
      framingError = this.deliver(result, true);
      if (framingError !== undefined) {
        break;
      }
    }
    this.close({
      cause: error !== undefined ? 'socket_error' : 'eof',
      ...(error !== undefined ? { error } : {}),
      ...(framingError !== undefined ? { framingError } : {}),
    });
  }

  /** The decoder's next result; a decoder bug becomes a fatal framing error instead of a throw out of a socket handler. */
  private decodeNext(): FrameResult | undefined {
    try {
      return this.decoder.next();
    } catch (error) {
      return internalError(error);
    }
  }

  /** Fires one result unless the connection closed; returns the fatal error met at EOF, if any. */
  private deliver(result: FrameResult, atEof: boolean): FramingError | undefined {
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

function internalError(error: unknown): FrameResult {
  return { kind: 'error', error: { code: 'internal', message: `decoding failed: ${String(error)}`, fatal: true } };
}

function closeDetail(code: number | undefined, reason: string | undefined): Pick<StreamCloseInfo, 'closeCode' | 'closeReason'> {
  return code === undefined ? {} : { closeCode: code, closeReason: reason ?? '' };
}
