/**
 * The one polling loop of the drivers. Daemons without a push channel (hive's `status`, A3S's event store) are read
 * by calling `tick()` again and again; how soon depends on what the last tick saw:
 * - `changed`: something new, so more is likely: the next tick comes at the base interval;
 * - `unchanged`: the source is idle: the interval grows by `factor` up to `maxMs` (transport/backoff.ts math), so an
 *   idle daemon is not hammered;
 * - `failed` (or a rejected tick): the interval grows the same way, counted from the tick's end: a tick that failed
 *   by timing out must not be retried at once. The first answer after failures restarts from the base interval,
 *   because the daemon is back and the backoff said nothing about how busy it is;
 * - `stop`: the work is over (a finished run, a fatal error): the poller stops itself.
 * A verdict with `again: true` (a page that says more is waiting) runs the next tick at once without a timer and
 * without growing the interval. Ticks never overlap: the next is armed only when the previous settled, and at most
 * one timer is ever pending. Time comes from the kit's `Timeouts`, so tests step through it with `ManualClock`.
 */
import { exponentialCeiling } from '../../transport/backoff';
import { systemClock } from './clock';
import type { Timeouts, TimedTimeouts } from './clock';

export type TickOutcome = 'changed' | 'unchanged' | 'failed' | 'stop';

/** A tick's verdict when more is waiting right now: tick again at once (`changed` still resets the interval). */
export interface TickAgain {
  readonly outcome: 'changed' | 'unchanged';
  readonly again: true;
}

export type TickVerdict = TickOutcome | TickAgain;

/**
 * Where a successful tick's delay is counted from. `tickEnd` (default) waits the full interval after each tick;
 * `tickStart` subtracts the tick's own duration so a slow source is still read at a steady cadence, which needs the
 * time. Failed ticks always count from their end (see above).
 */
export type PollerTiming =
  | { readonly cadenceFrom?: 'tickEnd'; readonly timers?: Timeouts }
  | { readonly cadenceFrom: 'tickStart'; readonly timers?: TimedTimeouts };

export type PollerOptions = PollerTiming & {
  readonly tick: () => Promise<TickVerdict>;
  /** The fastest interval (after a change, a reset or a poke), in ms (> 0). */
  readonly baseMs: number;
  /** The cap of the idle/failure backoff, in ms (raised to baseMs when smaller). */
  readonly maxMs: number;
  /** Growth per idle or failed tick (default 2). */
  readonly factor?: number;
};

export class Poller {
  private readonly timers: Timeouts;
  private readonly now: (() => number) | undefined;
  private readonly maxMs: number;
  private readonly factor: number;
  private active = false;
  /** Bumped by start/stop: a tick that settles for an older generation neither arms nor counts. */
  private generation = 0;
  private handle: unknown;
  private armed = false;
  /** Set synchronously when a tick starts, so a tick that pokes or resets before its first await is still "running". */
  private running = false;
  private inFlight: Promise<void> | undefined;
  /** A poke (or a start that wants a tick now) arrived while a tick ran: run one more right after it. */
  private queued = false;
  /** A reset arrived while a tick ran: that tick's own verdict must not push the interval up. */
  private kicked = false;
  private streak = 0;
  private failures = 0;

  constructor(private readonly options: PollerOptions) {
    if (!(options.baseMs > 0)) {
      throw new RangeError(`poller needs baseMs > 0 (got ${options.baseMs})`);
    }
    this.maxMs = Math.max(options.baseMs, options.maxMs);
    this.factor = options.factor ?? 2;
    if (options.cadenceFrom === 'tickStart') {
      const timers = options.timers ?? systemClock;
      this.timers = timers;
      this.now = () => timers.now();
    } else {
      this.timers = options.timers ?? systemClock;
      this.now = undefined;
    }
  }

  get isActive(): boolean {
    return this.active;
  }

  /** The interval the next tick is (or will be) armed with, before subtracting a tick's duration. */
  get currentDelayMs(): number {
    return exponentialCeiling(this.streak, this.options.baseMs, this.maxMs, this.factor);
  }

  /** Failed ticks in a row, not counting one in flight (for a caller's give-up rule). */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Resolves once no tick is in flight (at once when none is), e.g. to report an end after `stop()`. */
  get settled(): Promise<void> {
    return this.inFlight ?? Promise.resolve();
  }

  /**
   * (Re)starts at the base interval: the first tick runs after it, or at once with `tickNow` (a reader that has
   * to catch up first). Restarting an active poller starts its schedule afresh.
   */
  start(options: { readonly tickNow?: boolean } = {}): void {
    this.active = true;
    this.generation += 1;
    this.streak = 0;
    this.failures = 0;
    this.kicked = false;
    if (options.tickNow === true) {
      this.disarm();
      this.fire();
    } else {
      this.arm(this.currentDelayMs);
    }
  }

  /** Cancels the pending timer; a tick in flight finishes, but its verdict is ignored. */
  stop(): void {
    this.active = false;
    this.generation += 1;
    this.queued = false;
    this.disarm();
  }

  /** Something changed elsewhere: back to the base interval, re-armed from now (a running tick is not repeated). */
  reset(): void {
    this.streak = 0;
    if (this.running) {
      this.kicked = true;
    } else if (this.active) {
      this.arm(this.currentDelayMs);
    }
  }

  /** The user acted: tick now and restart at the base interval (after the running tick, if one runs). */
  poke(): void {
    this.streak = 0;
    if (!this.active) {
      return;
    }
    this.kicked = this.running;
    this.disarm();
    this.fire();
  }

  private fire(): void {
    if (this.running) {
      this.queued = true;
      return;
    }
    this.running = true;
    this.inFlight = this.run(this.generation).finally(() => {
      this.running = false;
      this.inFlight = undefined;
      if (this.queued && this.active) {
        this.queued = false;
        this.disarm();
        this.fire();
      }
    });
  }

  private async run(generation: number): Promise<void> {
    for (;;) {
      this.kicked = false;
      const startedAt = this.now?.();
      let verdict: TickVerdict;
      try {
        verdict = await this.options.tick();
      } catch {
        // The tick reports its own errors; a rejection is a failed round like any other.
        verdict = 'failed';
      }
      if (generation !== this.generation || !this.active) {
        return;
      }
      if (verdict === 'stop') {
        this.stop();
        return;
      }
      const again = typeof verdict === 'object';
      const outcome = typeof verdict === 'object' ? verdict.outcome : verdict;
      this.record(outcome, again);
      if (this.queued) {
        // A poke during the tick: the finally of fire() runs the next one at once.
        return;
      }
      if (!again) {
        this.arm(this.delayAfter(outcome, startedAt));
        return;
      }
    }
  }

  private record(outcome: 'changed' | 'unchanged' | 'failed', again: boolean): void {
    if (outcome === 'failed') {
      this.failures += 1;
      this.streak += 1;
    } else {
      if (this.failures > 0 || outcome === 'changed') {
        this.streak = 0;
      }
      this.failures = 0;
      if (outcome === 'unchanged' && !again) {
        this.streak += 1;
      }
    }
    if (this.kicked) {
      this.streak = 0;
      this.kicked = false;
    }
  }

  private delayAfter(outcome: 'changed' | 'unchanged' | 'failed', startedAt: number | undefined): number {
    const interval = this.currentDelayMs;
    if (outcome === 'failed' || startedAt === undefined || this.now === undefined) {
      return interval;
    }
    return Math.max(0, interval - (this.now() - startedAt));
  }

  private arm(ms: number): void {
    this.disarm();
    this.armed = true;
    this.handle = this.timers.setTimeout(() => {
      this.armed = false;
      this.handle = undefined;
      this.fire();
    }, ms);
  }

  private disarm(): void {
    if (this.armed) {
      this.timers.clearTimeout(this.handle);
      this.armed = false;
      this.handle = undefined;
    }
  }
}
