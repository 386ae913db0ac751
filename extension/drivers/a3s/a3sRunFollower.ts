/**
 * Following A3S runs while the harness is ready: one `A3sRunPoller` per active run pages its events from the
 * book's cursor into the model (0-based on the wire, +1 in the model, deduped by sequence), records the harness's
 * gaps, and applies its run state. A run whose worker is gone (a harness restart) is marked stranded and offered
 * for recovery; one the harness forgot is lost. Once every event of a finished run is read its final state is set
 * and its change set fetched, verified and published (retried on the next connect until it is final).
 */
import type { A3sEventRecord } from '../../protocol/a3s';
import { A3S_ERROR_CODE } from '../../protocol/a3s';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { a3sChangeSetOutcome } from './a3sChangeSetOutcome';
import type { A3sError } from './a3sErrors';
import { A3sHttpError } from './a3sErrors';
import { mapA3sRunState } from './a3sEventMapping';
import type { A3sRunBook } from './a3sRunBook';
import type { A3sRunParts } from './a3sRunParts';
import { A3S_RECOVER_PANEL } from './a3sRunParts';
import type { CachedChangeSet } from './a3sRunRecords';
import { a3sRecoverPanel } from './a3sStrandProbe';
import { A3sRunPoller } from './runPoller';

/** Where the follower's results go into the model and the journal together (the driver's journaling). */
export interface A3sFollowerJournal {
  /** Folds a harness record into the model and journals it (nothing when the run already holds it); the book's cursor moves once it is on disk. */
  storeEvent(book: A3sRunBook, record: A3sEventRecord): void;
  /** Wire sequences [from, toExclusive) were evicted before they were read: a gap in the model and the journal. */
  storeGap(book: A3sRunBook, from: number, toExclusive: number): void;
  saveChangeSet(runId: string, changeSet: CachedChangeSet): Promise<void>;
}

export class A3sRunFollower {
  constructor(
    private readonly parts: A3sRunParts,
    private readonly journal: A3sFollowerJournal,
    /** A poll failed in a way that may mean the harness went away: check readiness now. */
    private readonly checkReadiness: () => void,
    /** Whether any run is followed now (the driver checks readiness periodically only then). */
    private readonly onLiveChanged: (live: boolean) => void = () => undefined,
  ) {}

  /** Whether a poller runs for any run. */
  hasLive(): boolean {
    return [...this.parts.books.values()].some((b) => b.poller !== undefined);
  }

  /** On (re)connect: follow every active run from its cursor; fetch change sets still missing. */
  resumeAll(): void {
    for (const book of this.parts.books.values()) {
      if (book.stranded || book.recoveredAs !== undefined) {
        continue;
      }
      if (!book.terminal) {
        this.startPolling(book);
      } else if (book.changeSet === 'none') {
        void this.fetchChangeSet(book);
      }
    }
  }

  /** The harness is not ready any more: every poller stops (they start again on the next connect). */
  stopAll(): void {
    for (const book of this.parts.books.values()) {
      this.stopPolling(book);
    }
  }

  stopPolling(book: A3sRunBook): void {
    const had = book.poller !== undefined;
    book.poller?.dispose();
    book.poller = undefined;
    if (had) {
      this.onLiveChanged(this.hasLive());
    }
  }

  startPolling(book: A3sRunBook): void {
    const client = this.parts.readyClient();
    if (!client || book.poller || book.terminal || book.stranded) {
      return;
    }
    const { options } = this.parts;
    const poller = new A3sRunPoller({
      client,
      identity: this.parts.identity(book),
      after: book.cursor,
      activeIntervalMs: options.pollActiveMs ?? 250,
      maxIntervalMs: options.pollMaxMs ?? 5_000,
    });
    book.poller = poller;
    this.onLiveChanged(true);
    poller.onGap((gap) => this.onGap(book, gap.fromSequence, gap.toSequenceExclusive));
    poller.onEvents(({ events }) => this.onEvents(book, events));
    poller.onState((state) => this.applyState(book.runId, state));
    poller.onError(({ error, willRetry }) => {
      this.parts.log.warn(`Reading events of ${book.runId}: ${error.message}${willRetry ? ' (retrying)' : ''}`);
      if (error.kind === 'transport' || (error instanceof A3sHttpError && error.code === A3S_ERROR_CODE.harnessClosed)) {
        this.checkReadiness();
      }
    });
    poller.onEnd((end) => {
      if (book.poller === poller) {
        book.poller = undefined;
        this.onLiveChanged(this.hasLive());
      }
      if (end.reason === 'terminal') {
        void this.finish(book, end.state);
      } else if (end.reason === 'error') {
        void this.pollFailed(book, end.error);
      }
    });
    void poller.start();
  }

  /** The harness's run state (from a receipt or a page): active states carry the harness's word as detail. */
  applyState(runId: string, a3sState: string): void {
    const { state, detail } = mapA3sRunState(a3sState);
    const run = this.parts.runs.get(runId);
    if (run && isTerminalRunState(run.state)) {
      return; // never move a finished run back on a stale observation; `finish` sets the final state
    }
    if (isTerminalRunState(state)) {
      // The harness is done, but pages may still hold events: the final state comes once they are all read.
      void this.parts.runs.fields(runId, { state: 'finishing', stateDetail: `${a3sState}; reading the last events` });
      return;
    }
    void this.parts.runs.fields(runId, { state, stateDetail: detail ?? '' });
  }

  /** Wire sequences [from, to) are lost = model sequences (from, to] (the model is the wire + 1). */
  private onGap(book: A3sRunBook, from: number, toExclusive: number): void {
    if (toExclusive <= (this.parts.runs.get(book.runId)?.lastSequence ?? 0)) {
      return;
    }
    this.journal.storeGap(book, from, toExclusive);
  }

  async markStranded(book: A3sRunBook, why: string): Promise<void> {
    if (book.stranded || book.terminal) {
      return;
    }
    book.stranded = true;
    this.stopPolling(book);
    // Journaled (recordLocal), like every line the editor adds: a reload shows the same transcript.
    await this.parts.recordLocal(book.runId, {
      kind: 'stateChanged',
      state: 'interrupted',
      detail: `Stranded: ${why}. Use "Recover A3S Run" to resume it from its checkpoint as a new run.`,
      announce: true,
    });
    this.publishRecoverPanel(book.runId);
    await this.parts.saveRun(book);
  }

  publishRecoverPanel(runId: string): void {
    void this.parts.runs.panels(runId, [a3sRecoverPanel(A3S_RECOVER_PANEL)]);
  }

  publishChangeSet(runId: string, changeSet: CachedChangeSet): void {
    this.parts.runs.changeSet(runId, changeSet);
  }

  private onEvents(book: A3sRunBook, records: readonly A3sEventRecord[]): void {
    for (const record of records) {
      this.journal.storeEvent(book, record);
    }
  }

  private async finish(book: A3sRunBook, a3sState: string): Promise<void> {
    if (book.terminal) {
      return;
    }
    book.terminal = true;
    const { state } = mapA3sRunState(a3sState);
    await this.parts.recordLocal(book.runId, { kind: 'stateChanged', state, announce: true });
    // The terminal state is A3S's one turn boundary: the run's workspace files as it left them.
    void this.parts.checkpoints.boundary(book.runId, this.parts.runs.get(book.runId)?.workspaceRoots ?? []);
    await this.parts.saveRun(book);
    await this.fetchChangeSet(book);
  }

  private async pollFailed(book: A3sRunBook, error: A3sError): Promise<void> {
    if (error instanceof A3sHttpError && (error.code === A3S_ERROR_CODE.sessionNotFound || error.code === A3S_ERROR_CODE.runUnavailable)) {
      await this.markStranded(book, 'the harness no longer has its session open (it probably restarted)');
    } else if (error instanceof A3sHttpError && error.code === A3S_ERROR_CODE.runNotFound) {
      book.terminal = true;
      book.changeSet = 'done';
      await this.parts.recordLocal(book.runId, { kind: 'stateChanged', state: 'lost', detail: 'The harness does not know this run any more. The transcript is kept.', announce: true });
      await this.parts.saveRun(book);
    } else if (this.parts.readyClient()) {
      await this.parts.recordLocal(book.runId, { kind: 'notice', text: `Stopped reading this run's events: ${error.message}. "Refresh" tries again.`, level: 'error' });
    }
  }

  private async fetchChangeSet(book: A3sRunBook): Promise<void> {
    const client = this.parts.readyClient();
    if (book.changeSet !== 'none' || !client) {
      return;
    }
    const { options } = this.parts;
    book.changeSet = 'fetching';
    this.publishChangeSet(book.runId, { source: 'daemon', status: 'capturing', reason: 'Fetching the change set from the harness…' });
    const outcome = await a3sChangeSetOutcome(client, this.parts.identity(book), {
      replayed: book.replayed,
      ...(options.changeSetInitialDelayMs !== undefined ? { initialDelayMs: options.changeSetInitialDelayMs } : {}),
      ...(options.changeSetMaxDelayMs !== undefined ? { maxDelayMs: options.changeSetMaxDelayMs } : {}),
    });
    if (!outcome.final) {
      book.changeSet = 'none';
      this.parts.log.warn(`Change set of ${book.runId}: ${outcome.reason}`);
      this.publishChangeSet(book.runId, { source: 'daemon', status: 'capturing', reason: `Not fetched yet (${outcome.reason}); tried again when the harness is ready.` });
      return;
    }
    book.changeSet = 'done';
    this.publishChangeSet(book.runId, outcome.changeSet);
    await this.journal.saveChangeSet(book.runId, outcome.changeSet);
  }
}
