/**
 * How long the extension host's main thread stalls (issue #25 §3): the longest time during which nothing queued on
 * the event loop could run. Measured at once, three ways:
 *
 * - the probe's own: a chain of 1 ms timers, each recording the wall time since the previous one fired. A timer
 *   cannot fire while JavaScript runs, so the longest gap bounds the longest stall from above, plus the timer's
 *   granularity (~1 ms) and whatever the OS adds — on a machine shared with other busy processes, a lot: the
 *   main thread waits on the run queue while it is ready to run.
 * - hence, on Linux, the main thread's own scheduler figures over every gap (/proc/self/task/<pid>/schedstat: time
 *   run and time waited to run, in ns): the largest time the thread *ran* within one gap is the stall the work
 *   itself causes — what a user's machine that is not running anything else would see — whatever the load of
 *   this one. It is the figure the rows are judged by; the wall gap and the run-queue wait are shown beside it.
 *   (Elsewhere the process's CPU stands in: it also counts GC helper and libuv threads, so it overstates.)
 * - Node's `monitorEventLoopDelay` (resolution 1 ms), wall clock: the figure other tools report.
 *
 * A timer (not `setImmediate`) on purpose: a chain of immediates keeps the loop spinning at 100% CPU, which would
 * both load the shared machine and change what is measured.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';
import type { BenchRow } from './benchKit';

/** Issue #25 §3: no main-thread stall of the host over this. */
export const STALL_TARGET_MS = 50;

export interface StallSample {
  /** The most the main thread ran within one gap between probe ticks, ms (see the file comment): the stall. */
  readonly stallMs: number;
  /** How `stallMs` was measured: the thread's schedstat, or the process's CPU where there is none. */
  readonly stallClock: 'thread' | 'process';
  /** The longest gap between two probe ticks, wall clock, ms. */
  readonly maxGapMs: number;
  /** Of that gap, the time the main thread waited on the run queue (the machine's load), ms; NaN without schedstat. */
  readonly waitInMaxGapMs: number;
  /** `monitorEventLoopDelay`'s max delay, ms. */
  readonly loopDelayMaxMs: number;
  /** Gaps in which the main thread ran more than 50 ms (the target's bound). */
  readonly over50: number;
  /** How long the probe watched, ms. */
  readonly durationMs: number;
}

/** The main thread's run and wait times, ms, from its schedstat (undefined where there is none). */
export class ThreadClock {
  private readonly fd: number | undefined;
  private readonly buffer = Buffer.alloc(128);

  constructor() {
    try {
      this.fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
    } catch {
      this.fd = undefined;
    }
  }

  get available(): boolean {
    return this.fd !== undefined;
  }

  /** [ran, waited] so far, ms; the process's CPU and NaN without schedstat. */
  read(): [number, number] {
    if (this.fd === undefined) {
      const usage = process.cpuUsage();
      return [(usage.user + usage.system) / 1000, Number.NaN];
    }
    const n = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    const [run, wait] = this.buffer.toString('latin1', 0, n).split(' ');
    return [Number(run) / 1e6, Number(wait) / 1e6];
  }

  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
    }
  }
}

export class StallProbe {
  private readonly clock = new ThreadClock();
  private last = 0;
  private lastRun = 0;
  private lastWait = 0;
  private maxGap = 0;
  private waitInMax = Number.NaN;
  private maxRun = 0;
  private over50 = 0;
  private started = 0;
  private timer: NodeJS.Timeout | undefined;
  private histogram: IntervalHistogram | undefined;

  /** Starts watching (once per probe). */
  start(): this {
    this.histogram = monitorEventLoopDelay({ resolution: 1 });
    this.histogram.enable();
    this.started = this.last = performance.now();
    [this.lastRun, this.lastWait] = this.clock.read();
    this.tick();
    return this;
  }

  /** Stops and reports; the tick pending now counts as a last gap (a stall at the very end is not missed). */
  stop(): StallSample {
    this.record();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.histogram?.disable();
    this.clock.close();
    return {
      stallMs: this.maxRun,
      stallClock: this.clock.available ? 'thread' : 'process',
      maxGapMs: this.maxGap,
      waitInMaxGapMs: this.waitInMax,
      loopDelayMaxMs: this.histogram ? this.histogram.max / 1e6 : Number.NaN,
      over50: this.over50,
      durationMs: performance.now() - this.started,
    };
  }

  private tick(): void {
    this.timer = setTimeout(() => {
      this.record();
      this.tick();
    }, 1);
  }

  private record(): void {
    const at = performance.now();
    const [run, wait] = this.clock.read();
    const gap = at - this.last;
    const ran = run - this.lastRun;
    if (gap > this.maxGap) {
      this.maxGap = gap;
      this.waitInMax = wait - this.lastWait;
    }
    this.maxRun = Math.max(this.maxRun, ran);
    if (ran > STALL_TARGET_MS) {
      this.over50 += 1;
    }
    this.last = at;
    this.lastRun = run;
    this.lastWait = wait;
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

/** A bench row of `sample` against the idle host's `idle`. Target: no stall over STALL_TARGET_MS. */
export function stallRow(id: string, name: string, sample: StallSample, idle: StallSample, note: string): BenchRow {
  const clock = sample.stallClock === 'thread' ? "the main thread's run time in the gap" : "the process's CPU in the gap (no schedstat)";
  return {
    id,
    name,
    value: sample.stallMs,
    unit: 'ms',
    // No ratio: the target is absolute, and the repetitions are folded by their value (the stall), not by a ratio
    // to an idle figure.
    baseline: { label: 'idle host, same probe', value: idle.stallMs, unit: 'ms' },
    target: `≤ ${STALL_TARGET_MS} ms`,
    met: sample.stallMs <= STALL_TARGET_MS,
    note:
      `${clock}; wall: longest gap ${sample.maxGapMs.toFixed(0)} ms (of it ${sample.waitInMaxGapMs.toFixed(0)} ms waiting for a CPU), ` +
      `monitorEventLoopDelay max ${sample.loopDelayMaxMs.toFixed(0)} ms, idle ${idle.maxGapMs.toFixed(0)} ms; ` +
      `${sample.over50} gap(s) with over ${STALL_TARGET_MS} ms run, in ${sample.durationMs.toFixed(0)} ms; ${note}`,
  };
}
