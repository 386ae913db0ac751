/**
 * A connection's stored finished runs that are not in the model (issue #25 §2: a connect costs what the board and the
 * Connections tree show, not the history). At connect the model gets every run that is not finished or waits for a
 * person, and the newest page (OLDER_PAGE) of the finished ones; the others stay in the run index and are listed here,
 * newest first by creation (the order the board's Done group and the tree show runs in), their entries not validated.
 * The model holds only their number (`ConnectionInfo.olderRuns`), so the board's and the tree's "N older runs…" rows
 * stay true; such a row loads the next page, and a run opened by its key (a command, a restored tab, Search Run
 * History) is loaded on its own (kit/runHistory.ts). Runs past the retention setting are archived, not listed here.
 */
import { OlderStubs } from '../../storage/olderStubs';
import type { StoredRun } from '../../storage/runJournal';

/**
 * A run listed older: its id and creation time, and its index entry when the connect read it (the index's digest
 * gives only the order of the oldest: storage/runIndexDigest.ts; their entries are read when they are brought in).
 */
export interface OlderRun {
  readonly runId: string;
  readonly createdAt: number;
  readonly stored?: StoredRun;
}

/**
 * Finished runs a connect (or an "older…" row) puts in the model per connection: the board shows twenty Done rows
 * across connections, so the newest twenty of each connection hold every row it can show first.
 */
export const OLDER_PAGE = 20;

export class OlderRuns {
  /** Newest first. */
  private entries: OlderRun[];
  private readonly ids: Set<string>;
  /**
   * The digest's oldest, not decoded until a page reaches them or one of them is asked for by id (a connect needs only
   * their number). Every one of them is older than every entry: the digest keeps the newest finished runs whole.
   */
  private stubs: OlderStubs | undefined;

  constructor(entries: readonly StoredRun[] = [], stubs: OlderStubs = OlderStubs.none) {
    this.entries = entries.map((stored): OlderRun => ({ runId: stored.runId, createdAt: stored.createdAt, stored })).sort(newestFirst);
    this.ids = new Set(this.entries.map((older) => older.runId));
    this.stubs = stubs.count > 0 ? stubs : undefined;
  }

  get size(): number {
    return this.entries.length + (this.stubs?.count ?? 0);
  }

  has(runId: string): boolean {
    return this.ids.has(runId) || (this.stubs?.has(runId) ?? false);
  }

  /** Takes the newest `count` runs off the list (they go into the model). */
  take(count: number): OlderRun[] {
    if (count > this.entries.length) {
      this.decode();
    }
    const taken = this.entries.splice(0, Math.max(0, count));
    taken.forEach((stored) => this.ids.delete(stored.runId));
    return taken;
  }

  /** Takes one run off the list (loaded on its own, or removed); undefined: not listed. */
  remove(runId: string): OlderRun | undefined {
    if (!this.ids.has(runId) && this.stubs?.has(runId)) {
      this.decode();
    }
    if (!this.ids.delete(runId)) {
      return undefined;
    }
    const at = this.entries.findIndex((stored) => stored.runId === runId);
    return at >= 0 ? this.entries.splice(at, 1)[0] : undefined;
  }

  /** The stubs join the entries, after them (they are older), in the board's order. */
  private decode(): void {
    const stubs = this.stubs?.all().filter(([runId]) => !this.ids.has(runId)) ?? [];
    this.stubs = undefined;
    const older = stubs.map(([runId, createdAt]): OlderRun => ({ runId, createdAt })).sort(newestFirst);
    older.forEach((run) => this.ids.add(run.runId));
    this.entries = this.entries.concat(older);
  }
}

/** The board's and the tree's order: the newest run first, ties by id. */
export function newestFirst(a: Pick<StoredRun, 'createdAt' | 'runId'>, b: Pick<StoredRun, 'createdAt' | 'runId'>): number {
  return b.createdAt - a.createdAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);
}
