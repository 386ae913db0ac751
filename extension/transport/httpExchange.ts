/**
 * One JSON exchange over plain HTTP (A3S). Loopback only unless the caller opts in; one deadline for the whole
 * exchange; the response size bound enforced while reading (the request is destroyed at the limit, so nothing
 * beyond it is buffered); every JSON body sent and received reported to the FrameTap with `{method, path,
 * status}` (`path` is the protocol path, without the base URL's). A body that is not JSON is returned as a
 * `parseError` (and traced as its first 4 KiB of text), not thrown: the caller decides what a status means.
 */
import * as http from 'node:http';
import type { FrameTap } from './frameTap';
import { tapSafely } from './frameTap';
import { isLoopbackHost } from './loopback';

export interface HttpExchangeRequest {
  readonly method: 'GET' | 'POST';
  /** Protocol path, e.g. `/v1/agent/commands`; appended to the base URL's path. */
  readonly path: string;
  /** The JSON value sent and its serialisation (the caller validated and sized it). */
  readonly body?: { readonly value: unknown; readonly text: string };
  readonly maxResponseBytes: number;
}

export interface HttpExchangeOptions {
  readonly tap: FrameTap;
  readonly timeoutMs: number;
  /** Keep-alive pool; Node's global agent when absent. */
  readonly agent?: http.Agent;
  /** Allow a host that is not loopback (the caller asked the user). */
  readonly allowNonLoopback?: boolean;
  readonly signal?: AbortSignal;
}

export interface HttpJsonResponse {
  readonly status: number;
  /** Parsed body, or `undefined` when it was empty or not JSON (see `parseError`). */
  readonly json: unknown;
  readonly parseError?: string;
}

export type HttpExchangeFailure =
  /** The host is not loopback and the caller did not opt in; nothing was sent. */
  | 'refused_host'
  /** The request failed (connect refused, reset …): `cause` is Node's error. */
  | 'unreachable'
  /** The response stream failed part-way: `cause` is Node's error. */
  | 'response_failed'
  | 'timeout'
  | 'aborted'
  /** The body was over `maxResponseBytes` (declared or read). */
  | 'too_large';

export class HttpExchangeError extends Error {
  constructor(
    readonly failure: HttpExchangeFailure,
    message: string,
    options?: { readonly cause?: Error },
  ) {
    super(message, options);
    this.name = 'HttpExchangeError';
  }
}

/** Keeps a non-JSON body visible in the trace without flooding it. */
const TRACE_TEXT_LIMIT = 4_096;

export function httpJsonExchange(base: URL, request: HttpExchangeRequest, options: HttpExchangeOptions): Promise<HttpJsonResponse> {
  const what = `${request.method} ${request.path}`;
  if (options.allowNonLoopback !== true && !isLoopbackHost(base.hostname)) {
    return Promise.reject(new HttpExchangeError('refused_host', `${what}: ${base.host} is not a loopback address`));
  }
  const fullPath = `${base.pathname.replace(/\/+$/, '')}${request.path}`;
  const trace = { method: request.method, path: request.path };
  const signal = options.signal;
  return new Promise<HttpJsonResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: HttpExchangeError | undefined, value?: HttpJsonResponse): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) {
        req.destroy();
        reject(error);
      } else {
        resolve(value!);
      }
    };
    const onAbort = (): void => finish(new HttpExchangeError('aborted', `${what} aborted`));
    const tooLarge = (): void => finish(new HttpExchangeError('too_large', `${what}: response exceeds ${request.maxResponseBytes} bytes`));
    const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
    let payload: Buffer | undefined;
    if (request.body) {
      payload = Buffer.from(request.body.text, 'utf8');
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = http.request(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: base.port === '' ? 80 : Number(base.port),
        method: request.method,
        path: fullPath,
        headers,
        ...(options.agent !== undefined ? { agent: options.agent } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > request.maxResponseBytes) {
          tooLarge();
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > request.maxResponseBytes) {
            tooLarge();
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error) => finish(new HttpExchangeError('response_failed', `${what}: ${error.message}`, { cause: error })));
        res.on('end', () => {
          if (!settled) {
            finish(undefined, readBody(Buffer.concat(chunks, total).toString('utf8'), status, options.tap, { ...trace, status }));
          }
        });
      },
    );
    const timer = setTimeout(
      () => finish(new HttpExchangeError('timeout', `${what} timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on('error', (error) => finish(new HttpExchangeError('unreachable', `${what}: ${error.message}`, { cause: error })));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort);
    if (request.body) {
      tapSafely(options.tap, 'out', request.body.value, trace);
    }
    req.end(payload);
  });
}

/** Parses (and taps) a complete body. */
function readBody(text: string, status: number, tap: FrameTap, info: { method: string; path: string; status: number }): HttpJsonResponse {
  if (text.length === 0) {
    return { status, json: undefined, parseError: 'empty body' };
  }
  try {
    const json: unknown = JSON.parse(text);
    tapSafely(tap, 'in', json, info);
    return { status, json };
  } catch (error) {
    tapSafely(tap, 'in', text.slice(0, TRACE_TEXT_LIMIT), info);
    return { status, json: undefined, parseError: error instanceof Error ? error.message : String(error) };
  }
}
