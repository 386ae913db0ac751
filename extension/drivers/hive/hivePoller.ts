/**
 * The hive driver's polling rhythm. mcp.sock has no push channel (WIRE.md 4.2), so the driver polls the cheap
 * `status` of every agent. To stay quiet on an idle hive the interval doubles after every poll that saw nothing new
 * (2 s → 4 → 8 → 16 → 30 s cap); a change or a user action resets it to the fastest rate. Polls never overlap:
 * the next one is armed only after the previous finished. Timers are injectable so tests can step through polls.
 */
import { exponentialCeiling } from '../../transport/backoff';
import { systemClock } from '../kit/clock';
import type { Timeouts } from '../kit/clock';

export const HIVE_POLL_MIN_MS = 2_000;
export const HIVE_POLL_MAX_MS = 30_000;

export class HivePoller {
  private handle: unknown;
  private armed = false;
  private running = false;
  private active = false;
  /** Set by `reset` while a poll runs: the poll's own verdict must not push the interval up. */
  private kicked = false;
  private idlePolls = 0;

  /**
   * @param poll one round of polling; resolves `true` when it saw a change (rejections count as "no change").
   */
  constructor(
    private readonly poll: () => Promise<boolean>,
    private readonly timers: Timeouts = systemClock,
    private readonly minMs = HIVE_POLL_MIN_MS,
    private readonly maxMs = HIVE_POLL_MAX_MS,
  ) {}

  /** The delay the next poll is (or will be) armed with. */
  get currentDelayMs(): number {
    return exponentialCeiling(this.idlePolls, this.minMs, this.maxMs);
  }

  get isActive(): boolean {
    return this.active;
  }

  start(): void {
    this.active = true;
    this.idlePolls = 0;
    this.rearm();
  }

  stop(): void {
    this.active = false;
    this.disarm();
  }

  /** Something changed or the user acted: poll again soon, at the fastest rate. */
  reset(): void {
    this.idlePolls = 0;
    if (this.running) {
      this.kicked = true;
      return;
    }
    if (this.active) {
      this.rearm();
    }
  }

  private rearm(): void {
    this.disarm();
    this.armed = true;
    this.handle = this.timers.setTimeout(() => {
      this.armed = false;
      this.handle = undefined;
      void this.run();
    }, this.currentDelayMs);
  }

  private disarm(): void {
    if (this.armed) {
      this.timers.clearTimeout(this.handle);
      this.armed = false;
      this.handle = undefined;
    }
  }

  private async run(): Promise<void> {
    if (!this.active || this.running) {
      return;
    }
    this.running = true;
    this.kicked = false;
    let changed = false;
    try {
      changed = await this.poll();
    } catch {
      // The poll reports its own errors; a failed round counts as idle (`changed` stays false).
    } finally {
      this.running = false;
    }
    if (changed || this.kicked) {
      this.idlePolls = 0;
    } else {
      this.idlePolls += 1;
    }
    this.kicked = false;
    if (this.active) {
      this.rearm();
    }
  }
}
