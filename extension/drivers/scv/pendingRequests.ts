/**
 * Requests waiting for their answer. SCV answers are matched by more than `request_id`: `turn.cancel` is answered by
 * a `turn.cancelled` that carries the *turn's* `request_id`, and `session.start` by two events. So each waiter
 * gets every event and says when it is done; `error{request_id}` is matched by id.
 */
import type { ScvKnownEvent } from '../../protocol/scv';

export interface PendingRequest {
  readonly requestId: string;
  readonly type: string;
  /** Returns `{value}` when this event completes the request; may keep state across calls. */
  accept(event: ScvKnownEvent): { readonly value: unknown } | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PendingRequests {
  private readonly items = new Map<string, { req: PendingRequest; timer: NodeJS.Timeout | undefined }>();

  get size(): number {
    return this.items.size;
  }

  has(requestId: string): boolean {
    return this.items.has(requestId);
  }

  /** Adds a waiter; `onTimeout` runs (after removal) if nothing answers within `timeoutMs`. */
  add(req: PendingRequest, timeoutMs: number, onTimeout: (req: PendingRequest) => void): void {
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            if (this.items.delete(req.requestId)) {
              onTimeout(req);
            }
          }, timeoutMs)
        : undefined;
    this.items.set(req.requestId, { req, timer });
  }

  /** Offers an event to every waiter in insertion order; the first that completes is resolved and removed. */
  offer(event: ScvKnownEvent): boolean {
    for (const [id, item] of this.items) {
      const done = item.req.accept(event);
      if (done) {
        this.remove(id);
        item.req.resolve(done.value);
        return true;
      }
    }
    return false;
  }

  /** Rejects one waiter; returns false if there was none with that id. */
  reject(requestId: string, error: Error): boolean {
    const item = this.remove(requestId);
    if (!item) {
      return false;
    }
    item.reject(error);
    return true;
  }

  /**
   * An event that names a waiting request by `request_id` but could not be read (a known type with a shape this
   * client does not accept): that request's answer will never parse, so it settles now instead of at its timeout.
   */
  rejectUnreadable(raw: unknown, makeError: (req: PendingRequest) => Error): boolean {
    const requestId = raw !== null && typeof raw === 'object' ? (raw as { request_id?: unknown }).request_id : undefined;
    const item = typeof requestId === 'string' ? this.items.get(requestId) : undefined;
    return item !== undefined && this.reject(item.req.requestId, makeError(item.req));
  }

  rejectAll(makeError: (req: PendingRequest) => Error): void {
    for (const id of [...this.items.keys()]) {
      const item = this.remove(id);
      item?.reject(makeError(item));
    }
  }

  private remove(requestId: string): PendingRequest | undefined {
    const item = this.items.get(requestId);
    if (!item) {
      return undefined;
    }
    clearTimeout(item.timer);
    this.items.delete(requestId);
    return item.req;
  }
}
