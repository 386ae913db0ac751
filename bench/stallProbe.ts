/**
 * How long the extension host's main thread stalls (issue #25 §3): the longest time during which nothing queued on
 * the event loop could run. Two measures, taken at once:
 *
 * - the probe's own: a chain of 1 ms timers, each recording the wall time since the previous one fired. A timer
 *   cannot fire while JavaScript runs, so the longest gap is an upper bound of the longest stall plus the timer's
 *   granularity (~1 ms, and whatever the OS adds: hence the idle baseline measured the same way). For the gap that
 *   was longest it also records the CPU the process used in it: a gap of CPU ≈ wall is our work; one of much less
 *   CPU than wall is the machine (2 shared cores) not running us.
 * - Node's `monitorEventLoopDelay` (resolution 1 ms): its max is the worst lateness of its own libuv timer, the
 *   figure other tools report; it agrees with the gap to about its resolution.
 *
 * A timer (not `setImmediate`) on purpose: a chain of immediates starves nothing but keeps the loop spinning at 100%
 * CPU, which would both load the shared machine and change what is measured.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';
import type { BenchRow } from './benchKit';

/** Issue #25 §3: no main-thread stall of the host over this. */
export const STALL_TARGET_MS = 50;

export interface StallSample {
  /** The longest gap between two probe ticks, wall clock, ms. */
  readonly maxGapMs: number;
  /** The process's CPU (all threads) during that gap, ms. */
  readonly cpuInMaxGapMs: number;
  /** `monitorEventLoopDelay`'s max delay, ms. */
  readonly loopDelayMaxMs: number;
  /** Gaps of more than 50 ms (the target's bound). */
  readonly over50: number;
  /** How long the probe watched, ms. */
  readonly durationMs: number;
}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export class StallProbe {
  private last = 0;
  private lastCpu = 0;
  private maxGap = 0;
  private cpuInMax = 0;
  private over50 = 0;
  private started = 0;
  private timer: NodeJS.Timeout | undefined;
  private histogram: IntervalHistogram | undefined;

  /** Starts watching (once per probe). */
  start(): this {
    this.histogram = monitorEventLoopDelay({ resolution: 1 });
    this.histogram.enable();
    this.started = this.last = performance.now();
    this.lastCpu = cpuNow();
    this.tick();
    return this;
  }

  /** Stops and reports; the tick pending now counts as a last gap (a stall at the very end is not missed). */
  stop(): StallSample {
    this.record();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.histogram?.disable();
    const loopDelayMaxMs = this.histogram ? this.histogram.max / 1e6 : Number.NaN;
    return { maxGapMs: this.maxGap, cpuInMaxGapMs: this.cpuInMax, loopDelayMaxMs, over50: this.over50, durationMs: performance.now() - this.started };
  }

  private tick(): void {
    this.timer = setTimeout(() => {
      this.record();
      this.tick();
    }, 1);
  }

  private record(): void {
    const at = performance.now();
    const cpu = cpuNow();
    const gap = at - this.last;
    if (gap > this.maxGap) {
      this.maxGap = gap;
      this.cpuInMax = cpu - this.lastCpu;
    }
    if (gap > 50) {
      this.over50 += 1;
    }
    this.last = at;
    this.lastCpu = cpu;
  }
}

/** Watches the event loop while `work` runs (and until what it returns settles). */
export async function stallsDuring(work: () => unknown): Promise<StallSample> {
  const probe = new StallProbe().start();
  // Let the probe's first timer be armed before the work takes the thread.
  await new Promise<void>((resolve) => setTimeout(resolve, 2));
  await work();
  // One more turn, so the timers that were due during the work fire (and monitorEventLoopDelay records its delay).
  await new Promise<void>((resolve) => setTimeout(resolve, 2));
  return probe.stop();
}

/** The idle host's figure over `ms` (the baseline of every stall row). */
export function idleStalls(ms: number): Promise<StallSample> {
  return stallsDuring(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

/** A bench row of `sample` against the idle host's `idle`. Target: no stall over STALL_STALL_TARGET_MS. */
export function stallRow(id: string, name: string, sample: StallSample, idle: StallSample, note: string): BenchRow {
  return {
    id,
    name,
    value: sample.maxGapMs,
    unit: 'ms',
    // No ratio: the target is absolute, and the repetitions are folded by their value (the stall), not by a ratio
    // to an idle figure that moves with the load of the machine.
    baseline: { label: 'idle host, same probe', value: idle.maxGapMs, unit: 'ms' },
    target: `≤ ${STALL_TARGET_MS} ms`,
    met: sample.maxGapMs <= STALL_TARGET_MS,
    note:
      `longest gap's CPU ${sample.cpuInMaxGapMs.toFixed(0)} ms; monitorEventLoopDelay max ${sample.loopDelayMaxMs.toFixed(1)} ms; ` +
      `${sample.over50} gap(s) over 50 ms in ${sample.durationMs.toFixed(0)} ms; ${note}`,
  };
}
