/** The options and outcomes of a `StreamConnection` (streamConnection.ts), which re-exports them. */
import type { FrameTap } from './frameTap';
import type { Framing, FramingError } from './framing';
import type { ReadPacing } from './readPacing';

export interface StreamConnectionOptions {
  readonly framing: Framing;
  /** Receives every JSON value sent (`'out'`) and received (`'in'`). */
  readonly tap?: FrameTap;
  /** How much is delivered per turn of the event loop (defaults: readPacing.ts). */
  readonly pacing?: ReadPacing;
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
