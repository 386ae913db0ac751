/**
 * NDJSON as a `Framing` (SCV WIRE.md §2.2, hyperhive §4.2): one JSON value per `\n`-terminated line, a trailing
 * `\r` stripped, limits counting the JSON bytes only. Lines are split by `NdjsonDecoder`, which never buffers more
 * than the limit. A line that is not JSON is a non-fatal error (the next line is read normally); what an oversized
 * line, a blank line and an unterminated last line mean differs per daemon, hence the options.
 */
import { FrameEncodeError, stringifyFrame } from './framing';
import type { FrameDecoder, FrameResult, Framing, FramingError } from './framing';
import { NdjsonDecoder } from './ndjsonDecoder';
import type { NdjsonResult } from './ndjsonDecoder';

export interface NdjsonFramingOptions {
  /** Longest line accepted, in bytes without the terminator. */
  readonly maxFrameBytes: number;
  /** Longest line sent, without the terminator; unlimited when absent. */
  readonly maxOutgoingBytes?: number;
  /**
   * `skip` (default): the line is dropped as it arrives and reported once it ends, non-fatal (a stream of events
   * goes on). `fail`: fatal as soon as the line is known to be too long (a peer that owes exactly one line).
   */
  readonly oversized?: 'skip' | 'fail';
  /** Ignore empty and whitespace-only lines (keep-alives) instead of reporting them as not JSON. */
  readonly skipBlankLines?: boolean;
  /**
   * At EOF, a last line without `\n` is a `truncated` error (default), or decoded as a complete line (`frame`: a
   * peer that closes right after its one answer).
   */
  readonly unterminatedLastLine?: 'truncated' | 'frame';
}

/** How much of a line that is not JSON an error keeps. */
const TEXT_IN_ERROR = 2048;

const NEWLINE = Buffer.from('\n');

export function ndjsonFraming(options: NdjsonFramingOptions): Framing {
  return {
    encode(value: unknown): Uint8Array {
      const line = stringifyFrame(value);
      const bytes = Buffer.byteLength(line, 'utf8');
      const limit = options.maxOutgoingBytes;
      if (limit !== undefined && bytes > limit) {
        throw new FrameEncodeError('too_large', `line of ${bytes} bytes exceeds the ${limit}-byte limit`, bytes, limit);
      }
      return Buffer.from(`${line}\n`, 'utf8');
    },
    createDecoder: () => new NdjsonFrameDecoder(options),
  };
}

class NdjsonFrameDecoder implements FrameDecoder {
  private readonly lines: NdjsonDecoder;
  private limit: number;
  /** After a fatal error nothing more is decoded. */
  private failed = false;

  constructor(private readonly options: NdjsonFramingOptions) {
    this.limit = options.maxFrameBytes;
    this.lines = new NdjsonDecoder(options.maxFrameBytes);
  }

  get bufferedBytes(): number {
    return this.lines.bufferedBytes;
  }

  get maxFrameBytes(): number {
    return this.limit;
  }

  setMaxFrameBytes(bytes: number): void {
    this.limit = bytes;
    this.lines.setMaxLineBytes(bytes);
  }

  push(chunk: Buffer): FrameResult[] {
    if (this.failed) {
      return [];
    }
    const out = this.convert(this.lines.push(chunk));
    const discarding = this.lines.discardingBytes;
    if (!this.failed && discarding > 0 && this.options.oversized === 'fail') {
      out.push(this.fail({ code: 'too_large', message: `line exceeds the ${this.limit}-byte limit (${discarding} bytes read)`, fatal: true, bytes: discarding }));
    }
    return out;
  }

  end(): FrameResult[] {
    if (this.failed) {
      return [];
    }
    const out = this.options.unterminatedLastLine === 'frame' ? this.convert(this.lines.push(NEWLINE)) : [];
    const { danglingBytes } = this.lines.end();
    if (danglingBytes > 0 && !this.failed) {
      out.push(this.fail({
        code: 'truncated',
        message: `the stream ended in the middle of a ${danglingBytes}-byte line`,
        fatal: true,
        bytes: danglingBytes,
      }));
    }
    this.failed = true;
    return out;
  }

  private convert(results: readonly NdjsonResult[]): FrameResult[] {
    const out: FrameResult[] = [];
    for (const result of results) {
      if (this.failed) {
        break;
      }
      if (result.kind === 'oversized') {
        const fatal = this.options.oversized === 'fail';
        const error: FramingError = { code: 'too_large', message: `line of ${result.bytes} bytes exceeds the ${this.limit}-byte limit`, fatal, bytes: result.bytes };
        out.push(fatal ? this.fail(error) : { kind: 'error', error });
        continue;
      }
      if (this.options.skipBlankLines === true && result.text.trim() === '') {
        continue;
      }
      try {
        out.push({ kind: 'frame', value: JSON.parse(result.text) as unknown });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        out.push({
          kind: 'error',
          error: { code: 'invalid_json', message: `line is not JSON (${detail})`, fatal: false, text: result.text.slice(0, TEXT_IN_ERROR) },
        });
      }
    }
    return out;
  }

  private fail(error: FramingError): FrameResult {
    this.failed = true;
    return { kind: 'error', error };
  }
}
