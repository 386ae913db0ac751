/**
 * A byte-level proxy between a client and a daemon that a test can cut: `drop()` destroys every proxied connection
 * (both sides see the socket go away mid-stream), `goAway()` also stops listening (new connections are refused) and
 * `comeBack()` listens again on the same address. Works for Unix sockets and loopback TCP.
 *
 * With a `FaultPlan` it also mangles the stream while the daemon stays alive: each chunk is handed to the plan in
 * stream order and passed on whole, split into pieces written one event-loop turn apart, delayed, stalled (held
 * back while later chunks queue behind it, then delivered together), or cut (a prefix is delivered, often ending
 * inside a frame, then both sides are destroyed). Bytes are never reordered, dropped silently or duplicated.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';

export type ProxyAddress = { readonly path: string } | { readonly host: string; readonly port: number };

/** `down` = daemon → client, `up` = client → daemon. */
export type StreamDirection = 'down' | 'up';

export type Fault =
  | { readonly kind: 'pass' }
  | { readonly kind: 'split'; readonly sizes: readonly number[] }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'stall'; readonly ms: number }
  | { readonly kind: 'cut'; readonly keep: number };

export interface FaultPlan {
  /** What to do with the next chunk going `direction` (called in stream order, one chunk at a time). */
  next(direction: StreamDirection, chunk: Buffer): Fault;
}

export interface SeededRandom {
  int(min: number, max: number): number;
}

/**
 * Faults at seeded byte offsets: after every `spacing` bytes (drawn from the seed) of a direction, the chunk that
 * crosses the point gets one fault of `kinds` (drawn too). Off until `enabled`; `counts` tallies what happened.
 */
export class SeededFaults implements FaultPlan {
  enabled = false;
  readonly counts: Record<Fault['kind'], number> = { pass: 0, split: 0, delay: 0, stall: 0, cut: 0 };
  private readonly seen: Record<StreamDirection, number> = { down: 0, up: 0 };
  private readonly nextAt: Record<StreamDirection, number>;

  constructor(
    private readonly random: SeededRandom,
    private readonly kinds: Readonly<Record<StreamDirection, readonly Exclude<Fault['kind'], 'pass'>[]>>,
    private readonly spacing: readonly [number, number] = [200, 4000],
  ) {
    this.nextAt = { down: this.gap(), up: this.gap() };
  }

  next(direction: StreamDirection, chunk: Buffer): Fault {
    this.seen[direction] += chunk.length;
    const kinds = this.kinds[direction];
    if (!this.enabled || kinds.length === 0 || this.seen[direction] < this.nextAt[direction]) {
      this.counts.pass += 1;
      return { kind: 'pass' };
    }
    this.nextAt[direction] = this.seen[direction] + this.gap();
    const kind = kinds[this.random.int(0, kinds.length - 1)]!;
    this.counts[kind] += 1;
    switch (kind) {
      case 'split': {
        const sizes: number[] = [];
        for (let left = chunk.length; left > 0;) {
          const size = Math.min(left, this.random.int(1, 9)); // small pieces: frame headers split too
          sizes.push(size);
          left -= size;
        }
        return { kind, sizes };
      }
      case 'delay':
        return { kind, ms: this.random.int(1, 25) };
      case 'stall':
        return { kind, ms: this.random.int(80, 400) };
      case 'cut':
        // The crossing point itself: usually inside a frame, so the reader sees a truncated stream.
        return { kind, keep: this.random.int(0, Math.max(0, chunk.length - 1)) };
    }
  }

  private gap(): number {
    return this.random.int(this.spacing[0], this.spacing[1]);
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class FlakyProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private boundPort = 0;
  /** Connections accepted so far. */
  accepted = 0;

  constructor(
    private readonly listenOn: ProxyAddress,
    private readonly upstream: ProxyAddress,
    private readonly faults?: FaultPlan,
  ) {}

  /** The TCP port actually bound (for `port: 0`). */
  get port(): number {
    return this.boundPort;
  }

  async comeBack(): Promise<void> {
    if (this.server) {
      return;
    }
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    if ('path' in this.listenOn) {
      fs.rmSync(this.listenOn.path, { force: true });
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const done = (): void => {
        server.off('error', reject);
        resolve();
      };
      if ('path' in this.listenOn) {
        server.listen(this.listenOn.path, done);
      } else {
        server.listen(this.boundPort || this.listenOn.port, this.listenOn.host, done);
      }
    });
    const address = server.address();
    if (address !== null && typeof address === 'object') {
      this.boundPort = address.port;
    }
  }

  /** Cuts every live connection; keeps listening. */
  drop(): void {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    this.sockets.clear();
  }

  /** Cuts every connection and stops listening. */
  async goAway(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.drop();
    if (server) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private accept(client: net.Socket): void {
    this.accepted += 1;
    const upstream = 'path' in this.upstream ? net.createConnection(this.upstream.path) : net.createConnection(this.upstream.port, this.upstream.host);
    for (const [from, to, direction] of [[client, upstream, 'up'], [upstream, client, 'down']] as const) {
      this.sockets.add(from);
      // One chain per direction keeps the bytes in order while a fault holds a chunk back.
      let chain = Promise.resolve();
      const cut = (): void => {
        client.destroy();
        upstream.destroy();
      };
      from.on('data', (chunk: Buffer) => {
        const faults = this.faults;
        if (faults === undefined) {
          to.write(chunk);
        } else {
          chain = chain.then(() => deliver(faults.next(direction, chunk), chunk, to, cut));
        }
      });
      from.on('end', () => {
        chain = chain.then(() => void to.end());
      });
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}

async function deliver(fault: Fault, chunk: Buffer, to: net.Socket, cut: () => void): Promise<void> {
  const write = (bytes: Buffer): void => {
    if (!to.destroyed && bytes.length > 0) {
      to.write(bytes);
    }
  };
  switch (fault.kind) {
    case 'pass':
      write(chunk);
      return;
    case 'split': {
      let offset = 0;
      for (const size of fault.sizes) {
        write(chunk.subarray(offset, offset + size));
        offset += size;
        await turn();
      }
      return;
    }
    case 'delay':
    case 'stall':
      await pause(fault.ms);
      write(chunk);
      return;
    case 'cut':
      write(chunk.subarray(0, fault.keep));
      await turn(); // let the prefix reach the reader before its socket goes away
      cut();
      return;
  }
}
