/**
 * Long work cut into slices of the event loop (issue #25 §3: the extension host never stalls over 50 ms). A loop
 * over 100k items calls `await slices.pause()` between steps; it gives the loop back (a macrotask: timers, I/O and
 * messages of the window run) once the current slice has used its budget, and costs a clock read otherwise. The
 * budget is well under the 50 ms bound, so one step may overrun it (a 1 MiB JSON.parse) and still stay under.
 */

/** The time one slice may take before it gives the loop back, ms. */
export const SLICE_BUDGET_MS = 8;

/** Gives the event loop one turn (timers and I/O that are due run first). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class TimeSlices {
  private sliceStart: number;
  private yields = 0;

  constructor(
    private readonly budgetMs: number = SLICE_BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sliceStart = now();
  }

  /** How often the loop was given back so far (for tests and the log). */
  get pauses(): number {
    return this.yields;
  }

  /** Gives the loop back if this slice has used its budget; resolves at once (same turn) otherwise. */
  async pause(): Promise<void> {
    if (this.now() - this.sliceStart < this.budgetMs) {
      return;
    }
    this.yields += 1;
    await yieldToEventLoop();
    this.sliceStart = this.now();
  }
}
