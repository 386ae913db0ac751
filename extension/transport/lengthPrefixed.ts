/**
 * AgencyProxy framing (WIRE.md §1.2): `u32 BE length | u8 kind | payload`, where `length` counts the kind byte plus
 * the payload. Every protocol message is one Text frame holding one UTF-8 JSON object.
 *
 * The decoder keeps unread input as a list of chunks (byteChunks.ts) and copies only the bytes of one frame (and
 * only when that frame straddles chunks). A bad length is refused as soon as the 4 length bytes are known, before any body is buffered.
 * After an error or a Close frame the decoder is finished and ignores further input.
 *
 * Ping and Pong are asymmetric in AgencyProxy: the daemon closes a connection on any non-Text frame, Ping included,
 * but it may send them itself. So a client decoder is built with `ignorePingPong` (they are skipped, counted, and
 * never answered: an answering Pong would close the connection), while the daemon side keeps the strict default.
 */

import { ByteChunks } from './byteChunks';

export const FrameKind = { text: 0, binary: 1, ping: 2, pong: 3, close: 4 } as const;
export type FrameKindName = keyof typeof FrameKind;

/** 1 MiB of JSON plus the kind byte. */
export const MAX_FRAME_LENGTH = 1_048_577;
export const MAX_JSON_BYTES = MAX_FRAME_LENGTH - 1;

export type FrameErrorCode = 'bad_length' | 'unexpected_kind' | 'invalid_utf8' | 'invalid_json' | 'truncated';

export type DecodeResult =
  /**
   * One Text frame: the parsed JSON value and its source text. `kind: 'frame'` makes it a `FrameResult` as it is
   * (framing.ts), so the connection's read path hands it on without building a copy per frame.
   */
  | { readonly type: 'message'; readonly kind: 'frame'; readonly value: unknown; readonly text: string }
  /** The peer sent a Close frame (payload empty, or u16 BE code + UTF-8 reason). */
  | { readonly type: 'close'; readonly code?: number; readonly reason?: string }
  /** The stream is unusable; `message` is meant for the user/log. */
  | { readonly type: 'error'; readonly code: FrameErrorCode; readonly message: string };

const KIND_NAMES = ['text', 'binary', 'ping', 'pong', 'close'];

/** Frames `payload` with the given kind. Throws RangeError when the frame would exceed the limit. */
export function encodeFrame(kind: number, payload: Uint8Array = new Uint8Array(0)): Buffer {
  const length = payload.length + 1;
  if (length > MAX_FRAME_LENGTH) {
    throw new RangeError(`frame of ${length} bytes exceeds the ${MAX_FRAME_LENGTH}-byte limit`);
  }
  const out = Buffer.allocUnsafe(4 + length);
  out.writeUInt32BE(length, 0);
  out[4] = kind;
  out.set(payload, 5);
  return out;
}

/** Serialises `value` as JSON in one Text frame. Throws RangeError when the JSON is over 1 MiB. */
export function encodeJsonFrame(value: unknown): Buffer {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new TypeError('value is not JSON-serialisable');
  }
  return encodeFrame(FrameKind.text, Buffer.from(json, 'utf8'));
}

/** A Close frame; with a code its payload is u16 BE code + UTF-8 reason. */
export function encodeCloseFrame(code?: number, reason = ''): Buffer {
  if (code === undefined) {
    return encodeFrame(FrameKind.close);
  }
  const reasonBytes = Buffer.from(reason, 'utf8');
  const payload = Buffer.allocUnsafe(2 + reasonBytes.length);
  payload.writeUInt16BE(code & 0xffff, 0);
  payload.set(reasonBytes, 2);
  return encodeFrame(FrameKind.close, payload);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface LengthPrefixedDecoderOptions {
  /** Skip Ping and Pong frames instead of failing the stream (the client side of WIRE.md §1.2). */
  readonly ignorePingPong?: boolean;
  /** Longest frame accepted (kind byte + payload); default and maximum `MAX_FRAME_LENGTH`. */
  readonly maxFrameLength?: number;
}

export class LengthPrefixedDecoder {
  private readonly bytes = new ByteChunks();
  private finished = false;
  private skipped = 0;
  private maxLength: number;

  constructor(private readonly options: LengthPrefixedDecoderOptions = {}) {
    this.maxLength = Math.min(options.maxFrameLength ?? MAX_FRAME_LENGTH, MAX_FRAME_LENGTH);
  }

  /** Longest frame accepted now (kind byte + payload). */
  get maxFrameLength(): number {
    return this.maxLength;
  }

  /** Lowers (or restores) the limit; it never exceeds the protocol's `MAX_FRAME_LENGTH`. */
  setMaxFrameLength(length: number): void {
    this.maxLength = Math.min(length, MAX_FRAME_LENGTH);
  }

  /** Ping/Pong frames skipped so far (with `ignorePingPong`). */
  get skippedControlFrames(): number {
    return this.skipped;
  }

  /** Bytes held: an unfinished frame, and the frames fed but not read yet (`next`). */
  get bufferedBytes(): number {
    return this.bytes.length;
  }

  /** True after an error or Close frame: further input is ignored. */
  get isFinished(): boolean {
    return this.finished;
  }

  /** Decodes every frame `chunk` completes (`feed`, then `next` until it has nothing more). */
  push(chunk: Uint8Array): DecodeResult[] {
    this.feed(chunk);
    const out: DecodeResult[] = [];
    for (let result = this.next(); result !== undefined; result = this.next()) {
      out.push(result);
    }
    return out;
  }

  /**
   * Takes `chunk` in without decoding anything: `next` reads the frames it completes, one at a time, so a reader
   * can stop between two frames (and give the event loop back) whatever one socket read held.
   */
  feed(chunk: Uint8Array): void {
    if (this.finished || chunk.length === 0) {
      return;
    }
    this.bytes.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  }

  /** The next frame of what was fed (skipped Ping and Pong aside), or undefined until more bytes arrive. */
  next(): DecodeResult | undefined {
    while (!this.finished && this.bytes.length >= 4) {
      const length = this.bytes.peekUInt32();
      if (length < 1 || length > this.maxLength) {
        return this.fail('bad_length', length < 1
          ? `frame length ${length} is invalid (a frame holds at least the kind byte)`
          : `frame length ${length} exceeds the ${this.maxLength}-byte limit`);
      }
      if (this.bytes.length < 4 + length) {
        return undefined;
      }
      const head = this.bytes.head;
      const start = this.bytes.headOffset;
      let result: DecodeResult | undefined;
      if (head.length - start >= 4 + length) {
        // The common case, the whole frame inside one read: the kind is read in place and the payload is one view,
        // no copy (Buffer views are not free at 100k+ frames/s; this path makes one per frame instead of three).
        const kind = head[start + 4]!;
        this.bytes.advance(4 + length);
        result = kind === FrameKind.text
          ? this.decodeText(head, start + 5, start + 4 + length)
          : this.deliver(kind, head.subarray(start + 5, start + 4 + length));
      } else {
        this.bytes.advance(4);
        const frame = this.bytes.take(length);
        result = this.deliver(frame[0]!, frame.subarray(1));
      }
      if (result !== undefined) {
        return result;
      }
    }
    return undefined;
  }

  /** Call at EOF. A clean end (frame boundary) returns nothing; a partial frame returns a `truncated` error. */
  end(): DecodeResult[] {
    if (this.finished) {
      return [];
    }
    const dangling = this.bytes.length;
    this.finished = true;
    this.release();
    return dangling === 0
      ? []
      : [{ type: 'error', code: 'truncated', message: `connection ended inside a frame (${dangling} bytes unread)` }];
  }

  /** The frame's result; undefined for a Ping or Pong that is skipped. */
  private deliver(kind: number, payload: Buffer): DecodeResult | undefined {
    if (this.options.ignorePingPong === true && (kind === FrameKind.ping || kind === FrameKind.pong)) {
      this.skipped += 1;
      return undefined;
    }
    return this.decodeFrame(kind, payload);
  }

  private decodeFrame(kind: number, payload: Buffer): DecodeResult {
    if (kind === FrameKind.close) {
      this.finished = true;
      this.release();
      if (payload.length >= 2) {
        const reason = payload.subarray(2).toString('utf8');
        return { type: 'close', code: payload.readUInt16BE(0), reason };
      }
      return { type: 'close' };
    }
    if (kind !== FrameKind.text) {
      const name = KIND_NAMES[kind] ?? `unknown kind ${kind}`;
      return this.fail('unexpected_kind', `unexpected ${name} frame (kind ${kind}); only Text frames carry messages`);
    }
    let text: string;
    try {
      text = utf8.decode(payload);
    } catch {
      return this.fail('invalid_utf8', 'text frame is not valid UTF-8');
    }
    return this.parseText(text);
  }

  /** A Text frame's decoded payload as a message, or the JSON error that ends the stream. */
  private parseText(text: string): DecodeResult {
    try {
      return { type: 'message', kind: 'frame', value: JSON.parse(text) as unknown, text };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return this.fail('invalid_json', `text frame is not valid JSON (${detail})`);
    }
  }

  /**
   * A Text frame's payload, `bytes[start, end)`, read in place. `toString` replaces every invalid UTF-8 sequence
   * with U+FFFD, so only a text holding one (bad input, or a real U+FFFD) is checked again by the strict decoder.
   */
  private decodeText(bytes: Buffer, start: number, end: number): DecodeResult {
    const text = bytes.toString('utf8', start, end);
    if (text.includes('\uFFFD')) {
      return this.decodeFrame(FrameKind.text, bytes.subarray(start, end));
    }
    return this.parseText(text);
  }

  private fail(code: FrameErrorCode, message: string): DecodeResult {
    this.finished = true;
    this.release();
    return { type: 'error', code, message };
  }

  private release(): void {
    this.bytes.clear();
  }
}
