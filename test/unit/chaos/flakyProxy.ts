/**
 * A byte-level proxy between a client and a daemon that a test can cut: `drop()` destroys every proxied connection
 * (both sides see the socket go away mid-stream), `goAway()` also stops listening (new connections are refused) and
 * `comeBack()` listens again on the same address. Works for Unix sockets and loopback TCP.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';

export type ProxyAddress = { readonly path: string } | { readonly host: string; readonly port: number };

export class FlakyProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private boundPort = 0;
  /** Connections accepted so far. */
  accepted = 0;

  constructor(
    private readonly listenOn: ProxyAddress,
    private readonly upstream: ProxyAddress,
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
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      this.sockets.add(from);
      from.on('data', (chunk: Buffer) => to.write(chunk));
      from.on('end', () => to.end());
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}
