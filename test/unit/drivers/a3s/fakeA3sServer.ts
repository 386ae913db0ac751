/**
 * A scriptable HTTP peer for client tests that need answers the faithful harness never gives (tampered receipts,
 * broken pages, oversized bodies). Listens on 127.0.0.1.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly json: unknown;
}

export interface FakeResponse {
  readonly status: number;
  /** JSON value, or a raw string/Buffer sent as is. */
  readonly body?: unknown;
  readonly raw?: string | Buffer;
  /** Stream `raw` in chunks without a content-length (tests the read-time bound). */
  readonly chunked?: boolean;
}

export class FakeA3sServer {
  readonly requests: FakeRequest[] = [];
  private readonly server: http.Server;

  constructor(private handler: (req: FakeRequest) => FakeResponse | Promise<FakeResponse>) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = body ? JSON.parse(body) : undefined;
        } catch {
          json = undefined;
        }
        const fake = { method: req.method ?? '', path: req.url ?? '', body, json };
        this.requests.push(fake);
        void Promise.resolve(this.handler(fake)).then((r) => {
          const payload = r.raw ?? JSON.stringify(r.body);
          if (r.chunked) {
            res.writeHead(r.status, { 'content-type': 'application/json' });
            const buf = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
            let offset = 0;
            const pump = (): void => {
              if (res.destroyed) {
                return;
              }
              if (offset >= buf.length) {
                res.end();
                return;
              }
              const ok = res.write(buf.subarray(offset, offset + 65_536));
              offset += 65_536;
              if (ok) {
                setImmediate(pump);
              } else {
                res.once('drain', pump);
              }
            };
            res.on('close', () => undefined);
            pump();
          } else {
            res.writeHead(r.status, { 'content-type': 'application/json' });
            res.end(payload);
          }
        }, (error: unknown) => {
          // A handler that forwards to a harness which is already gone (a test's teardown while the driver still
          // polls): answer as a real proxy would, instead of leaving an unhandled rejection behind the test.
          if (!res.headersSent && !res.destroyed) {
            res.writeHead(502, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { code: 'bad_gateway', message: String(error) } }));
          }
        });
      });
    });
  }

  setHandler(handler: (req: FakeRequest) => FakeResponse | Promise<FakeResponse>): void {
    this.handler = handler;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
