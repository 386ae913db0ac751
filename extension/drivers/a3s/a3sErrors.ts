/**
 * Typed failures of the A3S driver. Every error carries a `kind` to branch on and a human message ready for the
 * UI; HTTP errors additionally keep the status and the stable `code` (never branch on the server's message).
 */
import type { ChangeSetCheck } from '../../changeSets/changeSetVerification';
import { A3S_ERROR_CODE } from '../../protocol/a3s';
import type { ClassifiedError, FailureKind } from '../kit/errors';

export type A3sErrorKind =
  | 'validation'
  | 'refused_url'
  | 'transport'
  | 'timeout'
  | 'too_large'
  | 'http'
  | 'protocol'
  | 'receipt_mismatch'
  | 'sequence'
  | 'no_change_set'
  | 'change_set_rejected'
  | 'change_set_pending_timeout';

/**
 * Where each kind leaves the request. A transport failure may have happened before or after the harness read the
 * request, and an answer that fails a check (receipt, sequence, change set, size) says nothing reliable about what
 * the harness did, so both are "outcome unknown"; a 422 "no change set" is the harness's final answer.
 */
const FAILURE_OF_KIND: Readonly<Record<A3sErrorKind, FailureKind>> = {
  validation: 'not_sent',
  refused_url: 'not_sent',
  transport: 'outcome_unknown',
  timeout: 'outcome_unknown',
  too_large: 'outcome_unknown',
  http: 'refused',
  protocol: 'outcome_unknown',
  receipt_mismatch: 'outcome_unknown',
  sequence: 'outcome_unknown',
  no_change_set: 'refused',
  change_set_rejected: 'outcome_unknown',
  change_set_pending_timeout: 'outcome_unknown',
};

export class A3sError extends Error implements ClassifiedError {
  constructor(
    readonly kind: A3sErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'A3sError';
  }

  get failure(): FailureKind {
    return FAILURE_OF_KIND[this.kind];
  }
}

/** A field the client was about to send violates a protocol rule; nothing was sent. */
export class A3sValidationError extends A3sError {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super('validation', `invalid ${field}: ${problem}`);
    this.name = 'A3sValidationError';
  }

  get userText(): string {
    return `Nothing was sent: ${this.message}.`;
  }
}

/** The response body exceeded its documented bound; reading stopped at the limit. */
export class A3sTooLargeError extends A3sError {
  constructor(
    readonly path: string,
    readonly limitBytes: number,
  ) {
    super('too_large', `A3S response for ${path} exceeds its ${limitBytes.toLocaleString('en-US')}-byte limit`);
    this.name = 'A3sTooLargeError';
  }
}

/** Human text per stable code; the harness's own message is fixed text and not worth showing first. */
const HUMAN: Readonly<Record<string, string>> = {
  [A3S_ERROR_CODE.harnessClosed]: 'the A3S harness is draining (shutting down); wait for it to be ready again',
  [A3S_ERROR_CODE.sessionCapacity]: 'the A3S harness holds its maximum of 1,024 sessions; free a session first',
  [A3S_ERROR_CODE.invalidJson]: 'the A3S harness rejected the request document as malformed (client bug)',
  [A3S_ERROR_CODE.unsupportedSchema]: 'the A3S harness does not support this schema version',
  [A3S_ERROR_CODE.invalidField]: 'the A3S harness rejected a field value',
  [A3S_ERROR_CODE.identityMismatch]: 'the A3S harness reports an identity mismatch inside the request',
  [A3S_ERROR_CODE.encoding]: 'the A3S harness rejected the request encoding',
  [A3S_ERROR_CODE.sequenceOverflow]: 'the event sequence cannot be represented on the harness',
  [A3S_ERROR_CODE.runNotFound]: 'the A3S harness does not know this run',
  [A3S_ERROR_CODE.sessionNotFound]: 'the A3S harness does not know this session (it may have restarted)',
  [A3S_ERROR_CODE.releaseMismatch]: 'the A3S harness runs a different agent release than the one configured',
  [A3S_ERROR_CODE.releaseProtocolMismatch]: 'the A3S release declares another protocol',
  [A3S_ERROR_CODE.sessionMismatch]: 'the run belongs to another session',
  [A3S_ERROR_CODE.runUnavailable]: 'the run is not active; recover it with a new run id',
  [A3S_ERROR_CODE.changeSetUnavailable]: 'no change set exists for this run',
  [A3S_ERROR_CODE.changeSetPending]: 'the run’s change set is still being captured',
};

/** A non-200 answer, mapped from its status and `{schema, error{code, message}}` body. */
export class A3sHttpError extends A3sError {
  /** 425, 503 and 5xx may succeed later; 4xx otherwise means "fix the request". */
  readonly retryable: boolean;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    /** The stable code, or `http_<status>` when the body was not an A3S error document. */
    readonly code: string,
    readonly serverMessage: string,
    readonly body: unknown,
  ) {
    const human = HUMAN[code] ?? `A3S harness error ${code}`;
    super('http', `${human} (HTTP ${status} ${code} on ${method} ${path})`);
    this.name = 'A3sHttpError';
    this.retryable = status === 425 || status === 503 || status >= 500;
  }
}

export type A3sReceiptField = 'schema' | 'action' | 'request_id' | 'identity' | 'command_digest';

/** A receipt does not match the command it answers (WIRE.md 3.5 advice: a protocol error). */
export class A3sReceiptMismatchError extends A3sError {
  constructor(
    readonly field: A3sReceiptField,
    readonly expected: unknown,
    readonly actual: unknown,
  ) {
    super(
      'receipt_mismatch',
      `A3S receipt ${field} does not match the command: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
    );
    this.name = 'A3sReceiptMismatchError';
  }
}

/** An event page broke the cursor rules (echo, contiguity, ordering). */
export class A3sSequenceError extends A3sError {
  constructor(message: string) {
    super('sequence', `A3S event page rejected: ${message}`);
    this.name = 'A3sSequenceError';
  }
}

/** The A3S-only checks (wire schema, echoed identity, terminal state) and the daemon-independent ones. */
export type A3sChangeSetCheck = 'schema' | 'identity' | 'state' | ChangeSetCheck;

/** A change set failed one verification check and must not be shown or applied. */
export class A3sChangeSetRejectedError extends A3sError {
  constructor(
    readonly check: A3sChangeSetCheck,
    detail: string,
  ) {
    super('change_set_rejected', `A3S change set refused (check ${check}): ${detail}`);
    this.name = 'A3sChangeSetRejectedError';
  }
}

/** 422: final, there is no change set for the run. */
export class A3sNoChangeSetError extends A3sError {
  constructor(readonly reason: string) {
    super('no_change_set', `no change set: ${reason}`);
    this.name = 'A3sNoChangeSetError';
  }
}
