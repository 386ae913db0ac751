/**
 * Wakes the board when a live run's elapsed-time text would next change ("2 min" → "3 min"), not on a fixed beat:
 * one timer for all rows, set for the soonest change, and none while nothing live is shown.
 */
import { untilNextChange } from '../../model/elapsedText';

export class BoardTicker {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly tick: () => void) {}

  /** Sets the timer for the rows started at `startedAts` (none: stops). */
  schedule(startedAts: readonly number[]): void {
    this.stop();
    if (startedAts.length === 0) {
      return;
    }
    const now = Date.now();
    const wait = Math.min(...startedAts.map((startedAt) => untilNextChange(now - startedAt)));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, wait);
  }

  stop(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
