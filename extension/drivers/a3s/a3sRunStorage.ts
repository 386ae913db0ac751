/**
 * The A3S driver's durable state in the extension's storage, one directory per connection: `RunJournal`'s run
 * index (with the driver's `extra`: session, cursor, recovery links) and per-run transcript lines, the change-set
 * cache, and the generated session id. The cursor in the index is saved coalesced; the journal's own records are
 * the truth for what is held, so events lost by a crash or dispose are simply paged again after a reload.
 */
import { join } from 'node:path';
import type { RunEvent } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import { RunJournal, safeFileName } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverLog } from '../connectionManager';
import type { A3sRunBook } from './a3sRunBook';
import { a3sRunBookExtra } from './a3sRunBook';
import type { A3sJournalRecord, A3sRunExtra, CachedChangeSet } from './a3sRunRecords';
import { a3sExtraOf, isEventRecord, isGapRecord, isLocalRecord, loadChangeSetCache, saveChangeSetCache } from './a3sRunRecords';
import { errorText } from '../kit/errors';

/** What a reload replays for one run, in journal order. */
export type A3sStoredItem =
  | { readonly kind: 'event'; readonly sequence: number; readonly occurredAtMs: number; readonly event: unknown }
  | { readonly kind: 'gap'; readonly from: number; readonly toExclusive: number }
  | { readonly kind: 'local'; readonly event: RunEvent };

export interface A3sStoredRun {
  readonly stored: StoredRun;
  readonly extra: A3sRunExtra;
  readonly items: readonly A3sStoredItem[];
  readonly changeSet?: CachedChangeSet;
}

export class A3sRunStorage {
  readonly dir: string;
  private readonly journal: RunJournal;
  private readonly dirty = new Map<string, () => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(storageDir: string, connectionId: string, private readonly log: DriverLog) {
    this.dir = join(storageDir, 'transcripts', safeFileName(connectionId));
    this.journal = new RunJournal(this.dir);
  }

  async saveRun(book: A3sRunBook, run: RunInfo | undefined): Promise<void> {
    this.dirty.delete(book.runId);
    if (!run || this.closed) {
      return;
    }
    await this.journal
      .saveRun({
        runId: book.runId,
        title: run.title,
        state: run.state,
        createdAt: run.createdAt,
        ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
        extra: { a3s: a3sRunBookExtra(book) },
      })
      .catch((error: unknown) => this.log.error(`Could not store the run list: ${errorText(error)}`));
  }

  /** Saves the run soon (the cursor moves with every page; one index write per 300 ms is plenty). */
  scheduleSave(runId: string, save: () => void): void {
    this.dirty.set(runId, save);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, 300);
  }

  flush(): void {
    for (const save of [...this.dirty.values()]) {
      save();
    }
    this.dirty.clear();
  }

  /** Resolves once the record is on disk; rejects when it could not be written. */
  append(runId: string, record: A3sJournalRecord): Promise<void> {
    return this.journal.append(runId, record);
  }

  appendQuietly(runId: string, record: A3sJournalRecord): Promise<void> {
    return this.append(runId, record).catch((error: unknown) => {
      if (!this.closed) {
        this.log.error(`Could not store run ${runId}: ${errorText(error)}`);
      }
    });
  }

  saveChangeSet(runId: string, changeSet: CachedChangeSet): Promise<void> {
    return saveChangeSetCache(this.dir, runId, changeSet).catch((error: unknown) => this.log.warn(`Could not store the change set of ${runId}: ${errorText(error)}`));
  }

  /** Every stored A3S run with its journal items and cached change set. */
  async loadRuns(): Promise<A3sStoredRun[]> {
    const out: A3sStoredRun[] = [];
    for (const stored of await this.journal.loadRuns()) {
      const extra = a3sExtraOf(stored.extra);
      if (!extra) {
        continue;
      }
      const items: A3sStoredItem[] = [];
      for (const record of await this.journal.readRecords(stored.runId)) {
        if (isEventRecord(record) && Number.isSafeInteger(record.s) && record.s >= 0) {
          items.push({ kind: 'event', sequence: record.s, occurredAtMs: typeof record.at === 'number' ? record.at : 0, event: record.e });
        } else if (isGapRecord(record)) {
          items.push({ kind: 'gap', from: record.g[0], toExclusive: record.g[1] });
        } else if (isLocalRecord(record)) {
          items.push({ kind: 'local', event: record.l });
        }
      }
      const changeSet = await loadChangeSetCache(this.dir, stored.runId);
      out.push({ stored, extra, items, ...(changeSet ? { changeSet } : {}) });
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.flush();
    this.closed = true;
    await this.journal.close();
  }
}
