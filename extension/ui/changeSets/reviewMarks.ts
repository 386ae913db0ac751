/**
 * The one owner and writer of the person's review marks (issue #26): per run, the content keys of the hunks (and
 * files without hunks) marked *reviewed* (changeSets/reviewState.ts), kept in `<run>.review.json` beside the run's
 * journal (storage/reviewMarksFile.ts), so they survive reloads and new turns and go when the run is removed.
 *
 * Every surface asks here: the change-set view (its toggles and summary), the native diff's *Mark File Reviewed*, the
 * palette, the board's "N of M hunks reviewed". A run's marks are read once, when something first asks; a change is
 * written through and then told (`onDidChange`) to every surface. Pure (no `vscode`).
 */
import { Emitter } from '../../base/emitter';
import type { Event } from '../../base/emitter';
import type { PatchFile } from '../../changeSets/patchTypes';
import type { ReviewMarks, ReviewProgress, ReviewUnit } from '../../changeSets/reviewState';
import { NO_MARKS, reviewProgress, reviewUnitsOf, withReview } from '../../changeSets/reviewState';
import { runFilePlaceOf } from '../../drivers/kit/runJournaling';
import type { RunFilePlace } from '../../drivers/kit/runJournaling';
import type { ChangeSetInfo } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { readReviewMarks, updateReviewMarks } from '../../storage/reviewMarksFile';
import { changeSetRead } from './changeSetReading';

/** A review toggle the caller resolved against the change set it shows: its units must still be there. */
export class StaleReviewError extends Error {
  constructor() {
    super('That hunk changed meanwhile (the agent edited it again?): the change set is shown as it is now.');
  }
}

// Units are hashed once per change-set object (the reducer replaces the object when the change set changes).
const unitsCache = new WeakMap<readonly PatchFile[], ReviewUnit[][]>();

/** The review units of a change set's files (cached per parse). */
export function unitsOf(files: readonly PatchFile[]): ReviewUnit[][] {
  let units = unitsCache.get(files);
  if (!units) {
    units = reviewUnitsOf(files);
    unitsCache.set(files, units);
  }
  return units;
}

const countCache = new WeakMap<ReviewMarks, WeakMap<readonly PatchFile[], Pick<ReviewProgress, 'reviewed' | 'total'>>>();

export class ReviewMarksStore {
  private readonly marks = new Map<string, ReviewMarks>();
  private readonly loading = new Map<string, Promise<ReviewMarks>>();
  private readonly changeEmitter = new Emitter<string>();
  /** A run's marks changed (or were read for the first time): its key. */
  readonly onDidChange: Event<string> = this.changeEmitter.event;

  constructor(
    private readonly storageDir: string,
    private readonly store: Pick<RunStore, 'state'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Where the run's files are (its connection's folder), and its id there; undefined for a run no longer known. */
  private where(runKey: string): RunFilePlace | undefined {
    return runFilePlaceOf(this.storageDir, this.store.state.runs.get(runKey));
  }

  /** The run's marks, read from disk the first time. */
  load(runKey: string): Promise<ReviewMarks> {
    const known = this.marks.get(runKey);
    if (known) {
      return Promise.resolve(known);
    }
    let pending = this.loading.get(runKey);
    if (!pending) {
      const where = this.where(runKey);
      pending = (where ? readReviewMarks(where.dir, where.runId) : Promise.resolve(NO_MARKS)).then((read) => {
        this.loading.delete(runKey);
        if (!this.marks.has(runKey)) {
          this.marks.set(runKey, read);
          this.changeEmitter.fire(runKey);
        }
        return this.marks.get(runKey)!;
      });
      this.loading.set(runKey, pending);
    }
    return pending;
  }

  /** The run's marks if read; otherwise starts reading them (`onDidChange` says when) and answers undefined. */
  peek(runKey: string): ReviewMarks | undefined {
    const known = this.marks.get(runKey);
    if (!known) {
      void this.load(runKey);
    }
    return known;
  }

  /** How the run's marks meet its change set's files. */
  async progress(runKey: string, files: readonly PatchFile[]): Promise<ReviewProgress> {
    return reviewProgress(await this.load(runKey), unitsOf(files));
  }

  /**
   * "N of M" of a ready change set without waiting: undefined while its patch or the marks are still read (the board
   * asks again when either read ends), or when it has nothing to review.
   */
  progressNow(runKey: string, info: ChangeSetInfo | undefined): Pick<ReviewProgress, 'reviewed' | 'total'> | undefined {
    if (info?.status !== 'ready') {
      return undefined;
    }
    const read = changeSetRead(info);
    if (read.reading === true || !read.ok || read.files.length === 0) {
      return undefined;
    }
    const marks = this.peek(runKey);
    if (!marks) {
      return undefined;
    }
    // The board projects on every store change: counted once per (marks, change set) pair, both replaced on change.
    let perFiles = countCache.get(marks);
    if (!perFiles) {
      perFiles = new WeakMap();
      countCache.set(marks, perFiles);
    }
    let count = perFiles.get(read.files);
    if (!count) {
      const { reviewed, total } = reviewProgress(marks, unitsOf(read.files));
      count = { reviewed, total };
      perFiles.set(read.files, count);
    }
    return count;
  }

  /**
   * Marks units of file `fileIndex` reviewed (or not): those with `keys` (every unit of the file when absent). Throws
   * StaleReviewError when a key is not among the file's units now.
   */
  async setReviewed(runKey: string, files: readonly PatchFile[], fileIndex: number, reviewed: boolean, keys?: readonly string[]): Promise<ReviewMarks> {
    const fileUnits = unitsOf(files)[fileIndex];
    if (!fileUnits) {
      throw new StaleReviewError();
    }
    const units = keys === undefined ? fileUnits : keys.map((key) => fileUnits.find((u) => u.key === key));
    if (units.some((u) => u === undefined) || units.length === 0) {
      throw new StaleReviewError();
    }
    const where = this.where(runKey);
    if (!where) {
      throw new Error('That run is no longer known.');
    }
    await this.load(runKey);
    const change = { units: units as ReviewUnit[], fileUnits, reviewed, now: this.now() };
    const written = await updateReviewMarks(where.dir, where.runId, (marks) => withReview(marks, change));
    this.marks.set(runKey, written);
    this.changeEmitter.fire(runKey);
    return written;
  }

  /** A removed run's marks are forgotten here (its file went with the run's others). */
  forget(runKey: string): void {
    this.marks.delete(runKey);
    this.loading.delete(runKey);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
