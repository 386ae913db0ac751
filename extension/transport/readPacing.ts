/**
 * How much of a backlog a reader delivers in one turn of the event loop (issue #25 §3: the host never stalls). One
 * socket read can hold hundreds of frames, and what a listener does with each (fold it into a 100k-item run, journal
 * it) is the host's main thread: a turn ends after `maxFramesPerTurn` frames or `maxMsPerTurn` of work, whichever
 * comes first, and the rest waits for a later turn while timers, I/O and the UI run. The time budget counts from
 * `minFramesPerTurn` frames on: a small read is delivered whole (its streamed chunks fold into one record), and one
 * slow frame (a cold path, a large payload) does not cut a read into turns of a frame or two.
 */
import { performance } from 'node:perf_hooks';

export interface ReadPacing {
  /** Most frames delivered in one turn (default 1,024). */
  readonly maxFramesPerTurn?: number;
  /** Frames a turn delivers before its time budget counts (default 32). */
  readonly minFramesPerTurn?: number;
  /**
   * Most milliseconds of work in one turn, delivering included (default 8: well under the 50 ms a stall may last,
   * and long enough that the turns themselves cost nothing measurable).
   */
  readonly maxMsPerTurn?: number;
  /** The clock the budget is read from (tests). */
  readonly now?: () => number;
}

const DEFAULT_FRAMES = 1024;
const DEFAULT_MIN_FRAMES = 32;
const DEFAULT_MS = 8;
const systemNow = (): number => performance.now();

/** One turn's budget: `spend` after each frame says whether the turn is over. */
export class ReadTurn {
  private frames = 0;
  private readonly started: number;
  private readonly now: () => number;
  private readonly maxFrames: number;
  private readonly minFrames: number;
  private readonly maxMs: number;

  constructor(pacing: ReadPacing) {
    this.now = pacing.now ?? systemNow;
    this.maxFrames = pacing.maxFramesPerTurn ?? DEFAULT_FRAMES;
    this.minFrames = pacing.minFramesPerTurn ?? DEFAULT_MIN_FRAMES;
    this.maxMs = pacing.maxMsPerTurn ?? DEFAULT_MS;
    this.started = this.now();
  }

  /** Counts one delivered frame; true once the turn has used its frames or its time. */
  spend(): boolean {
    this.frames += 1;
    return this.frames >= this.maxFrames || (this.frames >= this.minFrames && this.now() - this.started >= this.maxMs);
  }
}
