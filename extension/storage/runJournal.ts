/**
 * Durable, append-only transcripts in the extension's storage: one JSONL file per run plus a small index of run
 * metadata. Drivers append what they fold into the model *before* acknowledging it to a daemon (AgencyProxy's ack
 * deletes the daemon's journal), and replay the records after a window reload. Writes are queued per run and
 * batched; `append` resolves once the record is on disk (fdatasync), which is what makes acking safe.
 * Reading goes through a run's file chunk by chunk (journalFileReads.ts: a replay never holds a whole journal in
 * memory); a torn last line (crash mid-write) is reported as such. Nothing is ever rewritten. What a record means is the driver kit's
 * (drivers/kit/journalRecords.ts): this file knows lines of JSON, not their shape.
 *
 * Several editor windows share the directory (issue #25 §1). With a `writer` identity, a run's file is appended to
 * only under its writer lease (runWriterLease.ts; which window takes which lease is the kit's call): an append
 * without it is refused, never written. The index is merged, not rewritten whole (runIndex.ts, runIndexFile.ts):
 * this journal puts in only the entries it saved or removed.
 */
import type { FileHandle } from 'node:fs/promises';
import { drainRun } from './journalAppends';
import type { PendingWrite, RunWrites } from './journalAppends';
import { endsLineAt, readJournalLines, tailDigestOf } from './journalFileReads';
import type { JournalLine } from './journalFileReads';
import { safeFileName } from './runFileName';
import { RunIndex } from './runIndex';
import type { RemovedRunIds } from './runIndex';
import type { StoredRun } from './runIndexFile';
import { removeRunFiles, runDataBytes, runFileOf } from './runFiles';
import { releaseLease, takeLease } from './runWriterLease';
import type { LeaseHolder, LeaseIdentity, LeaseOutcome } from './runWriterLease';

// Where they always were for their importers; they live apart so the lease and index files need not import the journal.
export { safeFileName };
export type { JournalLine, RemovedRunIds, StoredRun };

export class RunJournal {
  /** Per run: its write queue, its batch being written, its open file, its length as known (journalAppends.ts). */
  private readonly appends: RunWrites = { queues: new Map<string, PendingWrite[]>(), writing: new Set<string>(), handles: new Map<string, FileHandle>(), sizes: new Map<string, number>() };
  /** The run index (a connect reads it through `index.connect`: runIndexDigest.ts). */
  readonly index: RunIndex;
  /** The runs any window of this machine removed for good (read and written with the index: removedRunsFile.ts). */
  readonly removals: RemovedRunIds;
  /** Runs whose writer lease this journal holds. */
  private readonly leases = new Set<string>();
  private closed = false;
  /** Set when close begins: no lease is taken from then on. */
  private closing = false;
  /** Runs being removed (then the index says so): a late record (a close, a turn's end) must not bring a file back. */
  private readonly removing = new Set<string>();

  /** `dir`: one connection profile's. `writer`: this window's lease identity (absent: a lone writer, tools and tests). */
  constructor(
    private readonly dir: string,
    private readonly writer?: LeaseIdentity,
  ) {
    // Every entry it writes carries what the run's data takes on disk (runFiles.ts), by the journal length it knows.
    this.index = new RunIndex(dir, (runId) => {
      const journal = this.settledSize(runId);
      return runDataBytes(dir, runId, typeof journal === 'number' ? journal : undefined);
    });
    this.removals = this.index;
  }

  /** Every run in the index (read from disk once; `reloadRuns` reads it again). */
  loadRuns(): Promise<StoredRun[]> {
    return this.index.all();
  }

  /** One run's index entry, without copying the index (a run's save and load cost O(1), not O(history)). */
  loadRun(runId: string): Promise<StoredRun | undefined> {
    return this.index.get(runId);
  }

  /** Reads the index again (another window may have added runs), keeping this journal's unsaved changes. */
  reloadRuns(): Promise<StoredRun[]> {
    return this.index.reload();
  }

  /** The entries where another window's new runs are, without reading the whole index (RunIndex.recent). */
  recentRuns(): Promise<StoredRun[]> {
    return this.index.recent();
  }

  /** Records the run's metadata (merged into the index on disk: other windows' entries are kept). */
  saveRun(run: StoredRun): Promise<void> {
    return this.index.save(run);
  }

  /**
   * Removes the run for good: its entry (its id kept as removed, removedRunsFile.ts), then every file of it (runFiles.ts).
   * Its lease is taken first when this journal leases runs (another window writing it refuses: `held elsewhere`).
   */
  async removeRun(runId: string): Promise<{ readonly kind: 'removed' } | { readonly kind: 'held elsewhere'; readonly holder: LeaseHolder }> {
    if (this.writer) {
      const lease = await this.takeLease(runId);
      if (lease.kind === 'held elsewhere') {
        return lease; // ('removed' by another window already: what is left of it here goes all the same)
      }
    }
    // Its queued writes first, and none after, so no append re-creates the file behind the delete.
    this.removing.add(runId);
    try {
      await this.flush();
      const handle = this.appends.handles.get(runId);
      this.appends.handles.delete(runId);
      await handle?.close().catch(() => undefined);
      this.appends.sizes.delete(runId);
      this.appends.queues.delete(runId);
      await this.index.remove(runId, Date.now());
      await removeRunFiles(this.dir, runId);
      this.leases.delete(runId);
    } finally {
      this.removing.delete(runId);
    }
    return { kind: 'removed' };
  }

  /** Every run in the index, each with its size (entries written before sizes were kept are measured once). */
  measuredRuns(): Promise<StoredRun[]> {
    return this.index.measureMissing();
  }

  // --- Writer leases (runWriterLease.ts) ------------------------------------------------------------------------------

  /** Takes the run's lease for this window if no live window holds it (`graceMs`: a released lease stays its holder's). */
  async takeLease(runId: string, graceMs = 0): Promise<LeaseOutcome | { readonly kind: 'removed' }> {
    if (!this.writer) {
      return { kind: 'taken' };
    }
    if (this.closing) {
      // A late record of a window going away must not take a lease back after close released it.
      throw new Error('the transcript journal is closed');
    }
    if (this.leases.has(runId)) {
      return { kind: 'taken' };
    }
    await this.index.refreshRemoved(); // a run another window removed is written by no one (its files would come back)
    if (this.index.removed(runId)) {
      return { kind: 'removed' };
    }
    const outcome = await takeLease(this.dir, runId, this.writer, Date.now(), graceMs);
    if (outcome.kind === 'taken') {
      this.leases.add(runId);
      // Another window wrote it until now: its length is known again once this journal opens it.
      if (!this.appends.handles.has(runId)) {
        this.appends.sizes.delete(runId);
      }
    }
    return outcome;
  }

  /** Whether this journal may append to the run (it holds the run's lease, or takes none). */
  writes(runId: string): boolean {
    return !this.writer || this.leases.has(runId);
  }

  /** Lets the run's lease go (after what was queued for it is on disk). */
  async releaseLease(runId: string): Promise<void> {
    if (!this.writer || !this.leases.delete(runId)) {
      return;
    }
    await this.flush();
    await this.appends.handles.get(runId)?.close().catch(() => undefined);
    this.appends.handles.delete(runId);
    await releaseLease(this.dir, runId, this.writer, Date.now()).catch(() => undefined);
  }

  /**
   * Hands a run's lines to `visit` in append order, parsed, reading the file in chunks (a journal is never held in
   * memory whole). A line that is not JSON is reported (`torn` when it is the last one, what a crash mid-append
   * leaves), never thrown. A run without a file has no lines. `from`: a byte offset at a line start (a checkpoint's end).
   * Resolves with the byte offset it read to.
   */
  async readLines(runId: string, visit: (line: JournalLine) => void, from = 0): Promise<number> {
    const position = await readJournalLines(this.fileOf(runId), visit, from);
    if (!this.appends.sizes.has(runId) && !this.appends.writing.has(runId) && !(this.appends.queues.get(runId)?.length ?? 0)) {
      this.appends.sizes.set(runId, position); // read to the end with nothing written meanwhile: the file's size
    }
    return position;
  }

  /**
   * The byte length of the run's file when nothing of it is queued or being written (else `busy`; undefined: not
   * known — never opened or read through, or a write failed part-way): every record appended so far is then in
   * those bytes, and no other. A checkpoint covers exactly them (drivers/kit/runCheckpoints.ts).
   */
  settledSize(runId: string): number | 'busy' | undefined {
    return this.appends.writing.has(runId) || (this.appends.queues.get(runId)?.length ?? 0) > 0 ? 'busy' : this.appends.sizes.get(runId);
  }

  /** The sha256 of the (up to 4 KiB of) bytes before `end`: whether the file still holds what a checkpoint saw. */
  tailDigest(runId: string, end: number): Promise<string | undefined> {
    return tailDigestOf(this.fileOf(runId), end);
  }

  /**
   * Whether `bytes` ends a line of the run's file: the byte before it is a newline, and (`exact`) the file is exactly
   * that long. A checkpoint may stand only for complete lines (issue #25: one taken mid-line made a reload skip a
   * line and replay overlap).
   */
  endsLineAt(runId: string, bytes: number, exact: boolean): Promise<boolean> {
    return endsLineAt(this.fileOf(runId), bytes, exact);
  }

  /** Appends one record; resolves when it is durably on disk. */
  append(runId: string, record: unknown): Promise<void> {
    if (this.closed) {
      return Promise.reject(new Error('the transcript journal is closed'));
    }
    if (this.removing.has(runId) || this.index.removed(runId)) {
      return Promise.resolve(); // removed for good: nothing of it is written again
    }
    if (!this.writes(runId)) {
      // One writer per journal: another window writes this run (or none was decided yet), never both.
      return Promise.reject(new Error(`run ${runId} is written by another window`));
    }
    return new Promise((resolve, reject) => {
      let queue = this.appends.queues.get(runId);
      if (!queue) {
        queue = [];
        this.appends.queues.set(runId, queue);
      }
      queue.push({ line: `${JSON.stringify(record)}\n`, resolve, reject });
      if (!this.appends.writing.has(runId)) {
        void this.drain(runId);
      }
    });
  }

  /** Resolves once every record appended so far (and the run index) is on disk, whatever the outcome of each. */
  async flush(): Promise<void> {
    const pending: Promise<unknown>[] = [this.index.settled()];
    for (const [runId, queue] of this.appends.queues) {
      if (queue.length > 0 || this.appends.writing.has(runId)) {
        // An empty marker behind everything queued: the drain resolves it after the records before it.
        pending.push(new Promise<void>((resolve) => {
          queue.push({ line: '', resolve, reject: () => resolve() });
          if (!this.appends.writing.has(runId)) {
            void this.drain(runId);
          }
        }));
      }
    }
    await Promise.all(pending);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.flush();
    // What it wrote may have grown since the entry was saved (a checkpoint at close): retention goes by the index.
    await Promise.all([...new Set([...this.leases, ...this.appends.handles.keys()])].map((runId) => this.index.remeasure(runId).catch(() => undefined)));
    await this.index.settled();
    this.closed = true;
    for (const handle of this.appends.handles.values()) {
      await handle.close().catch(() => undefined);
    }
    this.appends.handles.clear();
    // Released last, once every record and the index are on disk: the next writer starts from a whole file.
    const writer = this.writer;
    if (writer) {
      const held = [...this.leases];
      this.leases.clear();
      await Promise.all(held.map((runId) => releaseLease(this.dir, runId, writer, Date.now()).catch(() => undefined)));
    }
  }

  private fileOf(runId: string): string {
    return runFileOf(this.dir, runId, 'jsonl');
  }

  private drain(runId: string): Promise<void> {
    return drainRun(this.appends, this.dir, this.fileOf(runId), runId);
  }
}
