/**
 * When to re-read a daemon's run list that has no push for runs started by other clients (AgencyProxy: `list_runs`
 * is the only way to see them, WIRE.md 1.9). Refreshes once when the list becomes watched (view shown while the
 * window has focus, or focus regained while the view is shown), then at a slow cadence while it stays watched, and
 * never while the view is hidden or the window unfocused: nobody would see the result. Pure: the clock and the
 * timers are injected, so the policy is unit-tested without waiting.
 */

export interface CadenceTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: CadenceTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RefreshCadenceOptions {
  /** Time between refreshes while watched (counted from the end of the previous one, so they never overlap). */
  readonly intervalMs: number;
  /** A trigger this soon after the last refresh started does not refresh again (focus flapping, show+focus). */
  readonly minGapMs: number;
  readonly refresh: () => Promise<void>;
  readonly timers?: CadenceTimers;
}

export class RefreshCadence {
  private visible = false;
  private focused = false;
  private disposed = false;
  private timer: unknown;
  private inFlight = false;
  private lastStarted = Number.NEGATIVE_INFINITY;
  private readonly timers: CadenceTimers;

  constructor(private readonly options: RefreshCadenceOptions) {
    this.timers = options.timers ?? systemTimers;
  }

  /** Whether someone can see the list: the view is visible and the window has focus. */
  get watched(): boolean {
    return this.visible && this.focused && !this.disposed;
  }

  setVisible(visible: boolean): void {
    this.update(() => (this.visible = visible));
  }

  setFocused(focused: boolean): void {
    this.update(() => (this.focused = focused));
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private update(change: () => void): void {
    const was = this.watched;
    change();
    if (!this.watched) {
      this.cancelTimer();
    } else if (!was) {
      this.trigger();
    }
  }

  private trigger(): void {
    if (this.inFlight) {
      return; // the running refresh schedules the next one when it ends
    }
    const sinceLast = this.timers.now() - this.lastStarted;
    if (sinceLast < this.options.minGapMs) {
      this.schedule(this.options.intervalMs - sinceLast);
      return;
    }
    void this.runRefresh();
  }

  private async runRefresh(): Promise<void> {
    this.cancelTimer();
    this.inFlight = true;
    this.lastStarted = this.timers.now();
    try {
      await this.options.refresh();
    } catch {
      // The refresh reports its own errors; the cadence just carries on.
    } finally {
      this.inFlight = false;
    }
    if (this.watched) {
      this.schedule(this.options.intervalMs);
    }
  }

  private schedule(ms: number): void {
    this.cancelTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      if (this.watched) {
        void this.runRefresh();
      }
    }, Math.max(0, ms));
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
