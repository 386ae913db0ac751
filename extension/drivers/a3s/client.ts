/**
 * HTTP client of the A3S Code harness (`a3s.code.agent.v1`, WIRE.md §3). Stateless: every call is one JSON
 * exchange. Commands are validated and digested before sending and every receipt is checked against them; pages
 * are checked against the cursor rules; response sizes are bounded while reading.
 */
import * as http from 'node:http';
import {
  A3S_ERROR_CODE,
  A3S_LIMITS,
  A3sErrorBodySchema,
  A3sHealthSchema,
  buildCancelCommand,
  buildChangeSetRequest,
  buildEventPageRequest,
  buildRecoverCommand,
  buildStartCommand,
  canonicalA3sCommand,
} from '../../protocol/a3s';
import type { A3sCommand, A3sReceipt, A3sRunIdentity } from '../../protocol/a3s';
import { noFrameTap } from '../../transport/frameTap';
import type { FrameTap } from '../../transport/frameTap';
import { HttpExchangeError, httpJsonExchange } from '../../transport/httpExchange';
import type { HttpExchangeRequest, HttpJsonResponse } from '../../transport/httpExchange';
import { A3sError, A3sHttpError, A3sTooLargeError, A3sValidationError } from './a3sErrors';
import { a3sCommandDigest } from './commandDigest';
import { checkA3sEventPage } from './eventPageCheck';
import type { A3sCheckedPage } from './eventPageCheck';
import { parseA3sBaseUrl } from './loopback';
import { checkA3sReceipt } from './receiptCheck';
import { requestBodyProblem, validateA3sCommand, validateRunIdentity } from './validation';

export const A3S_PATHS = {
  commands: '/v1/agent/commands',
  eventsPage: '/v1/agent/events:page',
  changes: '/v1/agent/changes',
} as const;

/** Receipts, health and error bodies are tiny; this only guards against a misbehaving peer. */
const SMALL_RESPONSE_BYTES = 256 * 1024;

export interface A3sClientOptions {
  /** e.g. `http://127.0.0.1:8787`. Must be loopback unless `allowNonLoopback`. */
  readonly baseUrl: string;
  readonly allowNonLoopback?: boolean;
  /** Default `/health/ready`. */
  readonly readinessPath?: string;
  /** Default `/health/live`. */
  readonly livenessPath?: string;
  readonly frameTap?: FrameTap;
  /** Per request, default 30 s. */
  readonly requestTimeoutMs?: number;
}

export type A3sHealthState = 'ready' | 'not_ready' | 'draining' | 'live' | 'unexpected';

export interface A3sHealthResult {
  readonly state: A3sHealthState;
  readonly httpStatus: number;
  /** The body's `status` string, or the error code. */
  readonly detail: string;
}

export interface A3sCommandResult {
  readonly receipt: A3sReceipt;
  /** The harness did not execute the command again (exact replay, or cancel of a finished run). */
  readonly replayed: boolean;
  readonly commandDigest: string;
}

export class A3sClient {
  readonly baseUrl: URL;
  private readonly readinessPath: string;
  private readonly livenessPath: string;
  private readonly tap: FrameTap;
  private readonly timeoutMs: number;
  private readonly allowNonLoopback: boolean;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  constructor(options: A3sClientOptions) {
    this.allowNonLoopback = options.allowNonLoopback ?? false;
    this.baseUrl = parseA3sBaseUrl(options.baseUrl, this.allowNonLoopback);
    this.readinessPath = options.readinessPath ?? '/health/ready';
    this.livenessPath = options.livenessPath ?? '/health/live';
    this.tap = options.frameTap ?? noFrameTap;
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  /** `GET <readiness>`: 200 ready, 503 not_ready, or 503 harness_closed while draining. Throws on transport failure. */
  readiness(signal?: AbortSignal): Promise<A3sHealthResult> {
    return this.health(this.readinessPath, signal);
  }

  /** `GET <liveness>`: 200 live. */
  liveness(signal?: AbortSignal): Promise<A3sHealthResult> {
    return this.health(this.livenessPath, signal);
  }

  start(requestId: string, identity: A3sRunIdentity, prompt: string, signal?: AbortSignal): Promise<A3sCommandResult> {
    return this.send(buildStartCommand(requestId, identity, prompt), signal);
  }

  cancel(requestId: string, identity: A3sRunIdentity, reason: string, signal?: AbortSignal): Promise<A3sCommandResult> {
    return this.send(buildCancelCommand(requestId, identity, reason), signal);
  }

  recover(
    requestId: string,
    identity: A3sRunIdentity,
    checkpointRunId: string,
    signal?: AbortSignal,
  ): Promise<A3sCommandResult> {
    return this.send(buildRecoverCommand(requestId, identity, checkpointRunId), signal);
  }

  /**
   * Sends any command (rebuilt canonically so no extra key can leak) and checks the receipt. To resend a command
   * whose receipt never arrived, send the identical command again: it answers `replayed:true` if it had executed.
   */
  async send(command: A3sCommand, signal?: AbortSignal): Promise<A3sCommandResult> {
    validateA3sCommand(command);
    const canonical = canonicalA3sCommand(command);
    const digest = a3sCommandDigest(canonical);
    const response = await this.post(A3S_PATHS.commands, canonical, SMALL_RESPONSE_BYTES, signal);
    const receipt = checkA3sReceipt(canonical, digest, this.okBody('POST', A3S_PATHS.commands, response));
    return { receipt, replayed: receipt.replayed, commandDigest: digest };
  }

  /**
   * One `events:page` exchange from `afterEventSequence` (the last sequence held, or null for "from 0"), checked
   * against the cursor rules. Follow `has_more` (i.e. `!caughtUp`) by calling again with `next`.
   */
  async eventPage(
    identity: A3sRunIdentity,
    afterEventSequence: number | null,
    limit: number = A3S_LIMITS.maxEventsPerPage,
    signal?: AbortSignal,
  ): Promise<A3sCheckedPage> {
    validateRunIdentity(identity);
    if (!Number.isInteger(limit) || limit < 1 || limit > A3S_LIMITS.maxEventsPerPage) {
      throw new A3sValidationError('limit', `must be an integer 1–${A3S_LIMITS.maxEventsPerPage}`);
    }
    if (afterEventSequence !== null && !(Number.isSafeInteger(afterEventSequence) && afterEventSequence >= 0)) {
      throw new A3sValidationError('after_event_sequence', 'must be null or a non-negative safe integer');
    }
    const body = buildEventPageRequest(identity, afterEventSequence, limit);
    const response = await this.post(A3S_PATHS.eventsPage, body, A3S_LIMITS.pageResponseBytes, signal);
    return checkA3sEventPage(this.okBody('POST', A3S_PATHS.eventsPage, response), identity, afterEventSequence, limit);
  }

  /**
   * One `changes` exchange. Returns the unverified 200 body (verify with `verifyA3sChangeSet`); a 425/422 is an
   * {@link A3sHttpError}. Use `fetchA3sChangeSet` for the retrying, verifying flow.
   */
  async changeSetRaw(identity: A3sRunIdentity, signal?: AbortSignal): Promise<unknown> {
    validateRunIdentity(identity);
    const response = await this.post(
      A3S_PATHS.changes,
      buildChangeSetRequest(identity),
      A3S_LIMITS.changeSetResponseBytes,
      signal,
    );
    return this.okBody('POST', A3S_PATHS.changes, response);
  }

  dispose(): void {
    this.agent.destroy();
  }

  private async health(path: string, signal?: AbortSignal): Promise<A3sHealthResult> {
    const response = await this.exchange({ method: 'GET', path, maxResponseBytes: SMALL_RESPONSE_BYTES }, signal);
    const health = A3sHealthSchema.safeParse(response.json);
    if (health.success) {
      const s = health.data.status;
      const state: A3sHealthState = s === 'ready' || s === 'not_ready' || s === 'live' ? s : 'unexpected';
      return { state: response.status === 200 || state === 'not_ready' ? state : 'unexpected', httpStatus: response.status, detail: s };
    }
    const error = A3sErrorBodySchema.safeParse(response.json);
    if (error.success) {
      const code = error.data.error.code;
      return { state: code === A3S_ERROR_CODE.harnessClosed ? 'draining' : 'unexpected', httpStatus: response.status, detail: code };
    }
    return { state: 'unexpected', httpStatus: response.status, detail: response.parseError ?? 'unrecognised body' };
  }

  private post(path: string, value: unknown, maxResponseBytes: number, signal?: AbortSignal): Promise<HttpJsonResponse> {
    const text = JSON.stringify(value);
    const problem = requestBodyProblem(text);
    if (problem !== undefined) {
      throw new A3sValidationError('request body', problem);
    }
    return this.exchange({ method: 'POST', path, body: { value, text }, maxResponseBytes }, signal);
  }

  private async exchange(request: HttpExchangeRequest, signal?: AbortSignal): Promise<HttpJsonResponse> {
    const options = { tap: this.tap, timeoutMs: this.timeoutMs, agent: this.agent, allowNonLoopback: this.allowNonLoopback };
    try {
      return await httpJsonExchange(this.baseUrl, request, signal !== undefined ? { ...options, signal } : options);
    } catch (error) {
      throw error instanceof HttpExchangeError ? this.a3sErrorOf(request, error) : error;
    }
  }

  /** The transport's failure in the A3S error taxonomy, worded for the user. */
  private a3sErrorOf(request: HttpExchangeRequest, error: HttpExchangeError): A3sError {
    const what = `A3S request ${request.method} ${request.path}`;
    const cause = error.cause instanceof Error ? error.cause : error;
    switch (error.failure) {
      case 'too_large':
        return new A3sTooLargeError(request.path, request.maxResponseBytes);
      case 'timeout':
        return new A3sError('timeout', `${what} timed out after ${this.timeoutMs} ms`);
      case 'aborted':
        return new A3sError('transport', `${what} aborted`);
      case 'refused_host':
        return new A3sError('refused_url', error.message);
      case 'unreachable':
        return new A3sError('transport', `A3S harness unreachable at ${this.baseUrl.host}: ${cause.message}`, { cause });
      case 'response_failed':
        return new A3sError('transport', `A3S response error: ${cause.message}`, { cause });
    }
  }

  /** The body of a 200, or the mapped {@link A3sHttpError} for anything else. */
  private okBody(method: string, path: string, response: HttpJsonResponse): unknown {
    if (response.status !== 200) {
      throw a3sHttpErrorFrom(method, path, response);
    }
    if (response.json === undefined) {
      throw new A3sError('protocol', `A3S ${method} ${path} answered 200 with a non-JSON body (${response.parseError ?? ''})`);
    }
    return response.json;
  }
}

/** Maps a non-200 status plus `{schema, error{code, message}}` to a typed error. */
export function a3sHttpErrorFrom(method: string, path: string, response: HttpJsonResponse): A3sHttpError {
  const parsed = A3sErrorBodySchema.safeParse(response.json);
  if (parsed.success) {
    return new A3sHttpError(method, path, response.status, parsed.data.error.code, parsed.data.error.message, response.json);
  }
  return new A3sHttpError(method, path, response.status, `http_${response.status}`, response.parseError ?? '', response.json);
}
