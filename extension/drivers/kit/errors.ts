/**
 * The one error taxonomy of the drivers. What the user must be told about a failed request is one of three things,
 * whichever daemon it went to:
 * - `not_sent`: the request never left (not connected, invalid, too large, the write failed before any byte). Safe
 *   to fix and send again.
 * - `outcome_unknown`: it was sent but no usable answer came (timeout, connection lost after sending, an answer this
 *   client cannot read). It may or may not have happened, so nothing is ever resent automatically.
 * - `refused`: the daemon answered with an error; `code` is the daemon's code.
 *
 * Per-daemon error classes keep their own hierarchies (their tests and callers branch on them) and join the
 * taxonomy structurally by implementing `ClassifiedError`. `errorText` is the one place that turns any error into
 * user text, so wording lives with the error class and not in copies of "message of" helpers.
 */

export type FailureKind = 'not_sent' | 'outcome_unknown' | 'refused';

const FAILURE_KINDS: ReadonlySet<string> = new Set<FailureKind>(['not_sent', 'outcome_unknown', 'refused']);

/** Implemented by every driver-side error class that describes a failed request. */
export interface ClassifiedError extends Error {
  readonly failure: FailureKind;
  /** `refused`: the daemon's code. Otherwise the client's own code, if the class has one. */
  readonly code?: string;
  /** The complete sentence for the user when it differs from `message` (which stays the technical text). */
  readonly userText?: string;
}

/** An error meant for the user: `message` is complete and actionable; `code` is the daemon's code if any. */
export class DriverError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DriverError';
  }
}

export function isClassified(error: unknown): error is ClassifiedError {
  if (!(error instanceof Error)) {
    return false;
  }
  const failure = (error as { failure?: unknown }).failure;
  return typeof failure === 'string' && FAILURE_KINDS.has(failure);
}

/** Where a failed request stands, or `undefined` for errors outside the taxonomy (bugs, file system, ...). */
export function failureOf(error: unknown): FailureKind | undefined {
  return isClassified(error) ? error.failure : undefined;
}

/** The user text of any error: a classified error's `userText`, else its message, else the thrown value as text. */
export function errorText(error: unknown): string {
  if (isClassified(error) && typeof error.userText === 'string') {
    return error.userText;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `DriverError` a driver method rejects with: a `DriverError` as is, else the error's text with the code of a
 * classified error. Codes of unclassified errors (e.g. Node's `ENOENT`) are not daemon codes and are dropped.
 */
export function toDriverError(error: unknown): DriverError {
  if (error instanceof DriverError) {
    return error;
  }
  return new DriverError(errorText(error), isClassified(error) ? error.code : undefined);
}

/** Base of the kit's own taxonomy errors, for drivers that need no daemon-specific class. */
abstract class KitError extends Error implements ClassifiedError {
  abstract readonly failure: FailureKind;

  constructor(
    message: string,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request never left this client. */
export class NotSentError extends KitError {
  readonly failure = 'not_sent';
}

/** The request was sent and no usable answer came; say it may or may not have happened. */
export class OutcomeUnknownError extends KitError {
  readonly failure = 'outcome_unknown';
  get userText(): string {
    return `${this.message} It may or may not have happened; it was not retried.`;
  }
}

/** The daemon answered with an error; `code` is the daemon's. */
export class RefusedError extends KitError {
  readonly failure = 'refused';
  constructor(message: string, override readonly code: string, options?: { cause?: unknown }) {
    super(message, code, options);
  }
}
