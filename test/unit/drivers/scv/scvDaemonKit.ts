/**
 * Shared helpers for the SCV unit tests: a reference daemon on a short socket path in a temp dir, a recording
 * client, a raw NDJSON socket, and bounded waits.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import type { Event } from '../../../../extension/base/emitter';
import { ScvClient } from '../../../../extension/drivers/scv/client';
import type { ScvClientOptions, ScvCloseInfo, ScvErrorInfo, ScvGap } from '../../../../extension/drivers/scv/scvClientTypes';
import type { ScvServerEvent } from '../../../../extension/protocol/scv';
import { ScvReferenceDaemon } from '../../../fixtures/scv/daemon';
import type { ScvReferenceDaemonOptions } from '../../../fixtures/scv/daemon';
import { withSuiteTrace } from '../../trace/suiteTrace';

export interface DaemonHandle {
  readonly daemon: ScvReferenceDaemon;
  readonly socketPath: string;
  /** A directory usable as a session `cwd`. */
  readonly dir: string;
  cleanup(): Promise<void>;
}

export async function startDaemon(options: Partial<ScvReferenceDaemonOptions> = {}): Promise<DaemonHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scv-'));
  const socketPath = path.join(dir, 'd.sock');
  const daemon = new ScvReferenceDaemon({ stepDelayMs: 1, slowTurnMs: 600, backgroundDelayMs: 100, ...options, socketPath });
  await daemon.start();
  return {
    daemon,
    socketPath,
    dir,
    cleanup: async () => {
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    },
  };
}

/** Resolves with the first value `event` fires that satisfies `predicate`; rejects after `timeoutMs`. */
export function waitFor<T, S extends T = T>(
  event: Event<T>,
  predicate: (value: T) => value is S,
  timeoutMs?: number,
): Promise<S>;
export function waitFor<T>(event: Event<T>, predicate: (value: T) => boolean, timeoutMs?: number): Promise<T>;
export function waitFor<T>(event: Event<T>, predicate: (value: T) => boolean, timeoutMs = 3_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`waitFor timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const sub = event((value) => {
      if (predicate(value)) {
        clearTimeout(timer);
        sub.dispose();
        resolve(value);
      }
    });
  });
}

/** Polls `check` until it returns true; rejects after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) {
      throw new Error(`condition not met within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface Recorded {
  readonly client: ScvClient;
  readonly events: ScvServerEvent[];
  readonly errors: ScvErrorInfo[];
  readonly gaps: ScvGap[];
  readonly closes: ScvCloseInfo[];
  readonly frames: { dir: 'in' | 'out'; frame: unknown }[];
}

/** A client whose every event, error, gap, close and frame is recorded. */
export function recordingClient(socketPath: string, options: Partial<ScvClientOptions> = {}): Recorded {
  const frames: Recorded['frames'] = [];
  const client = new ScvClient({
    socketPath,
    clientVersion: '0.0.0-test',
    ...options,
    // The test's own tap (if any) and the suite trace both see every frame, besides `frames`.
    frameTap: withSuiteTrace('scv', 'reference daemon', (dir, frame, http) => {
      frames.push({ dir, frame });
      options.frameTap?.(dir, frame, http);
    }),
  });
  const rec: Recorded = { client, events: [], errors: [], gaps: [], closes: [], frames };
  client.onEvent((e) => rec.events.push(e));
  client.onError((e) => rec.errors.push(e));
  client.onGap((g) => rec.gaps.push(g));
  client.onClose((c) => rec.closes.push(c));
  return rec;
}

/** Connects, initializes and starts a session in the daemon's temp dir. */
export async function sessionClient(h: DaemonHandle, options: Partial<ScvClientOptions> = {}): Promise<Recorded> {
  const rec = recordingClient(h.socketPath, options);
  await rec.client.connect();
  await rec.client.startSession({ cwd: h.dir });
  return rec;
}

/** The first recorded event matching `predicate`, waiting for it if it has not arrived yet. */
export function seen<S extends ScvServerEvent>(
  rec: Recorded,
  predicate: (e: ScvServerEvent) => e is S,
  timeoutMs = 3_000,
): Promise<S> {
  const found = rec.events.find(predicate);
  return found ? Promise.resolve(found) : waitFor(rec.client.onEvent, predicate, timeoutMs);
}

/** The terminal event of turn `turnId`, waiting for it if needed. */
export async function turnEnd(rec: Recorded, turnId: string, timeoutMs = 3_000): Promise<ScvServerEvent> {
  const isEnd = (e: ScvServerEvent): boolean =>
    (e.type === 'turn.completed' || e.type === 'turn.failed' || e.type === 'turn.cancelled') && e.turn_id === turnId;
  const seen = rec.events.find(isEnd);
  return seen ?? waitFor(rec.client.onEvent, isEnd, timeoutMs);
}

/** A raw NDJSON connection, for what the typed client never sends. */
export class RawConnection {
  private buffer = '';
  private readonly lines: unknown[] = [];
  private waiters: (() => void)[] = [];
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(JSON.parse(this.buffer.slice(0, nl)));
        this.buffer = this.buffer.slice(nl + 1);
      }
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(socketPath: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(socketPath, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  sendLine(line: string): void {
    this.socket.write(line + '\n');
  }

  send(frame: unknown): void {
    this.sendLine(JSON.stringify(frame));
  }

  /** The next frame the daemon sent. */
  async next(timeoutMs = 3_000): Promise<Record<string, unknown>> {
    const start = Date.now();
    while (this.lines.length === 0) {
      if (this.closed) {
        throw new Error('connection closed');
      }
      if (Date.now() - start > timeoutMs) {
        throw new Error('no frame within timeout');
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.lines.shift() as Record<string, unknown>;
  }

  /** Resolves once the daemon closed the connection. */
  async waitClosed(timeoutMs = 3_000): Promise<void> {
    await until(() => this.closed, timeoutMs);
  }

  async initialize(): Promise<void> {
    this.send({ type: 'initialize', request_id: 'i', protocol_version: 3, client: { name: 'raw', version: '0' } });
    const reply = await this.next();
    if (reply['type'] !== 'initialized') {
      throw new Error(`unexpected ${JSON.stringify(reply)}`);
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      w();
    }
  }
}

/**
 * Inside a `describe`: a fresh reference daemon for every test (`h`), and `session` clients on it (or `adopt`ed
 * ones) that are disposed after the test, with the daemon.
 */
export function useReferenceDaemon(options: Partial<ScvReferenceDaemonOptions>): {
  readonly h: DaemonHandle;
  session(options?: Partial<ScvClientOptions>): Promise<Recorded>;
  /** A client the test made itself, disposed with the others. */
  adopt(rec: Recorded): Recorded;
} {
  let handle: DaemonHandle | undefined;
  const clients: Recorded[] = [];
  beforeEach(async () => {
    handle = await startDaemon(options);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) {
      c.client.dispose();
    }
    await handle?.cleanup();
  });
  return {
    get h(): DaemonHandle {
      return handle!;
    },
    session: async (clientOptions = {}) => {
      const rec = await sessionClient(handle!, clientOptions);
      clients.push(rec);
      return rec;
    },
    adopt: (rec) => {
      clients.push(rec);
      return rec;
    },
  };
}
