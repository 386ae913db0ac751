/**
 * One error type for everything an AgencyProxy request can fail with. `code` is either a daemon error code
 * (WIRE.md §1.13: `conflict`, `not_found`, `protocol_violation`, `incompatible_version`, `internal`,
 * `not_implemented`, or an unknown string kept as is) or one of the client-side codes below. Branch on `code`,
 * never on `message` (human text).
 */
import type { ClassifiedError, FailureKind } from '../kit/errors';

export type AgencyProxyClientErrorCode =
  /** No response within the request timeout; a late response is dropped. */
  | 'timeout'
  /** The connection closed before the response arrived (outcome unknown, see WIRE.md §6.1 step 6). */
  | 'connection_closed'
  /** The daemon answered with a response type the request does not expect (or one that failed validation). */
  | 'unexpected_response'
  /** The frame would exceed the 1 MiB JSON limit; nothing was sent. */
  | 'frame_too_large'
  /** Hello did not complete (silent close, bad reply). */
  | 'handshake_failed'
  /** The frame could not be built (bad integer, missing field): a caller bug, nothing was sent. */
  | 'invalid_request';

/** Client-side codes whose request never reached the socket; every other client-side failure came after sending. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['frame_too_large', 'invalid_request', 'handshake_failed']);

export class AgencyProxyError extends Error implements ClassifiedError {
  constructor(
    readonly code: string,
    message: string,
    /** True when the daemon sent an `error` response; false for client-side failures. */
    readonly fromDaemon: boolean,
    /** The client frame type that failed, e.g. `start_run`. */
    readonly requestType?: string,
    /** Set where a client-side code cannot tell on its own that nothing was sent (a request on a closed connection). */
    private readonly neverSent = false,
  ) {
    super(message);
    this.name = 'AgencyProxyError';
  }

  /** A timeout, a close after sending or an unreadable answer leaves the outcome unknown (WIRE.md §6.1 step 6). */
  get failure(): FailureKind {
    if (this.fromDaemon) {
      return 'refused';
    }
    return this.neverSent || NOT_SENT_CODES.has(this.code) ? 'not_sent' : 'outcome_unknown';
  }
}

export function isAgencyProxyError(error: unknown, code?: string): error is AgencyProxyError {
  return error instanceof AgencyProxyError && (code === undefined || error.code === code);
}
