/**
 * Bringing a connection's older stored runs (kit/olderRuns.ts: finished, past the page a connect loads) into the model
 * when someone asks for them: the next page (the board's or the tree's "N older runs…" row, *Show Older Runs*), or one
 * run by its key (a command, a restored tab, news for it from the daemon). Each comes back as a connect would have
 * brought it: from its summary, validated now (`summarized`), or replayed whole when its summary does not read. The
 * model's count of the rest (`ConnectionInfo.olderRuns`) goes with the same action. The history (runHistory.ts) owns it.
 */
import type { SummarizedRun } from '../../model/modelActions';
import type { StoredRun } from '../../storage/runJournal';
import type { HistoryDoor } from './runHistory';
import { restoredFieldsOf } from './runJournaling';
import { coldSummaryOf, summaryCountsOf } from './runSummaries';
import { OLDER_PAGE, OlderRuns } from './olderRuns';
import type { OlderRun } from './olderRuns';
import type { OlderStubs } from '../../storage/olderStubs';

export class RunPaging<C> {
  private older = new OlderRuns();

  constructor(private readonly door: HistoryDoor<C>) {}

  /** The connect's list (its replay's `paged`): what is older than its page now (`stubs`: the digest's oldest). */
  listed(older: readonly StoredRun[], stubs?: OlderStubs): void {
    this.older = new OlderRuns(older, stubs);
  }

  /** Whether the run is stored, older than what the model holds (not in it). */
  has(runId: string): boolean {
    return this.older.has(runId);
  }

  get size(): number {
    return this.older.size;
  }

  /** Brings the next `count` older runs into the model, newest first; resolves with how many came. */
  async showOlder(count = OLDER_PAGE): Promise<number> {
    const taken = this.older.take(count);
    if (taken.length > 0 || this.door.ctx.store.state.connections.get(this.door.ctx.connectionId)?.olderRuns !== this.older.size) {
      await this.bringIn(taken);
    }
    return taken.length;
  }

  /** Brings one older run into the model (its key was asked for); false: it is not listed older. */
  async showOne(runId: string): Promise<boolean> {
    const stored = this.older.remove(runId);
    if (!stored) {
      return false;
    }
    await this.bringIn([stored]);
    return true;
  }

  /** The stored runs not in the model (archived, or listed older) with a summary, newest first (Search Run History). */
  async notShown(): Promise<StoredRun[]> {
    const recorder = this.door.journal();
    if (!recorder || !this.door.handlers()?.summarized) {
      return [];
    }
    return (await recorder.loadRuns())
      .filter((stored) => this.door.get(stored.runId) === undefined && coldSummaryOf(stored) !== undefined)
      .sort((a, b) => (coldSummaryOf(b)?.activeAt ?? 0) - (coldSummaryOf(a)?.activeAt ?? 0));
  }

  /** Brings a stored run not in the model into it from its summary; false: it is not stored, or its summary does not read. */
  async unarchive(runId: string): Promise<boolean> {
    if (await this.showOne(runId)) {
      return this.door.get(runId) !== undefined; // listed older, not archived: shown as a connect would have
    }
    const stored = await this.door.journal()?.loadRun(runId);
    const summary = stored && coldSummaryOf(stored);
    const handlers = this.door.handlers();
    // Its index entry is restored as at connect (ownership, session: what acting on it needs).
    if (!stored || !summary || !handlers?.summarized || !handlers.openIndex(stored)) {
      return false;
    }
    this.door.ctx.store.dispatch({ type: 'runsSummarized', connectionId: this.door.ctx.connectionId, runs: [{ runId, fields: restoredFieldsOf(stored), summary: summaryCountsOf(summary) }] });
    return true;
  }

  /** The run is gone from disk (removed while listed older): the count says so. */
  forget(runId: string): void {
    if (this.older.remove(runId)) {
      this.dispatch([]);
    }
  }

  private async bringIn(taken: readonly OlderRun[]): Promise<void> {
    const handlers = this.door.handlers();
    const recorder = this.door.journal();
    const runs: SummarizedRun[] = [];
    const whole: StoredRun[] = [];
    for (const older of taken) {
      // The digest's oldest have no entry in memory: read from the index (whole, once per window, on the first ask).
      const stored = older.stored ?? (await recorder?.loadRun(older.runId));
      if (!stored) {
        continue; // gone meanwhile (another window removed it)
      }
      const summary = handlers?.summarized?.(stored);
      if (summary) {
        runs.push({ runId: stored.runId, fields: summary.fields, summary: summary.counts });
      } else {
        whole.push(stored); // its summary does not read (or another driver's): as a connect, replayed whole
      }
    }
    this.dispatch(runs);
    for (const stored of whole) {
      if (handlers && recorder) {
        await recorder.replayRun(stored, handlers);
      }
    }
  }

  private dispatch(runs: readonly SummarizedRun[]): void {
    this.door.ctx.store.dispatch({ type: 'runsSummarized', connectionId: this.door.ctx.connectionId, runs, olderRuns: this.older.size });
  }
}
