/**
 * Cursor rules of A3S event pages (WIRE.md 3.6, traps 4–5): sequences are 0-based and contiguous;
 * `after_event_sequence:null` means "from 0"; an empty page echoes the request's cursor (possibly null), which is
 * sent back unchanged; `retention_gap` means the page starts at `first_available_sequence` and the events in
 * between are gone for good.
 */
import { A3S_SCHEMA, A3sEventPageSchema, isA3sTerminalState, sameRunIdentity } from '../../protocol/a3s';
import type { A3sEventPage, A3sEventRecord, A3sRunIdentity } from '../../protocol/a3s';
import { A3sError, A3sSequenceError } from './a3sErrors';

/** Events `[fromSequence, toSequenceExclusive)` were evicted before the client read them. */
export interface A3sRetentionGap {
  readonly fromSequence: number;
  readonly toSequenceExclusive: number;
}

export interface A3sCheckedPage {
  readonly page: A3sEventPage;
  readonly events: readonly A3sEventRecord[];
  /** Send this as `after_event_sequence` next time (may be null: send it back as is). */
  readonly next: number | null;
  readonly gap?: A3sRetentionGap;
  /** `has_more` is false: nothing beyond this page right now. */
  readonly caughtUp: boolean;
  readonly terminal: boolean;
}

/** Parses a 200 page body and checks it against the request; throws {@link A3sSequenceError} on a violation. */
export function checkA3sEventPage(
  body: unknown,
  identity: A3sRunIdentity,
  requestedAfter: number | null,
  limit: number,
): A3sCheckedPage {
  const parsed = A3sEventPageSchema.safeParse(body);
  if (!parsed.success) {
    throw new A3sError('protocol', `A3S event page has an unexpected shape: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const page = parsed.data;
  if (page.schema !== A3S_SCHEMA.eventPage) {
    throw new A3sError('protocol', `A3S event page schema is ${JSON.stringify(page.schema)}, expected ${A3S_SCHEMA.eventPage}`);
  }
  if (!sameRunIdentity(page.identity, identity)) {
    throw new A3sSequenceError('the page identity does not echo the requested run');
  }
  if (page.after_event_sequence !== requestedAfter) {
    throw new A3sSequenceError(`after_event_sequence echoes ${page.after_event_sequence}, requested ${requestedAfter}`);
  }
  const events = page.events;
  if (events.length > limit) {
    throw new A3sSequenceError(`${events.length} events exceed the requested limit ${limit}`);
  }
  const expected = requestedAfter === null ? 0 : requestedAfter + 1;
  let gap: A3sRetentionGap | undefined;
  const first = events[0];
  if (first !== undefined) {
    if (page.retention_gap) {
      if (first.sequence < expected) {
        throw new A3sSequenceError(`retention gap page starts at ${first.sequence}, before the cursor ${expected}`);
      }
      if (first.sequence > expected) {
        gap = { fromSequence: expected, toSequenceExclusive: first.sequence };
      }
    } else if (first.sequence !== expected) {
      throw new A3sSequenceError(`first event is ${first.sequence}, expected ${expected} (no retention gap declared)`);
    }
    events.forEach((record, i) => {
      if (record.sequence !== first.sequence + i) {
        throw new A3sSequenceError(`events are not contiguous: position ${i} holds ${record.sequence}, expected ${first.sequence + i}`);
      }
    });
    const last = events[events.length - 1] as A3sEventRecord;
    if (page.next_after_event_sequence !== last.sequence) {
      throw new A3sSequenceError(`next_after_event_sequence is ${page.next_after_event_sequence}, the last event is ${last.sequence}`);
    }
    if (last.sequence >= page.latest_sequence_exclusive) {
      throw new A3sSequenceError(`event ${last.sequence} is beyond latest_sequence_exclusive ${page.latest_sequence_exclusive}`);
    }
  } else {
    if (page.next_after_event_sequence !== requestedAfter) {
      throw new A3sSequenceError(`an empty page must echo the cursor ${requestedAfter}, got ${page.next_after_event_sequence}`);
    }
    if (page.has_more) {
      throw new A3sSequenceError('an empty page claims has_more');
    }
    if (page.retention_gap) {
      const to = page.first_available_sequence ?? page.latest_sequence_exclusive;
      if (to > expected) {
        gap = { fromSequence: expected, toSequenceExclusive: to };
      }
    }
  }
  return {
    page,
    events,
    next: page.next_after_event_sequence,
    ...(gap ? { gap } : {}),
    caughtUp: !page.has_more,
    terminal: isA3sTerminalState(page.state),
  };
}
