/**
 * The one clock and timer abstraction of the drivers. Everything that waits (pollers, backoff, request timeouts)
 * takes a `Clock` — or the `Pick` of it that it uses — so tests drive time through `ManualClock` (or their own
 * fake) instead of sleeping. Handles are opaque: the system clock's are Node timers, a fake's anything it likes.
 */

export interface Clock {
  /** Milliseconds since the epoch (Date.now for the system clock). */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** What one-shot waiters need (pollers, request tables): most users take this, so small fakes suffice. */
export type Timeouts = Pick<Clock, 'setTimeout' | 'clearTimeout'>;

/** Timeouts plus the time, for schedules that measure elapsed time. */
export type TimedTimeouts = Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};
