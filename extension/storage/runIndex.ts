/**
 * One journal's view of its connection's run index (`runs.json`, runIndexFile.ts): read once, then kept in memory
 * with this window's own changes, which are merged into the file (never a whole rewrite of a stale view: other
 * windows' entries are kept). Writes are coalesced: saves made while one is queued ride along with it.
 */
import type { RunIndexChanges, StoredRun } from './runIndexFile';
import { mergeRunIndex, readRunIndex } from './runIndexFile';

export class RunIndex {
  private index = new Map<string, StoredRun>();
  private loaded = false;
  private write: Promise<void> = Promise.resolve();
  /** A write of the index is queued and has not taken its snapshot yet: later saves ride along with it. */
  private writeQueued = false;
  /** This journal's index changes not yet merged into the file. */
  private readonly unsaved = new Map<string, StoredRun>();
  private readonly unremoved = new Set<string>();

  /** `measure`: what a run's data takes on disk now, put in every entry this journal writes (StoredRun.bytes). */
  constructor(
    private readonly dir: string,
    private readonly measure: (runId: string) => Promise<number>,
  ) {}

  /** Every run in the index (read from disk once; `reload` reads it again). */
  async all(): Promise<StoredRun[]> {
    if (!this.loaded) {
      this.loaded = true;
      await this.reload();
    }
    return [...this.index.values()];
  }

  /** One run's entry, without copying the index (a run's save and load cost O(1), not O(history)). */
  async get(runId: string): Promise<StoredRun | undefined> {
    await this.all();
    return this.index.get(runId);
  }

  /** Reads the index again (another window may have added runs), keeping this journal's own unsaved changes. */
  async reload(): Promise<StoredRun[]> {
    this.loaded = true;
    const index = new Map((await readRunIndex(this.dir)).map((run) => [run.runId, run]));
    this.unremoved.forEach((runId) => index.delete(runId));
    this.unsaved.forEach((run, runId) => index.set(runId, run));
    this.index = index;
    return [...index.values()];
  }

  /** Records the run's entry (merged into the index on disk: other windows' entries are kept). */
  async save(run: StoredRun): Promise<void> {
    await this.all();
    this.index.set(run.runId, run);
    this.unremoved.delete(run.runId);
    this.unsaved.set(run.runId, run);
    return this.writeChanges();
  }

  /** Takes the run out of the index. */
  async forget(runId: string): Promise<void> {
    await this.all();
    this.index.delete(runId);
    this.unsaved.delete(runId);
    this.unremoved.add(runId);
    await this.writeChanges();
  }

  /**
   * Measures the runs whose entries have no size (written before sizes were kept) and puts the sizes in the file for
   * good; resolves with the index as it is then.
   */
  async measureMissing(): Promise<StoredRun[]> {
    const missing = (await this.all()).filter((run) => run.bytes === undefined);
    if (missing.length === 0) {
      return [...this.index.values()];
    }
    const measured = new Map<string, number>();
    for (const run of missing) {
      measured.set(run.runId, await this.measure(run.runId));
    }
    await this.settled();
    const merged = await mergeRunIndex(this.dir, { saved: new Map(), removed: new Set(), measured });
    const index = new Map(merged.map((run) => [run.runId, run]));
    this.unremoved.forEach((runId) => index.delete(runId));
    this.unsaved.forEach((run, runId) => index.set(runId, run));
    this.index = index;
    return [...index.values()];
  }

  /** Saves the run's entry again if what its data takes on disk changed since it was saved (a checkpoint written). */
  async remeasure(runId: string): Promise<void> {
    const run = await this.get(runId);
    if (run && !this.unsaved.has(runId) && run.bytes !== (await this.measure(runId))) {
      await this.save(run);
    }
  }

  /** Resolves once the last write began is done, whatever its outcome. */
  settled(): Promise<void> {
    return this.write.catch(() => undefined);
  }

  /**
   * Merges this journal's changes into the file. Coalesced: saves made while a write is queued share it (its
   * snapshot is taken when it starts), so saving every run's summary at close writes the file once or twice.
   */
  private writeChanges(): Promise<void> {
    if (this.writeQueued) {
      return this.write;
    }
    this.writeQueued = true;
    this.write = this.write.catch(() => undefined).then(async () => {
      this.writeQueued = false;
      const changes: RunIndexChanges = { saved: new Map(this.unsaved), removed: new Set(this.unremoved) };
      if (changes.saved.size === 0 && changes.removed.size === 0) {
        return;
      }
      // Each entry written carries what its run takes on disk now (a stat or two per run saved, at most once a write).
      const measured = new Map<string, StoredRun>();
      for (const [runId, run] of changes.saved) {
        measured.set(runId, { ...run, bytes: await this.measure(runId) });
      }
      const merged = await mergeRunIndex(this.dir, { saved: measured, removed: changes.removed });
      // Written: what was merged is no longer this journal's to put in (unless it changed again meanwhile).
      changes.saved.forEach((run, runId) => this.unsaved.get(runId) === run && this.unsaved.delete(runId));
      changes.removed.forEach((runId) => this.unremoved.delete(runId));
      const index = new Map(merged.map((run) => [run.runId, run]));
      this.unremoved.forEach((runId) => index.delete(runId));
      this.unsaved.forEach((run, runId) => index.set(runId, run));
      this.index = index;
    });
    return this.write;
  }
}
