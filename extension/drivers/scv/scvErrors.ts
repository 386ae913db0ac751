/**
 * Errors the SCV client rejects its promises with. Each says plainly whether the request reached the daemon,
 * because `turn.start` must never be retried blindly (WIRE.md §2.7: no idempotency).
 */
import type { ErrorCode } from '../../protocol/scvTypes';
import type { ClassifiedError, FailureKind } from '../kit/errors';

/** The daemon refused a request with `error{code, message}`. The request was received and not carried out. */
export class ScvRequestError extends Error implements ClassifiedError {
  override readonly name = 'ScvRequestError';
  readonly failure: FailureKind = 'refused';
  constructor(
    readonly code: ErrorCode,
    readonly serverMessage: string,
    readonly requestId: string | undefined,
    readonly fatal: boolean,
  ) {
    super(`SCV daemon refused the request (${code}): ${serverMessage}`);
  }

  get userText(): string {
    return `SCV refused the request (${this.code}): ${this.serverMessage}`;
  }
}

/** Protocol versions differ; there is no negotiation (fatal, the connection is closed). */
export class ScvVersionMismatchError extends Error implements ClassifiedError {
  override readonly name = 'ScvVersionMismatchError';
  /** The daemon answered `error{version_mismatch}` (or spoke a version this client cannot). */
  readonly failure: FailureKind = 'refused';
  readonly code = 'version_mismatch';
  constructor(
    readonly clientVersion: number,
    /** The daemon's protocol version when it could be told, else `undefined`. */
    readonly serverVersion: number | undefined,
    readonly serverMessage: string,
  ) {
    super(
      `SCV protocol version mismatch: this client speaks protocol ${clientVersion}, the daemon speaks ` +
        `${serverVersion !== undefined ? `protocol ${serverVersion}` : 'a different protocol version'}` +
        (serverMessage ? ` (daemon said: "${serverMessage}")` : '') +
        '. Update the extension or the daemon so both speak the same version.',
    );
  }

  /**
   * From a `version_mismatch` error, whose message is free text: the daemon's version is the first integer after
   * "protocol"/"version" (not a dotted release number) that differs from ours.
   */
  static fromServerMessage(clientVersion: number, message: string): ScvVersionMismatchError {
    let serverVersion: number | undefined;
    for (const m of message.matchAll(/(?:protocol|version)\D{0,12}?(\d+)(?![.\d])/gi)) {
      const n = Number(m[1]);
      if (n !== clientVersion) {
        serverVersion = n;
        break;
      }
    }
    return new ScvVersionMismatchError(clientVersion, serverVersion, message);
  }
}

/**
 * The message was never sent (nothing reached the socket): too large, invalid, or the connection was not open.
 * Safe to fix and send again.
 */
export class ScvNotSentError extends Error implements ClassifiedError {
  override readonly name = 'ScvNotSentError';
  readonly failure: FailureKind = 'not_sent';
  readonly code = 'not_sent';
  constructor(message: string) {
    super(message);
  }

  get userText(): string {
    return `Not sent: ${this.message}`;
  }
}

/**
 * Whether the daemon got the message is unknown: the write did not complete in time (or failed part-way), or the
 * connection closed before the answer. The client never retries; for `turn.start` the prompt may or may not run.
 */
export class ScvUnknownOutcomeError extends Error implements ClassifiedError {
  override readonly name = 'ScvUnknownOutcomeError';
  readonly failure: FailureKind = 'outcome_unknown';
  readonly code = 'unknown_outcome';
  constructor(
    readonly requestType: string,
    readonly requestId: string,
    /** `malformed_reply`: the daemon answered, but with a shape this client cannot read. */
    readonly reason: 'write_timeout' | 'write_failed' | 'closed' | 'reply_timeout' | 'malformed_reply',
    detail: string,
  ) {
    super(`${requestType} (request ${requestId}) not confirmed — outcome unknown, not retried: ${detail}`);
  }

  get userText(): string {
    return `${this.message}. Nothing was resent.`;
  }
}
