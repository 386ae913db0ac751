/**
 * The runs removed for good as one journal knows them (storage/runIndex.ts): what `removed.json` said when last read
 * or written (removedRunsFile.ts), with this journal's own removals and releases put over it until they are written,
 * and the ids another window removed since the driver last asked (it drops those runs from its model).
 */
import type { RemovedRuns, RemovedRunsChanges } from './removedRunsFile';

export class KnownRemovals {
  private removed = new Map<string, number>();
  private readonly unwrittenRemovals = new Map<string, number>();
  private readonly unwrittenReleases = new Set<string>();
  /** Removed by another window, seen since the last `takeElsewhere` (not the ones of the first read). */
  private readonly elsewhere = new Set<string>();
  /** Read once (a later read notes the ones another window removed meanwhile). */
  private known = false;

  has(runId: string): boolean {
    return this.removed.has(runId);
  }

  /** run id → when it was removed. */
  all(): RemovedRuns {
    return this.removed;
  }

  /** Takes the ids on disk as known, with this journal's own not yet written over them. */
  note(onDisk: RemovedRuns): void {
    if (this.known) {
      for (const runId of onDisk.keys()) {
        if (!this.removed.has(runId)) {
          this.elsewhere.add(runId);
        }
      }
    }
    this.known = true;
    const removed = new Map(onDisk);
    this.unwrittenReleases.forEach((runId) => removed.delete(runId));
    this.unwrittenRemovals.forEach((at, runId) => removed.set(runId, at));
    this.removed = removed;
  }

  /** The runs another window removed since the last call. */
  takeElsewhere(): string[] {
    const out = [...this.elsewhere].filter((runId) => this.removed.has(runId));
    this.elsewhere.clear();
    return out;
  }

  /** This journal removed the run, `at` when (written with the next merge). */
  add(runId: string, at: number): void {
    this.unwrittenReleases.delete(runId);
    this.unwrittenRemovals.set(runId, at);
    this.removed.set(runId, at);
  }

  /** The run's id is kept no longer (its daemon forgot it, or the person brought it back); false: it was not kept. */
  release(runId: string): boolean {
    if (!this.removed.delete(runId)) {
      return false;
    }
    this.unwrittenRemovals.delete(runId);
    this.unwrittenReleases.add(runId);
    return true;
  }

  /** What the next merge writes (a snapshot); undefined: nothing. */
  unwritten(): Required<RemovedRunsChanges> | undefined {
    return this.unwrittenRemovals.size > 0 || this.unwrittenReleases.size > 0 ? { added: new Map(this.unwrittenRemovals), dropped: new Set(this.unwrittenReleases) } : undefined;
  }

  /** A merge wrote `changes` (what changed again meanwhile stays unwritten). */
  written(changes: Required<RemovedRunsChanges>): void {
    changes.added.forEach((at, runId) => this.unwrittenRemovals.get(runId) === at && this.unwrittenRemovals.delete(runId));
    changes.dropped.forEach((runId) => this.unwrittenReleases.delete(runId));
  }
}
