/**
 * One JSON exchange with the A3S harness over `node:http`, with the response size bound enforced while reading
 * (the socket is destroyed at the limit, so nothing beyond it is buffered) and every JSON body reported to the
 * FrameTap with `{method, path, status}`.
 */
import * as http from 'node:http';
import type { FrameTap } from '../../transport/frameTap';
import { A3sError, A3sTooLargeError } from './a3sErrors';

export interface A3sHttpExchange {
  readonly method: 'GET' | 'POST';
  /** Protocol path, e.g. `/v1/agent/commands`; appended to the base URL's path. */
  readonly path: string;
  /** The JSON value sent (already validated) and its serialisation. */
  readonly body?: { readonly value: unknown; readonly text: string };
  readonly maxResponseBytes: number;
}

export interface A3sHttpResponse {
  readonly status: number;
  /** Parsed body, or `undefined` when it was empty or not JSON (see `parseError`). */
  readonly json: unknown;
  readonly parseError?: string;
}

export interface A3sHttpOptions {
  readonly tap: FrameTap;
  readonly timeoutMs: number;
  readonly agent: http.Agent;
}

/** Keeps a non-JSON body visible in the trace without flooding it. */
const TRACE_TEXT_LIMIT = 4_096;

export function a3sHttpExchange(
  base: URL,
  exchange: A3sHttpExchange,
  options: A3sHttpOptions,
  signal?: AbortSignal,
): Promise<A3sHttpResponse> {
  const basePath = base.pathname.replace(/\/+$/, '');
  const fullPath = `${basePath}${exchange.path}`;
  const trace = { method: exchange.method, path: exchange.path };
  return new Promise<A3sHttpResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: A3sHttpResponse): void => {
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
        resolve(value as A3sHttpResponse);
      }
    };
    const onAbort = (): void => finish(new A3sError('transport', `A3S request ${exchange.method} ${exchange.path} aborted`));
    const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
    let payload: Buffer | undefined;
    if (exchange.body) {
      payload = Buffer.from(exchange.body.text, 'utf8');
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = http.request(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: base.port === '' ? 80 : Number(base.port),
        method: exchange.method,
        path: fullPath,
        headers,
        agent: options.agent,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > exchange.maxResponseBytes) {
          finish(new A3sTooLargeError(exchange.path, exchange.maxResponseBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > exchange.maxResponseBytes) {
            finish(new A3sTooLargeError(exchange.path, exchange.maxResponseBytes));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error) => finish(new A3sError('transport', `A3S response error: ${error.message}`, { cause: error })));
        res.on('end', () => {
          if (settled) {
            return;
          }
          const text = Buffer.concat(chunks, total).toString('utf8');
          const info = { ...trace, status };
          if (text.length === 0) {
            finish(undefined, { status, json: undefined, parseError: 'empty body' });
            return;
          }
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch (error) {
            safeTap(options.tap, 'in', text.slice(0, TRACE_TEXT_LIMIT), info);
            finish(undefined, { status, json: undefined, parseError: error instanceof Error ? error.message : String(error) });
            return;
          }
          safeTap(options.tap, 'in', json, info);
          finish(undefined, { status, json });
        });
      },
    );
    const timer = setTimeout(
      () => finish(new A3sError('timeout', `A3S request ${exchange.method} ${exchange.path} timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on('error', (error) =>
      finish(new A3sError('transport', `A3S harness unreachable at ${base.host}: ${error.message}`, { cause: error })),
    );
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort);
    if (exchange.body) {
      safeTap(options.tap, 'out', exchange.body.value, trace);
    }
    req.end(payload);
  });
}

/** Tracing must never change what a request does: a throwing tap is ignored. */
function safeTap(tap: FrameTap, ...args: Parameters<FrameTap>): void {
  try {
    tap(...args);
  } catch {
    // ignored on purpose
  }
}
