/**
 * A `Clock` whose time moves only when a test says so. `advance(ms)` runs every timer due within the window in due
 * order (ties in the order they were set), moving `now()` to each timer's due time before its callback, so code
 * that reads the clock inside a callback sees the time it was scheduled for. Callbacks may set or clear timers.
 */
import type { Clock } from './clock';

interface Scheduled {
  readonly handle: number;
  at: number;
  readonly callback: () => void;
  /** Set for intervals: re-armed after each run. */
  readonly everyMs?: number;
}

export class ManualClock implements Clock {
  private time: number;
  private nextHandle = 1;
  private readonly scheduled = new Map<number, Scheduled>();

  constructor(startMs = 0) {
    this.time = startMs;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    return this.add(callback, ms);
  }

  clearTimeout(handle: unknown): void {
    this.scheduled.delete(handle as number);
  }

  setInterval(callback: () => void, ms: number): unknown {
    // A zero interval would fire forever within one advance; Node clamps to 1 ms too.
    const everyMs = Math.max(1, ms);
    return this.add(callback, everyMs, everyMs);
  }

  clearInterval(handle: unknown): void {
    this.scheduled.delete(handle as number);
  }

  /** Timers (one-shot and interval) not yet run or cleared. */
  get pendingCount(): number {
    return this.scheduled.size;
  }

  /** Delay from now to the earliest timer, or undefined when none is set. */
  get nextDelay(): number | undefined {
    const next = this.earliest();
    return next === undefined ? undefined : next.at - this.time;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: number): void {
    const until = this.time + Math.max(0, ms);
    for (let next = this.earliest(); next !== undefined && next.at <= until; next = this.earliest()) {
      this.time = Math.max(this.time, next.at);
      this.run(next);
    }
    this.time = until;
  }

  /** Runs the earliest timer (moving time to it); false when none is set. */
  runNext(): boolean {
    const next = this.earliest();
    if (next === undefined) {
      return false;
    }
    this.time = Math.max(this.time, next.at);
    this.run(next);
    return true;
  }

  private add(callback: () => void, ms: number, everyMs?: number): number {
    const handle = this.nextHandle++;
    const entry: Scheduled = { handle, at: this.time + Math.max(0, ms), callback, ...(everyMs !== undefined ? { everyMs } : {}) };
    this.scheduled.set(handle, entry);
    return handle;
  }

  private run(entry: Scheduled): void {
    if (entry.everyMs === undefined) {
      this.scheduled.delete(entry.handle);
    } else {
      entry.at += entry.everyMs;
    }
    entry.callback();
  }

  private earliest(): Scheduled | undefined {
    let best: Scheduled | undefined;
    for (const entry of this.scheduled.values()) {
      // Map order is insertion order, so `<` keeps ties in the order they were set.
      if (best === undefined || entry.at < best.at) {
        best = entry;
      }
    }
    return best;
  }
}
