/**
 * One journal's view of its connection's run index (`runs.json`, runIndexFile.ts): read once, then kept in memory
 * with this window's own changes, which are merged into the file (never a whole rewrite of a stale view: other
 * windows' entries are kept). Writes are coalesced: saves made while one is queued ride along with it.
 * With it, the ids of the runs removed for good (removedRunsFile.ts), read and written with the index: a removed run's
 * entry is never saved again from here, and `removed` says which runs any window of this machine removed.
 */
import type { RemovedRuns } from './removedRunsFile';
import { readRemovedRuns, REMOVED_RUNS_FILE } from './removedRunsFile';
import { watchJournalDir } from './journalDirWatch';
import { KnownRemovals } from './knownRemovals';
import type { RunIndexChanges, RunIndexState, StoredRun } from './runIndexFile';
import { mergeRunIndex, readRunIndexState } from './runIndexFile';
import type { ColdTest, ConnectIndex } from './runIndexDigest';
import { connectIndexOf, digestView, readDigest, sameStamp, stampOf, writeDigest } from './runIndexDigest';

/** What a journal's users read and change of the removed run ids (the rest is the journal's: `remove`). */
export type RemovedRunIds = Pick<RunIndex, 'removed' | 'removedAll' | 'takeRemovedElsewhere' | 'releaseRemoved' | 'watchRemoved' | 'unremove'>;

export class RunIndex {
  private index = new Map<string, StoredRun>();
  /** Merges this journal adopted (a read begun before the last of them is stale). */
  private merges = 0;
  /** The first read of the whole index, once begun. */
  private firstRead: Promise<void> | undefined;
  private write: Promise<void> = Promise.resolve();
  /** A write of the index is queued and has not taken its snapshot yet: later saves ride along with it. */
  private writeQueued = false;
  /** This journal's index changes not yet merged into the file. */
  private readonly unsaved = new Map<string, StoredRun>();
  private readonly unremoved = new Set<string>();
  /** Runs removed for good, as last read or written (with this journal's own removals and releases not yet written). */
  private readonly removals = new KnownRemovals();
  /**
   * Which entries a connect may leave out of the model (the kit's call, set once it knows how its runs come back):
   * with it, every merge writes the connect's digest (runIndexDigest.ts) and `connect` reads that instead of the index.
   */
  coldAt: ColdTest | undefined;

  /** `measure`: what a run's data takes on disk now, put in every entry this journal writes (StoredRun.bytes). */
  constructor(
    private readonly dir: string,
    private readonly measure: (runId: string) => Promise<number>,
  ) {}

  /** Every run in the index (read from disk once; `reload` reads it again). */
  async all(): Promise<StoredRun[]> {
    // One first read, whoever asks meanwhile waits for it (an empty view handed out meanwhile would say "not stored").
    await (this.firstRead ??= this.read());
    return [...this.index.values()];
  }

  /** One run's entry, without copying the index (a run's save and load cost O(1), not O(history)). */
  async get(runId: string): Promise<StoredRun | undefined> {
    await this.all();
    return this.index.get(runId);
  }

  /**
   * The index as a connect reads it: from the digest while it matches the index on disk (a few dozen entries, and the
   * older finished runs' ids), else from the index read whole — and the digest is written again for the next connect.
   * The whole index is then read at the first use that needs it (a save, a search), not at the open.
   */
  async connect(): Promise<ConnectIndex> {
    const coldAt = this.coldAt;
    if (this.firstRead === undefined && coldAt) {
      const [digest, removed, removedNow] = await Promise.all([readDigest(this.dir), readRemovedRuns(this.dir), stampOf(this.dir, REMOVED_RUNS_FILE)]);
      if (digest) {
        this.removals.note(removed);
        return digestView(digest, this.removals.all(), removed, removedNow); // a removed run's entry is not shown
      }
      const [before, removedBefore] = await Promise.all([stampOf(this.dir), stampOf(this.dir, REMOVED_RUNS_FILE)]);
      const entries = await this.reload();
      const after = await stampOf(this.dir);
      if (before && after && sameStamp(before, after) && this.unsaved.size === 0 && this.unremoved.size === 0) {
        // Outside the lock: a merge meanwhile makes this digest name an older file, and it is not used.
        await writeDigest(this.dir, entries, coldAt, after, removedBefore ?? null).catch(() => undefined);
      }
      return connectIndexOf(entries, coldAt);
    }
    return connectIndexOf(await this.all(), coldAt ?? (() => undefined));
  }

  /**
   * The entries in which another window's new runs are (an "only new" replay), at the cost of the digest, not of the
   * history: while the digest matches the index, its whole entries — every unfinished run and the newest finished
   * ones, which is where a run added since the last look is (a look follows every change of the index) — put over this
   * journal's view once it has read the index; otherwise the index read whole.
   */
  async recent(): Promise<StoredRun[]> {
    const merges = this.merges;
    const digest = this.coldAt ? await readDigest(this.dir) : undefined;
    if (!digest) {
      return this.reload();
    }
    const entries = digest.runs.filter((run) => !this.removals.has(run.runId) && !this.unremoved.has(run.runId));
    if (this.firstRead !== undefined && this.merges === merges) {
      await this.firstRead;
      // A merge adopted meanwhile is newer than the digest read before it (as in `read`); this journal's own changes win.
      entries.forEach((run) => this.merges === merges && !this.unsaved.has(run.runId) && this.index.set(run.runId, run));
    }
    return entries.map((run) => this.unsaved.get(run.runId) ?? run);
  }

  /** Reads the index again (another window may have added runs), keeping this journal's own unsaved changes. */
  async reload(): Promise<StoredRun[]> {
    const read = this.read();
    this.firstRead ??= read;
    await read;
    return [...this.index.values()];
  }

  private read(): Promise<void> {
    const merges = this.merges;
    // A merge adopted meanwhile is at least as new as this read (it read and wrote under the lock): this one is stale,
    // and taking it would bring back an entry just removed, and forget that it was.
    return readRunIndexState(this.dir).then((state) => void (this.merges === merges && this.adopt(state)));
  }
  /** Whether any window of this machine removed the run for good (as last read; `refreshRemoved` reads again). */
  removed(runId: string): boolean {
    return this.removals.has(runId);
  }

  /** The runs removed for good, with when (as last read). */
  removedAll(): RemovedRuns {
    return this.removals.all();
  }

  /** Reads the removed ids again (a run's writer is about to be decided: one another window removed is not written). */
  async refreshRemoved(): Promise<void> {
    this.removals.note(await readRemovedRuns(this.dir));
  }

  /**
   * Calls `onRemoved` when another window changed the removed ids (read again first; `takeRemovedElsewhere` says
   * which). Returns its stop. A directory that cannot be watched is not: such a window drops them at its next read.
   */
  watchRemoved(onRemoved: () => void): () => void {
    return watchJournalDir(this.dir, (names) => {
      if (names.has(REMOVED_RUNS_FILE)) {
        this.refreshRemoved().then(onRemoved, () => undefined);
      }
    }, () => undefined);
  }

  /** The runs another window removed since the last call (the driver drops them from its model). */
  takeRemovedElsewhere(): string[] {
    return this.removals.takeElsewhere();
  }

  /** Records the run's entry (merged into the index on disk: other windows' entries are kept). */
  async save(run: StoredRun): Promise<void> {
    await this.all();
    if (this.removals.has(run.runId)) {
      return; // removed for good (here or in another window): never indexed again
    }
    this.index.set(run.runId, run);
    this.unremoved.delete(run.runId);
    this.unsaved.set(run.runId, run);
    return this.writeChanges();
  }

  /** Takes the run out of the index for good: its id is kept as removed (removedRunsFile.ts), `at` when. */
  async remove(runId: string, at: number): Promise<void> {
    await this.all();
    this.index.delete(runId);
    this.unsaved.delete(runId);
    this.unremoved.add(runId);
    this.removals.add(runId, at);
    await this.writeChanges();
  }

  /**
   * Drops the removed ids that no daemon can bring back any more: removed before `before` (when the daemon's list
   * was asked for) and not in that list (`listed`) — its daemon forgot them (it restarted). Writes only when one goes.
   */
  async releaseRemoved(listed: ReadonlySet<string>, before: number): Promise<void> {
    await this.all();
    const gone = [...this.removals.all()].filter(([runId, at]) => at < before && !listed.has(runId)).map(([runId]) => runId);
    if (gone.length === 0) {
      return;
    }
    gone.forEach((runId) => this.removals.release(runId));
    await this.writeChanges();
  }

  /** The person brings a removed run back on purpose (it was opened again by name): its id is no longer kept. */
  async unremove(runId: string): Promise<void> {
    await this.all();
    if (this.removals.release(runId)) {
      await this.writeChanges();
    }
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
    this.adoptMerged(await mergeRunIndex(this.dir, { saved: new Map(), removed: new Set(), measured }, this.coldAt));
    return [...this.index.values()];
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
      const removedForGood = this.removals.unwritten();
      const changes: RunIndexChanges = { saved: new Map(this.unsaved), removed: new Set(this.unremoved), ...(removedForGood ? { removedForGood } : {}) };
      if (changes.saved.size === 0 && changes.removed.size === 0 && !changes.removedForGood) {
        return;
      }
      // Each entry written carries what its run takes on disk now (a stat or two per run saved, at most once a write).
      const measured = new Map<string, StoredRun>();
      for (const [runId, run] of changes.saved) {
        measured.set(runId, { ...run, bytes: await this.measure(runId) });
      }
      const merged = await mergeRunIndex(this.dir, { ...changes, saved: measured }, this.coldAt);
      // Written: what was merged is no longer this journal's to put in (unless it changed again meanwhile).
      changes.saved.forEach((run, runId) => this.unsaved.get(runId) === run && this.unsaved.delete(runId));
      changes.removed.forEach((runId) => this.unremoved.delete(runId));
      if (removedForGood) {
        this.removals.written(removedForGood);
      }
      this.adoptMerged(merged);
    });
    return this.write;
  }

  /** Takes a merge's result as this journal's view (reads begun before it are stale: `read`). */
  private adoptMerged(state: RunIndexState): void {
    this.merges += 1;
    this.adopt(state);
  }

  /** Takes what is on disk as this journal's view, with its own changes not yet written put over it. */
  private adopt(state: RunIndexState): void {
    const index = new Map(state.entries.map((run) => [run.runId, run]));
    this.unremoved.forEach((runId) => index.delete(runId));
    this.unsaved.forEach((run, runId) => index.set(runId, run));
    this.removals.note(state.removed);
    this.removals.all().forEach((_at, runId) => index.delete(runId));
    this.index = index;
  }
}
