/**
 * The read side of an SCV connection: bytes → NDJSON lines (refusing over-long lines without buffering them) →
 * JSON → tapped frame → parsed `ServerEvent` → per-session `seq` check. Nothing here throws: every problem becomes
 * a report to the sink. The reader starts at 8,388,610 bytes and resizes to `max_server_frame_bytes + 2` when
 * `session.started` arrives (WIRE.md §2.2).
 */
import { SCV_INITIAL_READER_BYTES, parseScvServerEvent } from '../../protocol/scv';
import type { ScvEventOf, ScvServerEvent } from '../../protocol/scv';
import { NdjsonDecoder } from '../../transport/ndjsonDecoder';
import type { FrameTap } from '../../transport/frameTap';
import type { ScvGap } from './scvClientTypes';
import { SeqTracker } from './seqTracker';
import type { SeqObservation } from './seqTracker';

export interface ScvEventReaderSink {
  /** Every parsed event except `error`, after its `seq` was checked. */
  event(event: Exclude<ScvServerEvent, { type: 'error' }>): void;
  serverError(event: ScvEventOf<'error'>): void;
  gap(gap: ScvGap): void;
  /** Problems found while reading: `frame_too_large`, `malformed_frame`, `malformed_event`, `seq_out_of_order`,
   * `internal_error`. */
  clientError(code: string, message: string, raw?: unknown): void;
  /** Checked between lines, so nothing is delivered after the connection closed. */
  isOpen(): boolean;
}

export class ScvEventReader {
  private readonly decoder = new NdjsonDecoder(SCV_INITIAL_READER_BYTES);
  private readonly trackers = new Map<string, SeqTracker>();
  private limit = SCV_INITIAL_READER_BYTES;
  /** The session of this connection, for events that do not name one. */
  private sessionId: string | undefined;

  constructor(
    private readonly tap: FrameTap,
    private readonly sink: ScvEventReaderSink,
  ) {}

  /** The longest server line accepted now. */
  get maxLineBytes(): number {
    return this.limit;
  }

  push(chunk: Buffer): void {
    try {
      for (const result of this.decoder.push(chunk)) {
        if (!this.sink.isOpen()) {
          return;
        }
        if (result.kind === 'oversized') {
          this.sink.clientError(
            'frame_too_large',
            `dropped a server line of ${result.bytes} bytes: over the limit of ${this.limit} bytes`,
          );
        } else {
          this.onLine(result.text);
        }
      }
    } catch (error) {
      // Never throw out of a socket handler (a listener bug must not kill the connection silently).
      this.sink.clientError('internal_error', `failed to handle server data: ${String(error)}`);
    }
  }

  /** At the end of the stream: the size of a line left unterminated (0 if none). */
  end(): number {
    return this.decoder.end().danglingBytes;
  }

  private onLine(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.sink.clientError('malformed_frame', `server line is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    this.tap('in', value);
    const parsed = parseScvServerEvent(value);
    if (!parsed.ok) {
      const seq = parsed.seq;
      if (seq !== undefined) {
        this.trackSeq(parsed.session_id, (t) => t.observe(seq)); // it arrived: not a lost event
      }
      this.sink.clientError('malformed_event', parsed.message, value);
      return;
    }
    const event = parsed.event;
    if (event.type === 'error') {
      this.sink.serverError(event);
      return;
    }
    if (event.type === 'unknown') {
      this.trackSeq(event.session_id, (t) => t.observeUnknown(event.seq));
    } else {
      if (event.type === 'session.started') {
        this.sessionId = event.session_id;
        this.trackers.set(event.session_id, new SeqTracker());
        this.limit = event.max_server_frame_bytes + 2;
        this.decoder.setMaxLineBytes(this.limit);
      }
      if ('seq' in event) {
        this.trackSeq(event.session_id, (t) => t.observe(event.seq));
      }
    }
    this.sink.event(event);
  }

  private trackSeq(sessionId: string | undefined, observe: (tracker: SeqTracker) => SeqObservation | undefined): void {
    const sid = sessionId ?? this.sessionId;
    if (sid === undefined) {
      return;
    }
    let tracker = this.trackers.get(sid);
    if (!tracker) {
      tracker = new SeqTracker();
      this.trackers.set(sid, tracker);
    }
    const result = observe(tracker);
    if (result?.kind === 'gap') {
      this.sink.gap({ sessionId: sid, from: result.from, to: result.to, seq: result.seq });
    } else if (result?.kind === 'stale') {
      this.sink.clientError('seq_out_of_order', `session ${sid}: seq ${result.seq} after ${result.last}`);
    }
  }
}
