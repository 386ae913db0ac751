/**
 * What a `StreamConnection` needs to know about how JSON values sit on a byte stream: how one value becomes bytes,
 * and an incremental decoder that turns chunks back into values. Two framings exist, u32-BE length-prefixed
 * (`lengthPrefixedFraming`, AgencyProxy) and NDJSON (`ndjsonFraming`, SCV and hyperhive). A decoder never throws:
 * every problem is a `FramingError` result, which says whether the stream can still be read (`fatal`).
 */

/** A problem found while decoding. `message` is complete text for the log or the user. */
export interface FramingError {
  /**
   * The framing's code. Length-prefixed: `bad_length`, `unexpected_kind`, `invalid_utf8`, `invalid_json`,
   * `truncated`. NDJSON: `too_large`, `invalid_json`, `truncated`. Both: `internal` (a decoder bug).
   */
  readonly code: string;
  readonly message: string;
  /** True when nothing more can be read from the stream (the connection closes); false when decoding resyncs. */
  readonly fatal: boolean;
  /** The size involved: an oversized frame (as far as it was read), or the bytes left unread at EOF. */
  readonly bytes?: number;
  /** The start of a frame that is not JSON, for error messages. */
  readonly text?: string;
}

export type FrameResult =
  /** One JSON value, exactly as parsed. */
  | { readonly kind: 'frame'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: FramingError }
  /** The peer said it is closing (length-prefixed Close frame; `code`/`reason` when it gave them). */
  | { readonly kind: 'close'; readonly code?: number; readonly reason?: string };

/**
 * An incremental decoder: one per connection, fed chunks in arrival order. A reader either decodes a whole chunk at
 * once (`push`) or takes it in (`feed`) and reads its results one at a time (`next`), stopping between two whenever
 * it wants — how `StreamConnection` gives the event loop back during a large read.
 */
export interface FrameDecoder {
  /** `feed`, then every result `next` has. */
  push(chunk: Buffer): FrameResult[];
  /** Takes the chunk in; the work of decoding it is done by `next`. */
  feed(chunk: Buffer): void;
  /** The next result of what was fed, or undefined until more bytes arrive. */
  next(): FrameResult | undefined;
  /** At EOF, after `next` has nothing more: what the bytes still buffered amount to (nothing, a last frame, or a `truncated` error). */
  end(): FrameResult[];
  /** Bytes held for an unfinished frame (length-prefixed: and for frames fed but not read yet). */
  readonly bufferedBytes: number;
  /** Longest JSON accepted, in bytes. */
  readonly maxFrameBytes: number;
  /** The limit may change while reading (SCV announces its own in `session.started`). */
  setMaxFrameBytes(bytes: number): void;
}

export interface Framing {
  /**
   * The bytes of one JSON value. Throws `FrameEncodeError` when the value cannot be framed (nothing is sent then),
   * and nothing else.
   */
  encode(value: unknown): Uint8Array;
  createDecoder(): FrameDecoder;
  /** The bytes that announce a graceful close, if the framing has any (AgencyProxy's Close frame). */
  closeFrame?(): Uint8Array;
}

/** A value that cannot be framed: not JSON-serialisable, or larger than the framing allows. */
export class FrameEncodeError extends Error {
  constructor(
    readonly reason: 'too_large' | 'not_json',
    message: string,
    /** `too_large`: the encoded size and the limit. */
    readonly bytes?: number,
    readonly limit?: number,
  ) {
    super(message);
    this.name = 'FrameEncodeError';
  }
}

/** `JSON.stringify` that reports failure (undefined, BigInt, cycles) as a `FrameEncodeError`. */
export function stringifyFrame(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new FrameEncodeError('not_json', `value is not JSON-serialisable (${error instanceof Error ? error.message : String(error)})`);
  }
  if (json === undefined) {
    throw new FrameEncodeError('not_json', 'value is not JSON-serialisable');
  }
  return json;
}
