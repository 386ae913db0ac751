/** `httpJsonExchange` against a scripted loopback server: status and body, the tap, size bound, timeout, abort. */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FrameDirection, HttpTraceInfo } from '../../../extension/transport/frameTap';
import { HttpExchangeError, httpJsonExchange } from '../../../extension/transport/httpExchange';
import type { HttpExchangeOptions } from '../../../extension/transport/httpExchange';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

describe('httpJsonExchange', () => {
  let server: http.Server;
  let base: URL;
  let handler: Handler = (_req, _body, res) => res.end();
  const seen: { method?: string; url?: string; body: string }[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ method: req.method, url: req.url, body });
        handler(req, body, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`);
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function recording(extra: Partial<HttpExchangeOptions> = {}): { options: HttpExchangeOptions; tapped: { dir: FrameDirection; frame: unknown; http?: HttpTraceInfo }[] } {
    const tapped: { dir: FrameDirection; frame: unknown; http?: HttpTraceInfo }[] = [];
    return { tapped, options: { tap: (dir, frame, info) => tapped.push({ dir, frame, ...(info ? { http: info } : {}) }), timeoutMs: 2_000, ...extra } };
  }

  const json = (res: http.ServerResponse, status: number, value: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };

  it('POSTs the JSON under the base path and returns status and body, tapping both with {method, path, status}', async () => {
    handler = (_req, body, res) => json(res, 201, { echo: JSON.parse(body) as unknown });
    const { options, tapped } = recording();
    const value = { action: 'start', n: 1 };
    const response = await httpJsonExchange(base, { method: 'POST', path: '/v1/x', body: { value, text: JSON.stringify(value) }, maxResponseBytes: 1024 }, options);
    assert.deepEqual(response, { status: 201, json: { echo: value } });
    assert.deepEqual(seen.at(-1), { method: 'POST', url: '/base/v1/x', body: JSON.stringify(value) });
    assert.deepEqual(tapped, [
      { dir: 'out', frame: value, http: { method: 'POST', path: '/v1/x' } },
      { dir: 'in', frame: { echo: value }, http: { method: 'POST', path: '/v1/x', status: 201 } },
    ]);
  });

  it('a non-JSON or empty body is a parseError, not a throw; non-JSON text is traced (bounded)', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(503);
      res.end('x'.repeat(10_000));
    };
    const { options, tapped } = recording();
    const response = await httpJsonExchange(base, { method: 'GET', path: '/health', maxResponseBytes: 20_000 }, options);
    assert.equal(response.status, 503);
    assert.equal(response.json, undefined);
    assert.ok(response.parseError !== undefined && response.parseError.length > 0);
    assert.equal(tapped.length, 1);
    assert.equal((tapped[0]!.frame as string).length, 4_096);
    handler = (_req, _body, res) => res.end();
    assert.deepEqual(await httpJsonExchange(base, { method: 'GET', path: '/empty', maxResponseBytes: 10 }, recording().options), { status: 200, json: undefined, parseError: 'empty body' });
  });

  it('refuses a body over the bound, declared or streamed', async () => {
    handler = (_req, _body, res) => json(res, 200, { big: 'y'.repeat(5_000) });
    await assert.rejects(
      httpJsonExchange(base, { method: 'GET', path: '/declared', maxResponseBytes: 1_000 }, recording().options),
      (e: unknown) => e instanceof HttpExchangeError && e.failure === 'too_large',
    );
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no content-length
      res.write('{"big":"');
      res.write('z'.repeat(5_000));
      res.end('"}');
    };
    const { options, tapped } = recording();
    await assert.rejects(
      httpJsonExchange(base, { method: 'GET', path: '/streamed', maxResponseBytes: 1_000 }, options),
      (e: unknown) => e instanceof HttpExchangeError && e.failure === 'too_large',
    );
    assert.deepEqual(tapped, [], 'nothing half-read is traced');
  });

  it('times out when the server does not answer', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    await assert.rejects(
      httpJsonExchange(base, { method: 'GET', path: '/slow', maxResponseBytes: 10 }, recording({ timeoutMs: 100 }).options),
      (e: unknown) => e instanceof HttpExchangeError && e.failure === 'timeout' && /timed out after 100 ms/.test(e.message),
    );
    assert.ok(Date.now() - started < 1_500);
  });

  it('an abort signal stops the exchange', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const pending = httpJsonExchange(base, { method: 'GET', path: '/abort', maxResponseBytes: 10 }, recording({ signal: controller.signal }).options);
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending, (e: unknown) => e instanceof HttpExchangeError && e.failure === 'aborted');
    await assert.rejects(
      httpJsonExchange(base, { method: 'GET', path: '/abort', maxResponseBytes: 10 }, recording({ signal: AbortSignal.abort() }).options),
      (e: unknown) => e instanceof HttpExchangeError && e.failure === 'aborted',
    );
  });

  it('an unreachable port is `unreachable` with Node\'s error as the cause', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(
      httpJsonExchange(new URL(`http://127.0.0.1:${port}`), { method: 'GET', path: '/', maxResponseBytes: 10 }, recording().options),
      (e: unknown) => e instanceof HttpExchangeError && e.failure === 'unreachable' && e.cause instanceof Error && /ECONNREFUSED/.test(e.cause.message),
    );
  });

  it('sends nothing to a host that is not loopback unless allowed', async () => {
    const before = seen.length;
    const { options, tapped } = recording();
    await assert.rejects(
      httpJsonExchange(new URL('http://192.0.2.1:9/'), { method: 'POST', path: '/v1/x', body: { value: {}, text: '{}' }, maxResponseBytes: 10 }, options),
      (e: unknown) => e instanceof HttpExchangeError && e.failure === 'refused_host',
    );
    assert.equal(seen.length, before);
    assert.deepEqual(tapped, []);
  });
});
