/**
 * The AgencyProxy framing (WIRE.md §1.2) as a `Framing`: one Text frame per JSON value, `u32 BE length | u8 kind |
 * payload`. Every decoding error is fatal (a length-prefixed stream cannot resync), a Close frame is a `close`
 * result, and this side's graceful close sends an empty Close frame.
 */
import { FrameEncodeError, stringifyFrame } from './framing';
import type { FrameDecoder, FrameResult, Framing } from './framing';
import { FrameKind, LengthPrefixedDecoder, MAX_JSON_BYTES, encodeCloseFrame, encodeFrame } from './lengthPrefixed';
import type { DecodeResult } from './lengthPrefixed';

export interface LengthPrefixedFramingOptions {
  /**
   * Skip Ping and Pong frames instead of failing the stream. The client side of WIRE.md §1.2: the daemon may send
   * them, and they must never be answered.
   */
  readonly ignorePingPong?: boolean;
  /** Longest JSON accepted and sent; default and maximum 1 MiB (`MAX_JSON_BYTES`). */
  readonly maxJsonBytes?: number;
}

export function lengthPrefixedFraming(options: LengthPrefixedFramingOptions = {}): Framing {
  const maxJsonBytes = Math.min(options.maxJsonBytes ?? MAX_JSON_BYTES, MAX_JSON_BYTES);
  return {
    encode(value: unknown): Uint8Array {
      const json = Buffer.from(stringifyFrame(value), 'utf8');
      if (json.length > maxJsonBytes) {
        // Same wording as `encodeFrame`'s RangeError, which counts the kind byte too.
        throw new FrameEncodeError('too_large',
          `frame of ${json.length + 1} bytes exceeds the ${maxJsonBytes + 1}-byte limit`, json.length, maxJsonBytes);
      }
      return encodeFrame(FrameKind.text, json);
    },
    createDecoder: () => new LengthPrefixedFrameDecoder(options.ignorePingPong ?? false, maxJsonBytes),
    closeFrame: () => encodeCloseFrame(),
  };
}

class LengthPrefixedFrameDecoder implements FrameDecoder {
  private readonly decoder: LengthPrefixedDecoder;

  constructor(ignorePingPong: boolean, maxJsonBytes: number) {
    this.decoder = new LengthPrefixedDecoder({ ignorePingPong, maxFrameLength: maxJsonBytes + 1 });
  }

  get bufferedBytes(): number {
    return this.decoder.bufferedBytes;
  }

  get maxFrameBytes(): number {
    return this.decoder.maxFrameLength - 1;
  }

  setMaxFrameBytes(bytes: number): void {
    this.decoder.setMaxFrameLength(bytes + 1);
  }

  push(chunk: Buffer): FrameResult[] {
    this.feed(chunk);
    const out: FrameResult[] = [];
    for (let result = this.next(); result !== undefined; result = this.next()) {
      out.push(result);
    }
    return out;
  }

  feed(chunk: Buffer): void {
    this.decoder.feed(chunk);
  }

  next(): FrameResult | undefined {
    const result = this.decoder.next();
    // A message is a FrameResult already (lengthPrefixed.ts): no copy on the path every frame takes.
    return result === undefined || result.type === 'message' ? result : toFrameResult(result);
  }

  end(): FrameResult[] {
    const dangling = this.decoder.bufferedBytes;
    return this.decoder.end().map((result) => toFrameResult(result, dangling));
  }
}

function toFrameResult(result: DecodeResult, dangling?: number): FrameResult {
  switch (result.type) {
    case 'message':
      return result;
    case 'close':
      return { kind: 'close', ...(result.code !== undefined ? { code: result.code, reason: result.reason ?? '' } : {}) };
    default:
      return {
        kind: 'error',
        error: { code: result.code, message: result.message, fatal: true, ...(dangling !== undefined ? { bytes: dangling } : {}) },
      };
  }
}
