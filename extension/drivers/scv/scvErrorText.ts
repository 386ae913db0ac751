/**
 * The user-facing wording of SCV session and queue failures. A client error's own wording lives on its class
 * (scvErrors.ts) and reaches the user through the kit's `toDriverError`; whether the request reached the daemon
 * matters because SCV has no idempotency (WIRE.md §2.7).
 */
import { DriverError } from '../kit/errors';
import type { ScvUnknownOutcomeError } from './scvErrors';

export const SESSION_DROPPED =
  'The connection to SCV dropped; this session has ended. Its transcript is kept. Use "Start New SCV Session Here" to continue.';
export const SESSION_DISCONNECTED = 'Disconnected from SCV; this session has ended. Its transcript is kept.';
export const SESSION_REPLACED = 'A new SCV session was started here; this one has ended. Its transcript is kept.';
export const SESSION_RELOADED = 'The editor restarted, which ended this SCV session (sessions live only as long as their connection). Its transcript is kept.';

export const QUEUE_CONFLICT =
  'The queue changed meanwhile: that prompt was edited or moved since you saw it. The queue now shows its current state; try again.';
export const QUEUE_NOT_FOUND = 'That prompt is no longer in the queue (it started running or was removed). The queue now shows its current state.';
export const CLEAR_NEEDS_IDLE = 'SCV clears only an idle session, and a turn is running. Cancel it or wait until it finishes, then clear.';

/** "the prompt may or may not have been sent": never resent automatically. */
export function unknownPromptOutcome(error: ScvUnknownOutcomeError): DriverError {
  const why = {
    write_timeout: 'the daemon stopped reading and the connection was dropped',
    write_failed: 'the write failed part-way',
    closed: 'the connection closed before SCV answered',
    reply_timeout: 'SCV did not answer in time',
    malformed_reply: 'SCV answered in a form this version cannot read',
  }[error.reason];
  return new DriverError(
    `SCV did not confirm the prompt (${why}): it may or may not have been sent. It was not resent — check the transcript before sending it again.`,
    'unknown_outcome',
  );
}
