/**
 * Typed failures of one hive mcp.sock exchange. `code` discriminates for the UI; `outcomeUnknown` says whether
 * the request may have reached the daemon (WIRE.md 4.8: a transport failure leaves the outcome unknown), which
 * matters for non-idempotent sends.
 */
export type HiveErrorCode =
  | 'forbidden'
  | 'privileged'
  | 'daemon'
  | 'timeout'
  | 'connection'
  | 'protocol'
  | 'unexpected'
  | 'invalid_request';

import type { ClassifiedError, FailureKind } from '../kit/errors';

export abstract class HiveError extends Error implements ClassifiedError {
  abstract readonly code: HiveErrorCode;
  /** True when the request may have been executed although no reply was read. */
  readonly outcomeUnknown: boolean = false;

  constructor(
    message: string,
    readonly socketPath: string,
    readonly cmd: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /**
   * The daemon's `err` answers are refusals; refusals this client makes itself (forbidden, privileged on an agent
   * socket, invalid) never send; a transport failure is unknown once the request was written.
   */
  get failure(): FailureKind {
    switch (this.code) {
      case 'daemon':
        return 'refused';
      case 'privileged':
        return this instanceof HivePrivilegedError && this.clientSide ? 'not_sent' : 'refused';
      case 'forbidden':
      case 'invalid_request':
        return 'not_sent';
      case 'protocol':
      case 'unexpected':
        // The daemon read the request and answered with something this client cannot use.
        return 'outcome_unknown';
      default:
        return this.outcomeUnknown ? 'outcome_unknown' : 'not_sent';
    }
  }
}

/**
 * The request belongs to the agent's own harness (`recv`, `ack_turn`, ...): sending it would steal or re-order
 * the agent's messages. Thrown before any connection is made.
 */
export class HiveForbiddenRequestError extends HiveError {
  readonly code = 'forbidden';
  constructor(socketPath: string, cmd: string) {
    super(`refusing '${cmd}' on ${socketPath}: it belongs to the agent's own harness (would consume its inbox)`, socketPath, cmd);
  }
}

/**
 * A privileged request on an agent's socket: refused client-side (`clientSide`, nothing sent) or rejected by the
 * daemon with `err` "privileged variant..." (`daemonMessage`).
 */
export class HivePrivilegedError extends HiveError {
  readonly code = 'privileged';
  constructor(
    socketPath: string,
    cmd: string,
    readonly clientSide: boolean,
    readonly daemonMessage?: string,
  ) {
    super(
      clientSide
        ? `refusing privileged '${cmd}' on agent socket ${socketPath}: only the manager socket accepts it`
        : `'${cmd}' is privileged and ${socketPath} is not the manager socket: ${daemonMessage ?? ''}`,
      socketPath,
      cmd,
    );
  }
}

/** The daemon answered `{"kind":"err","message":...}`. */
export class HiveDaemonError extends HiveError {
  readonly code = 'daemon';
  constructor(
    socketPath: string,
    cmd: string,
    readonly daemonMessage: string,
  ) {
    super(`hive '${cmd}' failed: ${daemonMessage}`, socketPath, cmd);
  }
}

export class HiveTimeoutError extends HiveError {
  readonly code = 'timeout';
  override readonly outcomeUnknown: boolean;
  constructor(socketPath: string, cmd: string, readonly timeoutMs: number, written: boolean) {
    super(`no response from ${socketPath} within ${formatSeconds(timeoutMs)}`, socketPath, cmd);
    this.outcomeUnknown = written;
  }
}

/** Connect failed (no daemon, permissions) or the connection closed before a full response line. */
export class HiveConnectionError extends HiveError {
  readonly code = 'connection';
  override readonly outcomeUnknown: boolean;
  constructor(socketPath: string, cmd: string, detail: string, written: boolean, readonly errno?: string) {
    super(`hive socket ${socketPath} ('${cmd}'): ${detail}`, socketPath, cmd);
    this.outcomeUnknown = written;
  }
}

/** The response line is not JSON or is over the size limit. The request was delivered. */
export class HiveProtocolError extends HiveError {
  readonly code = 'protocol';
  override readonly outcomeUnknown = true;
  constructor(socketPath: string, cmd: string, detail: string, readonly rawText?: string) {
    super(`hive socket ${socketPath} ('${cmd}'): ${detail}`, socketPath, cmd);
  }
}

/**
 * A well-formed response of an unknown `kind`, a malformed known one, or a known one that does not answer this
 * request. `raw` is the JSON value, for display.
 */
export class HiveUnexpectedResponseError extends HiveError {
  readonly code = 'unexpected';
  constructor(
    socketPath: string,
    cmd: string,
    readonly expected: string,
    readonly raw: unknown,
    detail: string,
  ) {
    super(`hive '${cmd}' on ${socketPath}: expected '${expected}', ${detail}`, socketPath, cmd);
  }
}

/** The request failed the wire schema (e.g. a non-integer id); nothing was sent. */
export class HiveInvalidRequestError extends HiveError {
  readonly code = 'invalid_request';
  constructor(socketPath: string, cmd: string, detail: string) {
    super(`invalid hive '${cmd}' request: ${detail}`, socketPath, cmd);
  }
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
