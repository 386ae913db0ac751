/**
 * Counts the timer callbacks of our code (extension/), attributed to where each timer was armed, in two modes:
 * - real: timers run on Node's clock; a callback that fires while `counting` is counted;
 * - virtual (`useVirtualTime`): our timers — also those already pending, with the time they had left — move onto a
 *   virtual clock that only `advance` moves, and `Date.now` follows it, so ten minutes of idling take a second.
 * Timers armed elsewhere (Node internals, tsx, node_modules) always stay real: sockets keep doing real I/O, and
 * connection handshakes made before the switch are untouched. Each fired virtual timer is followed by a short real
 * pause, so the I/O it started (a request and its answer) settles before virtual time moves on — a request timeout
 * armed by that I/O must not expire just because the clock jumped.
 */
import { relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** Frames that only pass a timer on (the clock abstraction): the one who armed it is further up. */
const PASS_THROUGH = /extension\/drivers\/kit\/clock\.ts$/;

/**
 * Where a timer was armed: the first two frames in extension/ past the clock (path:line ← path:line); the clock's
 * own frame when nothing of ours is above it (a callback after an await); "elsewhere" when no frame is ours.
 */
export function armedAt(stack = new Error().stack): string {
  const ours: string[] = [];
  let clock: string | undefined;
  for (const line of stack?.split('\n').slice(1) ?? []) {
    const match = /\((.*):(\d+):\d+\)$/.exec(line) ?? /at (.*):(\d+):\d+$/.exec(line);
    if (!match || !match[1]!.includes(`${ROOT}/extension/`)) {
      continue;
    }
    const frame = `${relative(ROOT, match[1]!)}:${match[2]}`;
    if (PASS_THROUGH.test(match[1]!)) {
      clock ??= frame;
      continue;
    }
    ours.push(frame);
    if (ours.length === 2) {
      break;
    }
  }
  return ours.length > 0 ? ours.join(' ← ') : (clock ?? 'elsewhere');
}

type Callback = (...args: unknown[]) => void;

/** Node's own coercion of a delay: anything outside 1 ms … 2^31-1 ms becomes 1 ms. */
function delayOf(ms: unknown): number {
  const n = Number(ms);
  return n >= 1 && n <= 2 ** 31 - 1 ? n : 1;
}

/** The handle of one of our timers: the part of Node's `Timeout` that code uses (ref/unref/hasRef/refresh). */
export class CensusTimer {
  realHandle: ReturnType<typeof setTimeout> | undefined;
  /** On the clock it currently runs on (real ms, or virtual ms in virtual mode). */
  due: number;
  done = false;
  private referenced = true;

  constructor(
    readonly site: string,
    readonly repeat: boolean,
    readonly ms: number,
    readonly callback: Callback,
    readonly args: readonly unknown[],
    now: number,
  ) {
    this.due = now + ms;
  }

  ref(): this {
    this.referenced = true;
    this.realHandle?.ref();
    return this;
  }

  unref(): this {
    this.referenced = false;
    this.realHandle?.unref();
    return this;
  }

  hasRef(): boolean {
    return this.referenced;
  }

  refresh(): this {
    this.realHandle?.refresh();
    return this;
  }
}

export class TimerCensus {
  /** Real mode: whether a firing callback is counted. Virtual mode always counts. */
  counting = false;
  readonly fired = new Map<string, number>();
  /** Our timers that are armed and have not fired (or, for intervals, not been cleared). */
  private readonly pending = new Set<CensusTimer>();
  private virtual = false;
  /** Bumped whenever one of our timers is armed, cleared or fires: `settle` waits for it to stand still. */
  private changes = 0;
  /** Added to the real Date.now while virtual: how far `advance` moved the clock. */
  private offset = 0;
  private readonly originals = {
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    clearTimeout: globalThis.clearTimeout,
    clearInterval: globalThis.clearInterval,
    now: Date.now,
  };

  /** Total fired callbacks of ours since the last `reset`. */
  get total(): number {
    return [...this.fired.values()].reduce((a, b) => a + b, 0);
  }

  /** The sites that fired, most first (`path:line ← path:line ×n`). */
  sites(): string[] {
    return [...this.fired.entries()].sort((a, b) => b[1] - a[1]).map(([site, n]) => `${site} ×${n}`);
  }

  /** Sites of our timers that are armed right now. */
  pendingSites(): string[] {
    return [...this.pending].map((t) => `${t.site} (${t.repeat ? 'every' : 'in'} ${t.ms} ms)`);
  }

  reset(): void {
    this.fired.clear();
  }

  install(): void {
    const arm = (repeat: boolean, original: typeof setTimeout) =>
      ((callback: Callback, ms?: number, ...args: unknown[]) => {
        const site = armedAt();
        if (site === 'elsewhere') {
          return (original as unknown as (...a: unknown[]) => unknown)(callback, ms, ...args);
        }
        const timer = new CensusTimer(site, repeat, delayOf(ms), callback, args, this.virtual ? this.virtualNow() : this.originals.now());
        this.pending.add(timer);
        this.changes++;
        if (!this.virtual) {
          this.armReal(timer);
        }
        return timer;
      }) as unknown as typeof setTimeout;
    const clear = (original: typeof clearTimeout) =>
      ((handle: unknown) => {
        if (handle instanceof CensusTimer) {
          this.cancel(handle);
        } else {
          original(handle as ReturnType<typeof setTimeout>);
        }
      }) as typeof clearTimeout;
    globalThis.setTimeout = arm(false, this.originals.setTimeout);
    globalThis.setInterval = arm(true, this.originals.setInterval as unknown as typeof setTimeout) as unknown as typeof setInterval;
    globalThis.clearTimeout = clear(this.originals.clearTimeout);
    globalThis.clearInterval = clear(this.originals.clearInterval as unknown as typeof clearTimeout) as unknown as typeof clearInterval;
  }

  uninstall(): void {
    for (const timer of this.pending) {
      this.cancel(timer);
    }
    globalThis.setTimeout = this.originals.setTimeout;
    globalThis.setInterval = this.originals.setInterval;
    globalThis.clearTimeout = this.originals.clearTimeout;
    globalThis.clearInterval = this.originals.clearInterval;
    Date.now = this.originals.now;
    this.virtual = false;
  }

  /** Moves our pending timers (with the time they have left) and every later one onto the virtual clock. */
  useVirtualTime(): void {
    if (this.virtual) {
      return;
    }
    const now = this.originals.now();
    this.offset = 0;
    this.virtual = true;
    const original = this.originals.now;
    Date.now = () => original() + this.offset;
    for (const timer of this.pending) {
      if (timer.realHandle !== undefined) {
        (timer.repeat ? this.originals.clearInterval : this.originals.clearTimeout)(timer.realHandle);
        timer.realHandle = undefined;
      }
      // Real-clock due time → virtual: the virtual clock starts at the real now.
      timer.due = Math.max(now, timer.due);
    }
  }

  /**
   * Moves virtual time forward by `ms`, firing (and counting) every timer of ours that comes due, in due order,
   * with `settleMs` of real time after each for the I/O it started. Stops early after `maxFirings` (a runaway loop).
   */
  async advance(ms: number, settleMs = 50, maxFirings = 10_000): Promise<void> {
    const end = this.virtualNow() + ms;
    let firings = 0;
    for (;;) {
      await this.settle(settleMs);
      const next = this.nextDue();
      if (!next || next.due > end || firings >= maxFirings) {
        break;
      }
      this.offset += Math.max(0, next.due - this.virtualNow());
      if (next.repeat) {
        next.due += next.ms;
      } else {
        next.done = true;
        this.pending.delete(next);
      }
      firings++;
      this.count(next.site);
      next.callback(...next.args);
    }
    this.offset += Math.max(0, end - this.virtualNow());
    await this.settle(settleMs);
  }

  private virtualNow(): number {
    return this.originals.now() + this.offset;
  }

  private nextDue(): CensusTimer | undefined {
    let next: CensusTimer | undefined;
    for (const timer of this.pending) {
      if (!next || timer.due < next.due) {
        next = timer;
      }
    }
    return next;
  }

  /**
   * Real time for the I/O in flight: pauses of `ms` until one passes in which none of our timers was armed, cleared
   * or fired (a request answered clears its timeout), at most 40 of them.
   */
  private async settle(ms: number): Promise<void> {
    for (let i = 0; i < 40; i++) {
      const before = this.changes;
      await new Promise((done) => this.originals.setTimeout(done, ms));
      if (this.changes === before) {
        return;
      }
    }
  }

  private armReal(timer: CensusTimer): void {
    const fire = (): void => {
      if (!timer.repeat) {
        timer.done = true;
        this.pending.delete(timer);
        timer.realHandle = undefined;
      }
      if (this.counting) {
        this.count(timer.site);
      }
      timer.callback(...timer.args);
    };
    timer.realHandle = timer.repeat ? this.originals.setInterval(fire, timer.ms) : this.originals.setTimeout(fire, timer.ms);
    if (!timer.hasRef()) {
      timer.realHandle.unref();
    }
  }

  private cancel(timer: CensusTimer): void {
    if (timer.realHandle !== undefined) {
      (timer.repeat ? this.originals.clearInterval : this.originals.clearTimeout)(timer.realHandle);
      timer.realHandle = undefined;
    }
    timer.done = true;
    this.pending.delete(timer);
    this.changes++;
  }

  private count(site: string): void {
    this.changes++;
    this.fired.set(site, (this.fired.get(site) ?? 0) + 1);
  }
}
