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

  constructor(private readonly dir: string) {}

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
      const merged = await mergeRunIndex(this.dir, changes);
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
