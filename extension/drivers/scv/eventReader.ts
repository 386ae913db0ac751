/**
 * The read side of an SCV connection above the framing: each JSON frame (already split from NDJSON and tapped by
 * the `StreamConnection`) → parsed `ServerEvent` → per-session `seq` check; framing problems become the SCV
 * client's error codes. Nothing here throws: every problem becomes a report to the sink. The line limit starts at
 * 8,388,610 bytes and becomes `max_server_frame_bytes + 2` when `session.started` arrives (WIRE.md §2.2); the sink
 * applies it to the decoder.
 */
import { SCV_INITIAL_READER_BYTES, parseScvServerEvent } from '../../protocol/scv';
import type { ScvEventOf, ScvServerEvent } from '../../protocol/scv';
import type { Framing, FramingError } from '../../transport/framing';
import { ndjsonFraming } from '../../transport/ndjsonFraming';
import type { ScvGap } from './scvClientTypes';
import { SeqTracker } from './seqTracker';
import type { SeqObservation } from './seqTracker';

export interface ScvEventReaderSink {
  /** Every parsed event except `error`, after its `seq` was checked. */
  event(event: Exclude<ScvServerEvent, { type: 'error' }>): void;
  serverError(event: ScvEventOf<'error'>): void;
  gap(gap: ScvGap): void;
  /** Problems found while reading: `frame_too_large`, `malformed_frame`, `malformed_event`, `seq_out_of_order`,
   * `truncated_frame`, `internal_error`. */
  clientError(code: string, message: string, raw?: unknown): void;
  /** Checked before each frame, so nothing is delivered after the connection closed. */
  isOpen(): boolean;
  /** The server announced its line limit: size the decoder at `bytes` from now on. */
  lineLimit?(bytes: number): void;
}

/** SCV's NDJSON: server lines up to the reader's limit (oversized ones skipped), client lines up to 1 MiB. */
export function scvFraming(maxClientLineBytes: number): Framing {
  return ndjsonFraming({ maxFrameBytes: SCV_INITIAL_READER_BYTES, maxOutgoingBytes: maxClientLineBytes });
}

export class ScvEventReader {
  private readonly trackers = new Map<string, SeqTracker>();
  private limit = SCV_INITIAL_READER_BYTES;
  /** The session of this connection, for events that do not name one. */
  private sessionId: string | undefined;

  constructor(private readonly sink: ScvEventReaderSink) {}

  /** The longest server line accepted now. */
  get maxLineBytes(): number {
    return this.limit;
  }

  /** One decoded server line. */
  frame(value: unknown): void {
    if (!this.sink.isOpen()) {
      return;
    }
    try {
      this.onFrame(value);
    } catch (error) {
      // Never throw out of a socket handler (a listener bug must not kill the connection silently).
      this.sink.clientError('internal_error', `failed to handle server data: ${String(error)}`);
    }
  }

  /** A line the framing could not deliver. */
  framingError(error: FramingError): void {
    if (!this.sink.isOpen()) {
      return;
    }
    switch (error.code) {
      case 'too_large':
        this.sink.clientError('frame_too_large', `dropped a server line of ${error.bytes ?? 0} bytes: over the limit of ${this.limit} bytes`);
        break;
      case 'invalid_json':
        this.sink.clientError('malformed_frame', `server line is not JSON: ${(error.text ?? '').slice(0, 200)}`);
        break;
      case 'truncated':
        this.sink.clientError('truncated_frame', `the connection ended in the middle of a ${error.bytes ?? 0}-byte line`);
        break;
      default:
        this.sink.clientError('internal_error', error.message);
    }
  }

  private onFrame(value: unknown): void {
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
        this.sink.lineLimit?.(this.limit);
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
