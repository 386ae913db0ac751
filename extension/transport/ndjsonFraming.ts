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

/** A line split from the stream and not read yet, or the fatal error found after the lines of its chunk. */
type Queued = NdjsonResult | { readonly kind: 'fatal'; readonly error: FramingError };

class NdjsonFrameDecoder implements FrameDecoder {
  private readonly lines: NdjsonDecoder;
  private limit: number;
  /** After a fatal error nothing more is decoded. */
  private failed = false;
  /** Lines split by `feed` and not yet parsed by `next` (splitting is cheap; the JSON parse is the work). */
  private queue: Queued[] = [];
  private queueHead = 0;

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
    this.feed(chunk);
    return this.drain();
  }

  feed(chunk: Buffer): void {
    if (this.failed || this.queue.at(-1)?.kind === 'fatal') {
      return;
    }
    this.enqueue(this.lines.push(chunk));
    const discarding = this.lines.discardingBytes;
    if (discarding > 0 && this.options.oversized === 'fail') {
      this.queue.push({ kind: 'fatal', error: { code: 'too_large', message: `line exceeds the ${this.limit}-byte limit (${discarding} bytes read)`, fatal: true, bytes: discarding } });
    }
  }

  next(): FrameResult | undefined {
    while (!this.failed && this.queueHead < this.queue.length) {
      const queued = this.queue[this.queueHead]!;
      this.queueHead += 1;
      if (this.queueHead === this.queue.length) {
        this.queue = [];
        this.queueHead = 0;
      }
      const result = this.convert(queued);
      if (result !== undefined) {
        return result;
      }
    }
    return undefined;
  }

  end(): FrameResult[] {
    if (this.failed) {
      return [];
    }
    const out = this.drain();
    if (this.options.unterminatedLastLine === 'frame' && !this.failed) {
      this.enqueue(this.lines.push(NEWLINE));
      out.push(...this.drain());
    }
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

  private enqueue(results: readonly NdjsonResult[]): void {
    for (const result of results) {
      this.queue.push(result);
    }
  }

  private drain(): FrameResult[] {
    const out: FrameResult[] = [];
    for (let result = this.next(); result !== undefined; result = this.next()) {
      out.push(result);
    }
    return out;
  }

  /** One queued line as a result; undefined for a blank line that is skipped. */
  private convert(queued: Queued): FrameResult | undefined {
    if (queued.kind === 'fatal') {
      return this.fail(queued.error);
    }
    if (queued.kind === 'oversized') {
      const fatal = this.options.oversized === 'fail';
      const error: FramingError = { code: 'too_large', message: `line of ${queued.bytes} bytes exceeds the ${this.limit}-byte limit`, fatal, bytes: queued.bytes };
      return fatal ? this.fail(error) : { kind: 'error', error };
    }
    if (this.options.skipBlankLines === true && queued.text.trim() === '') {
      return undefined;
    }
    try {
      return { kind: 'frame', value: JSON.parse(queued.text) as unknown };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return {
        kind: 'error',
        error: { code: 'invalid_json', message: `line is not JSON (${detail})`, fatal: false, text: queued.text.slice(0, TEXT_IN_ERROR) },
      };
    }
  }

  private fail(error: FramingError): FrameResult {
    this.failed = true;
    this.queue = [];
    this.queueHead = 0;
    return { kind: 'error', error };
  }
}
