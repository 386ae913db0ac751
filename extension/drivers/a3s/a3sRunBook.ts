/** The A3S driver's bookkeeping per run (session, cursor, recovery links, poller) and its persisted form. */
import { randomBytes } from 'node:crypto';
import type { A3sMappingState } from './a3sEventMapping';
import { newA3sMappingState } from './a3sEventMapping';
import type { A3sRunExtra } from './a3sRunRecords';
import type { A3sRunPoller } from './runPoller';

export interface A3sRunBook {
  readonly runId: string;
  readonly sessionId: string;
  /** The start/recover request id, kept so the identical command can be resent. */
  readonly requestId?: string;
  /** Last wire sequence durably journaled (`after_event_sequence` to resume from); null = none. */
  cursor: number | null;
  /** The start/recover receipt said `replayed:true`. */
  replayed: boolean;
  /** Non-terminal with no worker after a harness restart (recover offered). */
  stranded: boolean;
  /** Its start/recover is in flight: the harness may not know the run yet, so nothing can be concluded from a page. */
  awaitingReceipt?: boolean;
  readonly recoveredFrom?: string;
  recoveredAs?: string;
  cancelCount: number;
  /** The final state is in the model (all events read). */
  terminal: boolean;
  readonly mapping: A3sMappingState;
  poller?: A3sRunPoller;
  changeSet: 'none' | 'fetching' | 'done';
}

export function newA3sRunId(): string {
  return `sb-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

export function newA3sRunBook(runId: string, sessionId: string, extra: Partial<A3sRunExtra> = {}): A3sRunBook {
  return {
    runId,
    sessionId,
    ...(extra.requestId !== undefined ? { requestId: extra.requestId } : {}),
    cursor: extra.cursor ?? null,
    replayed: extra.replayed ?? false,
    stranded: extra.stranded ?? false,
    ...(extra.recoveredFrom !== undefined ? { recoveredFrom: extra.recoveredFrom } : {}),
    ...(extra.recoveredAs !== undefined ? { recoveredAs: extra.recoveredAs } : {}),
    cancelCount: 0,
    terminal: false,
    mapping: newA3sMappingState(),
    changeSet: 'none',
  };
}

export function a3sRunBookExtra(book: A3sRunBook): A3sRunExtra {
  return {
    sessionId: book.sessionId,
    cursor: book.cursor,
    ...(book.requestId !== undefined ? { requestId: book.requestId } : {}),
    ...(book.replayed ? { replayed: true } : {}),
    ...(book.stranded ? { stranded: true } : {}),
    ...(book.recoveredFrom !== undefined ? { recoveredFrom: book.recoveredFrom } : {}),
    ...(book.recoveredAs !== undefined ? { recoveredAs: book.recoveredAs } : {}),
  };
}
