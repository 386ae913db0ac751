/**
 * Requests waiting for their answer, keyed by request id. Each waiter may have a timeout; a waiter leaves the table
 * exactly once — taken by its answer, rejected, timed out, or rejected with the rest when the connection closes — so
 * a late answer finds nothing and a promise never settles twice. What a waiter is (a promise's resolve/reject plus
 * whatever the protocol needs to match answers) is the caller's: the table only needs `reject`.
 */
import { systemClock } from './clock';
import type { Timeouts } from './clock';

export interface Waiter {
  reject(error: Error): void;
}

interface Entry<W> {
  readonly waiter: W;
  readonly timer: unknown;
}

export class PendingRequests<K, W extends Waiter> {
  private readonly items = new Map<K, Entry<W>>();

  constructor(private readonly timers: Timeouts = systemClock) {}

  get size(): number {
    return this.items.size;
  }

  has(id: K): boolean {
    return this.items.has(id);
  }

  get(id: K): W | undefined {
    return this.items.get(id)?.waiter;
  }

  /**
   * Adds a waiter. If nothing takes it within `timeoutMs` (0 or less: never), it is removed and `onTimeout` runs
   * — the caller rejects it there, with the error its protocol calls a timeout.
   */
  add(id: K, waiter: W, timeoutMs: number, onTimeout: (waiter: W, id: K) => void): void {
    if (this.items.has(id)) {
      // Two waiters under one id would leave one unanswerable until close; a caller bug, not a wire condition.
      throw new Error(`request id ${String(id)} is already waiting`);
    }
    const timer =
      timeoutMs > 0
        ? this.timers.setTimeout(() => {
            if (this.items.get(id)?.waiter === waiter) {
              this.items.delete(id);
              onTimeout(waiter, id);
            }
          }, timeoutMs)
        : undefined;
    this.items.set(id, { waiter, timer });
  }

  /** Removes a waiter without settling it (its answer arrived: the caller resolves it). */
  take(id: K): W | undefined {
    const entry = this.items.get(id);
    if (entry === undefined) {
      return undefined;
    }
    this.clear(entry);
    this.items.delete(id);
    return entry.waiter;
  }

  /**
   * Offers an answer to every waiter in insertion order, for protocols whose answers are not matched by id alone;
   * the first for which `match` returns a value is removed and returned with that value.
   */
  takeFirst<R>(match: (waiter: W, id: K) => R | undefined): { readonly waiter: W; readonly id: K; readonly result: R } | undefined {
    for (const [id, entry] of this.items) {
      const result = match(entry.waiter, id);
      if (result !== undefined) {
        this.take(id);
        return { waiter: entry.waiter, id, result };
      }
    }
    return undefined;
  }

  /** Rejects one waiter; false if none waits under that id. */
  reject(id: K, error: Error | ((waiter: W, id: K) => Error)): boolean {
    const waiter = this.take(id);
    if (waiter === undefined) {
      return false;
    }
    waiter.reject(typeof error === 'function' ? error(waiter, id) : error);
    return true;
  }

  /** The connection closed (or failed): every waiter is removed first, then rejected, in insertion order. */
  rejectAll(makeError: (waiter: W, id: K) => Error): number {
    const entries = [...this.items];
    this.items.clear();
    for (const [, entry] of entries) {
      this.clear(entry);
    }
    for (const [id, entry] of entries) {
      entry.waiter.reject(makeError(entry.waiter, id));
    }
    return entries.length;
  }

  private clear(entry: Entry<W>): void {
    if (entry.timer !== undefined) {
      this.timers.clearTimeout(entry.timer);
    }
  }
}
