/**
 * Runs one task per key at a time, and if it is asked for again while running, once more afterwards (never more):
 * the latest request is always served, and a burst of requests (answers replayed after an attach, repeated clicks
 * on Show Change Set) costs at most two runs. Used for change sets computed from the working tree, which take a
 * git snapshot each time. Requests for one key must do the same work (a rerun repeats the first caller's task).
 * Pure: no timers, no I/O of its own.
 */
export class CoalescedTasks {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  /** Resolves once a run that started at or after this call has finished (errors are the task's to report). */
  run(key: string, task: () => Promise<unknown>): Promise<void> {
    const current = this.running.get(key);
    if (current) {
      // The loop below runs the task once more before `current` resolves, so waiting for it serves this request.
      this.again.add(key);
      return current;
    }
    const loop = (async () => {
      do {
        this.again.delete(key);
        await task().catch(() => undefined);
      } while (this.again.has(key));
    })().finally(() => this.running.delete(key));
    this.running.set(key, loop);
    return loop;
  }
}
