/**
 * A small, protocol-agnostic wrapper over a Unix-domain stream socket (AgencyProxy, SCV, hyperhive). It turns
 * Node's socket events into `Emitter`s, guarantees `onClose` fires exactly once (after any `onError`), and gives
 * connect a timeout so a wedged daemon cannot hang the caller.
 */
import * as net from 'node:net';
import { Emitter } from '../base/emitter';
import type { Event } from '../base/emitter';

export interface SocketCloseInfo {
  /** True when the socket closed because of an error (the error is in `error`). */
  readonly hadError: boolean;
  readonly error?: Error;
}

export interface SocketConnectOptions {
  /** Give up connecting after this many ms (default 2000). */
  readonly timeoutMs?: number;
}

export class SocketConnectError extends Error {
  constructor(
    readonly path: string,
    /** Node error code (`ENOENT`, `ECONNREFUSED`, `EACCES`, …) or `ETIMEDOUT` for our timeout. */
    readonly code: string,
    message: string,
    /** Node's own error, when there was one (its message is what clients used to show). */
    options?: { readonly cause?: Error },
  ) {
    super(message, options);
    this.name = 'SocketConnectError';
  }
}

export class SocketConnection {
  private readonly dataEmitter = new Emitter<Buffer>();
  private readonly errorEmitter = new Emitter<Error>();
  private readonly closeEmitter = new Emitter<SocketCloseInfo>();
  private closed = false;
  private lastError: Error | undefined;

  /** Chunks in arrival order. Listeners must not throw (errors are isolated anyway). */
  readonly onData: Event<Buffer> = this.dataEmitter.event;
  /** Socket errors (ECONNRESET, EPIPE …); always followed by onClose. */
  readonly onError: Event<Error> = this.errorEmitter.event;
  /** Fires once when the socket is fully closed, whoever closed it. */
  readonly onClose: Event<SocketCloseInfo> = this.closeEmitter.event;

  /** Wraps an already connected socket (client side or a server's accepted socket). */
  constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.dataEmitter.fire(chunk));
    socket.on('error', (error: Error) => {
      this.lastError = error;
      this.errorEmitter.fire(error);
    });
    // The peer's FIN: we have nothing more to say either, so finish our side (allowHalfOpen is off by default).
    socket.on('close', (hadError: boolean) => this.finish(hadError));
  }

  /** Connects to a Unix socket at `path`. Rejects with SocketConnectError (code ENOENT, ECONNREFUSED, ETIMEDOUT …). */
  static connect(path: string, options: SocketConnectOptions = {}): Promise<SocketConnection> {
    const timeoutMs = options.timeoutMs ?? 2000;
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SocketConnectError(path, 'ETIMEDOUT', `connecting to ${path} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      const onError = (error: NodeJS.ErrnoException): void => {
        clearTimeout(timer);
        socket.destroy();
        const code = error.code ?? 'EUNKNOWN';
        reject(new SocketConnectError(path, code, `cannot connect to ${path}: ${describeConnectError(code, error)}`, { cause: error }));
      };
      socket.once('error', onError);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        resolve(new SocketConnection(socket));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed && !this.socket.destroyed;
  }

  /**
   * Queues bytes; returns false when the socket is closed (the bytes are dropped and `onWritten` is not called).
   * `onWritten` runs once the bytes reached the kernel, or with the error that stopped them.
   */
  write(data: Uint8Array, onWritten?: (error?: Error | null) => void): boolean {
    if (!this.isOpen) {
      return false;
    }
    this.socket.write(data, onWritten);
    return true;
  }

  /**
   * Stops `onData` until `resume`: the kernel's buffer then fills and the peer's writes wait (backpressure), so a
   * reader with a backlog holds no more than it has. EOF and close wait too, behind the unread data.
   */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /** Graceful close: flushes queued writes, sends FIN, and lets the peer close. */
  end(data?: Uint8Array): void {
    if (this.isOpen) {
      if (data !== undefined) {
        this.socket.end(data);
      } else {
        this.socket.end();
      }
    }
  }

  /**
   * Graceful close that does not wait for the peer: queues `data`, flushes, sends FIN, then releases the socket.
   * On a Unix socket the peer still reads everything written before it sees EOF.
   */
  destroySoon(data?: Uint8Array): void {
    if (this.isOpen) {
      if (data !== undefined) {
        this.socket.write(data);
      }
      this.socket.destroySoon();
    }
  }

  /** Immediate close; pending writes are dropped. */
  destroy(error?: Error): void {
    if (error !== undefined) {
      this.lastError = error;
    }
    this.socket.destroy();
  }

  private finish(hadError: boolean): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    const info: SocketCloseInfo = this.lastError !== undefined ? { hadError: true, error: this.lastError } : { hadError };
    this.closeEmitter.fire(info);
    this.dataEmitter.dispose();
    this.errorEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

function describeConnectError(code: string, error: Error): string {
  switch (code) {
    case 'ENOENT':
      return 'no socket at that path (is the daemon running?)';
    case 'ECONNREFUSED':
      return 'connection refused (stale socket: the daemon is not running)';
    case 'EACCES':
      return 'permission denied';
    default:
      return error.message;
  }
}
