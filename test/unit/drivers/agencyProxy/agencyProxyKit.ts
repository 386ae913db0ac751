/** Shared helpers for the AgencyProxy tests: temp dirs, in-process daemons, raw peers, fake servers. */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import type { AgencyProxyClientOptions } from '../../../../extension/drivers/agencyProxy/client';
import type { EventFrame } from '../../../../extension/protocol/agencyProxy';
import { LengthPrefixedDecoder, encodeJsonFrame } from '../../../../extension/transport/lengthPrefixed';
import type { DecodeResult } from '../../../../extension/transport/lengthPrefixed';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import type { ReferenceAgencyProxyOptions } from '../../../fixtures/agencyProxy/daemon';
import { withSuiteTrace } from '../../trace/suiteTrace';

/** A short temp dir (socket paths must stay < 100 bytes). */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ap-'));
}

export interface DaemonFixture {
  readonly daemon: ReferenceAgencyProxy;
  readonly dir: string;
  readonly socketPath: string;
  readonly workspace: string;
  readonly clients: AgencyProxyClient[];
  connect(options?: Partial<AgencyProxyClientOptions>): Promise<AgencyProxyClient>;
  cleanup(): Promise<void>;
}

export async function startDaemon(options: Partial<ReferenceAgencyProxyOptions> = {}): Promise<DaemonFixture> {
  const dir = tempDir();
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  const socketPath = path.join(dir, 'd.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, chunkDelayMs: 1, ...options });
  await daemon.start();
  const clients: AgencyProxyClient[] = [];
  return {
    daemon, dir, socketPath, workspace, clients,
    async connect(clientOptions = {}) {
      const frameTap = withSuiteTrace('agency-proxy', 'reference daemon', clientOptions.frameTap);
      const client = await AgencyProxyClient.connect({ socketPath, requestTimeoutMs: 3000, ...clientOptions, ...(frameTap ? { frameTap } : {}) });
      clients.push(client);
      return client;
    },
    async cleanup() {
      clients.forEach((c) => c.close());
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    },
  };
}

/** Collects a run's events until `done(event)` is true. Subscribe before attaching. */
export function collectUntil(
  client: AgencyProxyClient,
  runId: string,
  done: (event: EventFrame) => boolean,
  timeoutMs = 5000,
): Promise<EventFrame[]> {
  const events: EventFrame[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${events.length} events: ${events.map((e) => e.event.type).join(',')}`));
    }, timeoutMs);
    const sub = client.onEvent((event) => {
      if (event.run_id !== runId) {
        return;
      }
      events.push(event);
      if (done(event)) {
        clearTimeout(timer);
        sub.dispose();
        resolve(events);
      }
    });
  });
}

export const isTerminalEvent = (e: EventFrame): boolean => e.event.type === 'finished' || e.event.type === 'failed';

export function assertContiguous(events: readonly EventFrame[], from: number): void {
  events.forEach((e, i) => {
    if (e.sequence !== from + i) {
      throw new Error(`sequence gap/duplicate at index ${i}: expected ${from + i}, got ${e.sequence}`);
    }
  });
}

/** A bare socket speaking the framing, for frames the typed client never sends. */
export class RawPeer {
  private readonly decoder = new LengthPrefixedDecoder();
  private readonly queue: DecodeResult[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.queue.push(...this.decoder.push(chunk));
      this.flush();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.on('close', () => {
      this.flush();
      resolve();
    }));
  }

  static connect(socketPath: string): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path: socketPath });
      socket.once('connect', () => resolve(new RawPeer(socket)));
      socket.once('error', reject);
    });
  }

  send(value: unknown): void {
    this.socket.write(encodeJsonFrame(value));
  }

  sendBytes(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** The next decoded message value, or undefined if the socket closed first. */
  async next(timeoutMs = 2000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      if (this.socket.destroyed || this.socket.readableEnded) {
        return undefined;
      }
      if (Date.now() > deadline) {
        throw new Error('no frame from the daemon');
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    const result = this.queue.shift()!;
    return result.type === 'message' ? result.value : undefined;
  }

  /** True when the socket closes within `ms` without any further frame. */
  async closesSilently(ms = 2000): Promise<boolean> {
    const closed = await Promise.race([this.closed.then(() => true), delay(ms).then(() => false)]);
    return closed && this.queue.length === 0;
  }

  hello(minor = 3, major = 0): Promise<unknown> {
    this.send({ requestId: 1, type: 'hello', client_name: 'raw', version: { major, minor } });
    return this.next();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private flush(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }
}

/** A scriptable fake daemon: `onMessage` gets every decoded client frame and a send function. */
export async function fakeServer(
  socketPath: string,
  onMessage: (value: Record<string, unknown>, send: (frame: unknown) => void, socket: net.Socket) => void,
): Promise<net.Server> {
  const server = net.createServer((socket) => {
    const decoder = new LengthPrefixedDecoder();
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      for (const r of decoder.push(chunk)) {
        if (r.type === 'message') {
          onMessage(r.value as Record<string, unknown>, (frame) => socket.write(encodeJsonFrame(frame)), socket);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return server;
}

export function helloReply(requestId: unknown, major = 0, minor = 3): Record<string, unknown> {
  return { kind: 'response', request_id: requestId, type: 'hello', server_name: 'fake', version: { major, minor }, capabilities: [] };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
