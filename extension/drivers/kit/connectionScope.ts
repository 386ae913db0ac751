/**
 * What one connection of a driver holds, and how it ends. The base driver opens a scope for each connection attempt
 * and hands it to the driver's `connectOnce`; whatever belongs to that connection (closing the client, pollers and
 * watches, bookkeeping that is only true while it lasts) goes in with `add` and is disposed exactly once: when this
 * editor closes the connection (`close`: disconnect, dispose, a failed attempt, a replaced connection) or when it
 * drops by itself (`lost`: the base driver then lets the reconnect loop retry). An ended scope stays ended, so a late
 * callback of an old connection (a stale client's close event) cannot end the current one.
 */
import type { Disposable } from '../../base/emitter';
import { DisposableStore } from '../../base/emitter';

export class ConnectionScope {
  private readonly items = new DisposableStore();

  constructor(
    /** Called once, after the items were disposed; `lostReason` is set when the connection dropped by itself. */
    private readonly onEnded: (lostReason: string | undefined) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** False once the connection was closed or lost. */
  get isOpen(): boolean {
    return !this.items.isDisposed;
  }

  /** Ties `item` to this connection; disposed at once when the connection has already ended. */
  add<T extends Disposable>(item: T): T {
    return this.items.add(item);
  }

  /** The connection dropped without this editor closing it: dispose what it held, then reconnect. */
  lost(reason: string): void {
    this.end(reason);
  }

  /** This editor closes the connection (no reconnect follows from this scope). */
  close(): void {
    this.end(undefined);
  }

  private end(lostReason: string | undefined): void {
    if (this.items.isDisposed) {
      return;
    }
    try {
      this.items.dispose();
    } catch (error) {
      // One failing cleanup must not keep the driver from reconnecting or the others from running.
      this.onError(error);
    }
    this.onEnded(lostReason);
  }
}
