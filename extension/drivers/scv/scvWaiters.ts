/**
 * SCV's use of the kit's pending-request table. SCV answers are matched by more than `request_id`: `turn.cancel` is
 * answered by a `turn.cancelled` that carries the *turn's* `request_id`, and `session.start` by two events. So each
 * waiter is offered every event and says when it is done; `error{request_id}` is matched by id.
 */
import type { ScvKnownEvent } from '../../protocol/scv';
import { PendingRequests } from '../kit/pendingRequests';

export interface ScvWaiter {
  readonly requestId: string;
  readonly type: string;
  /** Returns `{value}` when this event completes the request; may keep state across calls. */
  accept(event: ScvKnownEvent): { readonly value: unknown } | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export type ScvPendingRequests = PendingRequests<string, ScvWaiter>;

export function newScvPendingRequests(): ScvPendingRequests {
  return new PendingRequests<string, ScvWaiter>();
}

/** Offers an event to every waiter in insertion order; the first that completes is resolved and removed. */
export function offerEvent(pending: ScvPendingRequests, event: ScvKnownEvent): boolean {
  const hit = pending.takeFirst((waiter) => waiter.accept(event));
  hit?.waiter.resolve(hit.result.value);
  return hit !== undefined;
}

/**
 * An event that names a waiting request by `request_id` but could not be read (a known type with a shape this
 * client does not accept): that request's answer will never parse, so it settles now instead of at its timeout.
 */
export function rejectUnreadable(pending: ScvPendingRequests, raw: unknown, makeError: (waiter: ScvWaiter) => Error): boolean {
  const requestId = raw !== null && typeof raw === 'object' ? (raw as { request_id?: unknown }).request_id : undefined;
  return typeof requestId === 'string' && pending.reject(requestId, makeError);
}
