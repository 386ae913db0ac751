/**
 * The A3S Code harness driver (`a3s.code.agent.v1`, WIRE.md §3 and 6.3). A3S has no connection: "connected" means
 * the readiness path answers `ready`, checked again periodically (a harness that turns not-ready is draining).
 * Runs are followed with `A3sRunPoller` while the harness is ready; every event folded into the model is appended
 * to the run's journal first-class, so a reload restores the transcript and resumes paging after the last held
 * sequence (no duplicates: the model dedupes by sequence, 0-based on the wire, +1 in the model). After a run ends
 * its change set is fetched, verified and published; a run stranded by a harness restart can be recovered as a new
 * run from its checkpoint. There is no approval verb (3.9): confirmations are shown, never answered.
 */
import type { RunEvent, RunFields } from '../../model/modelActions';
import type { Capability, RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import { A3S_ERROR_CODE, A3S_PROTOCOL, buildRunIdentity, decodeA3sEvent } from '../../protocol/a3s';
import type { A3sEventRecord, A3sRunIdentity } from '../../protocol/a3s';
import { isTerminalRunState, runStateSchema } from '../../protocol/transcriptTypes';
import type { DriverContext } from '../connectionManager';
import type { Driver, StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { ReconnectLoop } from '../kit/reconnectLoop';
import type { A3sError } from './a3sErrors';
import { A3sHttpError } from './a3sErrors';
import { a3sChangeSetOutcome } from './a3sChangeSetOutcome';
import { admitA3sCommand, replayedCommandText, unverifiedReceiptText, withA3sRetry } from './a3sCommandSend';
import type { A3sAdmission } from './a3sCommandSend';
import { mapA3sEvent, mapA3sRunState } from './a3sEventMapping';
import { a3sProfileProblem, a3sSessionId } from './a3sProfile';
import { A3sReadiness } from './a3sReadiness';
import type { A3sRunBook as RunBook } from './a3sRunBook';
import { newA3sRunBook, newA3sRunId } from './a3sRunBook';
import type { A3sRunExtra, CachedChangeSet } from './a3sRunRecords';
import { A3sRunStorage } from './a3sRunStorage';
import { a3sProbeTargets, a3sRecoverPanel, findA3sStrandedRuns } from './a3sStrandProbe';
import { A3sClient } from './client';
import type { A3sCommandResult } from './client';
import { A3sRunPoller } from './runPoller';
import { promptProblem } from './validation';
import { errorText, toDriverError } from '../kit/errors';

/** Timings, overridable by tests. */
export interface A3sDriverOptions {
  readonly healthIntervalMs?: number;
  readonly pollActiveMs?: number;
  readonly pollMaxMs?: number;
  readonly reconnectBaseMs?: number;
  readonly changeSetInitialDelayMs?: number;
  readonly changeSetMaxDelayMs?: number;
  readonly requestTimeoutMs?: number;
}

export const A3S_RECOVER_PANEL = 'a3s.recover';
const CANCEL_REASON = 'Cancelled from VS Code';
const GAP_REASON = 'older events were dropped by the harness';
const CAPABILITIES: readonly Capability[] = ['run.start', 'run.cancel', 'changeSets.remote'];

export class A3sDriver implements Driver {
  readonly protocol = 'a3s' as const;
  readonly connectionId: string;
  private readonly storage: A3sRunStorage;
  private readonly loop: ReconnectLoop;
  private readonly books = new Map<string, RunBook>();
  private client: A3sClient | undefined;
  private readiness: A3sReadiness | undefined;
  private ready = false;
  private disposed = false;
  private loaded: Promise<void> | undefined;
  private session: Promise<string> | undefined;

  constructor(
    private readonly ctx: DriverContext,
    private readonly options: A3sDriverOptions = {},
  ) {
    this.connectionId = ctx.connectionId;
    this.storage = new A3sRunStorage(ctx.storageDir, ctx.connectionId, ctx.log);
    this.loop = new ReconnectLoop({
      connectOnce: (onLost) => this.connectOnce(onLost),
      setState: (state) => ctx.store.dispatch({ type: 'connectionState', connectionId: this.connectionId, state }),
      describeError: (error) => ({ message: errorText(error), fatal: error instanceof DriverError && error.code === 'fatal' }),
      ...(options.reconnectBaseMs !== undefined ? { baseMs: options.reconnectBaseMs } : {}),
    });
  }

  async connect(): Promise<void> {
    await this.loadJournal();
    await this.loop.start();
  }

  async disconnect(): Promise<void> {
    this.loop.stop();
    this.goOffline();
  }

  dispose(): void {
    this.disposed = true;
    void this.disconnect();
    void this.storage.close();
    this.client?.dispose();
  }

  async startRun(options: StartRunOptions): Promise<string> {
    const problem = promptProblem(options.prompt);
    if (problem !== undefined) {
      throw new DriverError(`The prompt ${problem}.`);
    }
    const client = this.requireReady();
    const runId = newA3sRunId();
    const book = this.newBook(runId, await this.sessionId(), { requestId: `start-${runId}` }, true);
    const title = options.prompt.trim().split(/\r?\n/, 1)[0]!.slice(0, 80) || 'Untitled run';
    this.applyFields(runId, { title, state: 'starting', workspaceRoots: options.workspaceRoots });
    await this.saveRun(book);
    await this.recordLocal(runId, { kind: 'userPrompt', text: options.prompt });
    const result = await this.command(book, () => client.start(book.requestId!, this.identity(book), options.prompt));
    await this.afterReceipt(book, result, 'start');
    return runId;
  }

  async cancelRun(runId: string): Promise<void> {
    const book = this.requireBook(runId);
    const client = this.requireReady();
    book.cancelCount += 1;
    const requestId = `cancel-${runId}-${book.cancelCount}`;
    let result: A3sCommandResult;
    try {
      result = await withA3sRetry(() => client.cancel(requestId, this.identity(book), CANCEL_REASON));
    } catch (error) {
      if (error instanceof A3sHttpError && (error.code === A3S_ERROR_CODE.runUnavailable || error.code === A3S_ERROR_CODE.sessionNotFound)) {
        await this.markStranded(book, 'the harness has no worker for it any more (it probably restarted)');
        throw new DriverError('The harness cannot cancel this run: it is not active any more (stranded after a harness restart). Use "Recover A3S Run" to resume it from its checkpoint.', error.code);
      }
      throw toDriverError(error);
    }
    if (result.replayed) {
      await this.recordLocal(runId, { kind: 'notice', text: 'Already finished: the run had ended before the cancel arrived.', level: 'info' });
    }
    this.applyState(runId, result.receipt.state);
    book.poller?.wake();
  }

  /** Resumes a stranded run from its checkpoint as a new run (WIRE.md 6.3.4); resolves with the new run id. */
  async recoverRun(oldRunId: string): Promise<string> {
    const old = this.requireBook(oldRunId);
    if (old.recoveredAs !== undefined) {
      throw new DriverError(`This run was already recovered as run ${old.recoveredAs}.`);
    }
    if (old.terminal && !old.stranded) {
      throw new DriverError('This run has finished; only a stranded or stuck run can be recovered.');
    }
    const client = this.requireReady();
    const oldRun = this.run(oldRunId);
    const runId = newA3sRunId();
    const book = this.newBook(runId, old.sessionId, { requestId: `recover-${runId}`, recoveredFrom: oldRunId }, true);
    this.applyFields(runId, { title: `${oldRun?.title ?? oldRunId} (recovered)`, state: 'starting', ...(oldRun?.workspaceRoots ? { workspaceRoots: oldRun.workspaceRoots } : {}) });
    await this.saveRun(book);
    await this.recordLocal(runId, { kind: 'notice', text: `Recovering run ${oldRunId} from its checkpoint as this new run.`, level: 'info' });
    const result = await this.command(book, () => client.recover(book.requestId!, this.identity(book), oldRunId));
    old.poller?.dispose();
    old.poller = undefined;
    if (!old.stranded) {
      // A stuck run the user chose to recover: it is superseded by the new one.
      this.ctx.store.dispatch({ type: 'runEvent', runKey: this.key(oldRunId), event: { kind: 'stateChanged', state: 'interrupted', announce: true } });
    }
    old.stranded = false;
    old.terminal = true;
    old.changeSet = 'done';
    old.recoveredAs = runId;
    this.ctx.store.dispatch({ type: 'runPanels', runKey: this.key(oldRunId), panels: (this.run(oldRunId)?.panels ?? []).filter((p) => p.id !== A3S_RECOVER_PANEL) });
    this.applyFields(oldRunId, { stateDetail: `Recovered as run ${runId}` });
    await this.saveRun(old);
    await this.afterReceipt(book, result, 'recover');
    return runId;
  }

  async panelAction(runId: string, panelId: string, _entryId: string, actionId: string): Promise<void> {
    if (panelId === A3S_RECOVER_PANEL && actionId === 'recover') {
      await this.recoverRun(runId);
      return;
    }
    throw new DriverError('This action is not available for A3S runs.');
  }

  /** Checks readiness now, restarts stopped pollers and retries pending change-set fetches. */
  async refresh(): Promise<void> {
    await this.readiness?.checkNow();
    this.resumeRuns();
  }

  /** Whether the run can be recovered (stranded after a harness restart). */
  isStranded(runId: string): boolean {
    return this.books.get(runId)?.stranded ?? false;
  }

  // ------------------------------------------------------------------------------------------------------------

  private key(runId: string): string {
    return runKeyOf(this.connectionId, runId);
  }

  private run(runId: string): RunInfo | undefined {
    return this.ctx.store.state.runs.get(this.key(runId));
  }

  private identity(book: RunBook): A3sRunIdentity {
    return buildRunIdentity({ agentReleaseIdentity: this.ctx.profile.releaseIdentity ?? '', sessionId: book.sessionId, runId: book.runId });
  }

  private sessionId(): Promise<string> {
    this.session ??= a3sSessionId(this.ctx.profile, this.storage.dir);
    return this.session;
  }

  private requireReady(): A3sClient {
    if (!this.ready || !this.client) {
      throw new DriverError('The A3S harness is not ready (see the connection state).');
    }
    return this.client;
  }

  private requireBook(runId: string): RunBook {
    const book = this.books.get(runId);
    if (!book) {
      throw new DriverError(`This connection does not know run ${runId}.`);
    }
    return book;
  }

  /** `commandPending`: its start/recover is about to be sent (cleared once answered, see `command`). */
  private newBook(runId: string, sessionId: string, extra: Partial<A3sRunExtra> = {}, commandPending = false): RunBook {
    const book = { ...newA3sRunBook(runId, sessionId, extra), awaitingReceipt: commandPending };
    this.books.set(runId, book);
    return book;
  }

  /**
   * A start/recover command, sent after probing for runs a harness restart stranded (the command may reopen their
   * session, after which nothing tells them from live runs: a3sStrandProbe.ts). On failure the run is marked
   * failed with the reason, and the error rethrown.
   */
  private async command(book: RunBook, send: () => Promise<A3sCommandResult>): Promise<A3sAdmission> {
    try {
      return await admitA3sCommand(async () => {
        for (const runId of await findA3sStrandedRuns(this.requireReady(), a3sProbeTargets(this.books.values(), book, (b) => this.identity(b)))) {
          await this.markStranded(this.requireBook(runId), 'the harness restarted and no longer has its session open');
        }
        return send();
      });
    } catch (error) {
      const failure = toDriverError(error);
      book.terminal = true;
      book.changeSet = 'done';
      this.applyFields(book.runId, { state: 'failed', stateDetail: failure.message });
      await this.saveRun(book);
      throw failure;
    } finally {
      book.awaitingReceipt = false;
    }
  }

  private async afterReceipt(book: RunBook, admission: A3sAdmission, action: 'start' | 'recover'): Promise<void> {
    if (admission.kind === 'unverified') {
      const text = unverifiedReceiptText(action, admission.mismatch);
      this.ctx.log.warn(`A3S run ${book.runId}: ${text} (${admission.mismatch.message})`);
      await this.recordLocal(book.runId, { kind: 'notice', text, level: 'warning' }); // the state comes from the first page
    } else {
      if (admission.result.replayed) {
        book.replayed = true;
        await this.recordLocal(book.runId, { kind: 'notice', text: replayedCommandText(action), level: 'info' });
      }
      this.applyState(book.runId, admission.result.receipt.state);
    }
    await this.saveRun(book);
    this.startPolling(book);
  }

  private applyFields(runId: string, fields: RunFields): void {
    this.ctx.store.dispatch({ type: 'runUpserted', connectionId: this.connectionId, runId, fields });
  }

  /** The harness's run state (from a receipt or a page): active states carry the harness's word as detail. */
  private applyState(runId: string, a3sState: string): void {
    const { state, detail } = mapA3sRunState(a3sState);
    const run = this.run(runId);
    if (run && isTerminalRunState(run.state)) {
      return; // never move a finished run back on a stale observation; `finish` sets the final state
    }
    if (isTerminalRunState(state)) {
      // The harness is done, but pages may still hold events: the final state comes once they are all read.
      this.applyFields(runId, { state: 'finishing', stateDetail: `${a3sState}; reading the last events` });
      return;
    }
    this.applyFields(runId, { state, stateDetail: detail ?? '' });
  }

  private async recordLocal(runId: string, event: RunEvent): Promise<void> {
    this.ctx.store.dispatch({ type: 'runEvent', runKey: this.key(runId), event });
    await this.storage.appendQuietly(runId, { l: event });
  }

  // --- connection ---------------------------------------------------------------------------------------------

  private async connectOnce(onLost: (reason: string) => void): Promise<void> {
    const problem = a3sProfileProblem(this.ctx.profile);
    if (problem !== undefined) {
      throw new DriverError(problem, 'fatal');
    }
    const profile = this.ctx.profile;
    if (!this.client || !this.readiness) {
      this.client = new A3sClient({
        baseUrl: profile.url!,
        allowNonLoopback: profile.allowRemote ?? false,
        ...(profile.readinessPath ? { readinessPath: profile.readinessPath } : {}),
        ...(profile.livenessPath ? { livenessPath: profile.livenessPath } : {}),
        frameTap: this.ctx.tap,
        ...(this.options.requestTimeoutMs !== undefined ? { requestTimeoutMs: this.options.requestTimeoutMs } : {}),
      });
      this.readiness = new A3sReadiness(this.client);
    }
    const reason = await this.readiness.problem();
    if (reason !== undefined) {
      throw new Error(reason);
    }
    if (this.disposed || !this.loop.isWanted) {
      return;
    }
    this.ready = true;
    this.ctx.store.dispatch({
      type: 'connectionInfo',
      connectionId: this.connectionId,
      capabilities: CAPABILITIES,
      serverDescription: `A3S Code harness (${A3S_PROTOCOL})`,
      details: { url: profile.url, session: await this.sessionId() },
    });
    this.readiness.watch(this.options.healthIntervalMs ?? 5_000, (lost) => {
      this.ctx.log.warn(`A3S harness: ${lost}`);
      this.goOffline();
      onLost(lost);
    });
    this.resumeRuns();
  }

  private goOffline(): void {
    this.ready = false;
    this.readiness?.stop();
    for (const book of this.books.values()) {
      book.poller?.dispose();
      book.poller = undefined;
    }
  }

  /** On (re)connect: follow every active run from its cursor; fetch change sets still missing. */
  private resumeRuns(): void {
    for (const book of this.books.values()) {
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

  // --- events -------------------------------------------------------------------------------------------------

  private startPolling(book: RunBook): void {
    if (!this.ready || !this.client || book.poller || book.terminal || book.stranded) {
      return;
    }
    const poller = new A3sRunPoller({
      client: this.client,
      identity: this.identity(book),
      after: book.cursor,
      activeIntervalMs: this.options.pollActiveMs ?? 250,
      maxIntervalMs: this.options.pollMaxMs ?? 5_000,
    });
    book.poller = poller;
    poller.onGap((gap) => this.onGap(book, gap.fromSequence, gap.toSequenceExclusive));
    poller.onEvents(({ events }) => this.onEvents(book, events));
    poller.onState((state) => this.applyState(book.runId, state));
    poller.onError(({ error, willRetry }) => {
      this.ctx.log.warn(`Reading events of ${book.runId}: ${error.message}${willRetry ? ' (retrying)' : ''}`);
      if (error.kind === 'transport' || (error instanceof A3sHttpError && error.code === A3S_ERROR_CODE.harnessClosed)) {
        void this.readiness?.checkNow();
      }
    });
    poller.onEnd((end) => {
      if (book.poller === poller) {
        book.poller = undefined;
      }
      if (end.reason === 'terminal') {
        void this.finish(book, end.state);
      } else if (end.reason === 'error') {
        void this.pollFailed(book, end.error);
      }
    });
    void poller.start();
  }

  private onGap(book: RunBook, from: number, toExclusive: number, record = true): void {
    // Wire sequences [from, to) are lost = model sequences (from, to] (the model is the wire + 1).
    if (toExclusive <= (this.run(book.runId)?.lastSequence ?? 0)) {
      return;
    }
    this.ctx.store.dispatch({ type: 'runGap', runKey: this.key(book.runId), from, to: toExclusive, reason: GAP_REASON });
    if (record) {
      void this.storage.appendQuietly(book.runId, { g: [from, toExclusive] });
    }
  }

  private onEvents(book: RunBook, records: readonly A3sEventRecord[]): void {
    for (const record of records) {
      if (!this.fold(book, record)) {
        continue;
      }
      this.storage.append(book.runId, { s: record.sequence, at: record.occurred_at_ms, e: record.event }).then(
        () => {
          book.cursor = Math.max(book.cursor ?? -1, record.sequence);
          this.storage.scheduleSave(book.runId, () => void this.saveRun(book));
        },
        (error: unknown) => {
          // After dispose the journal is closed; the cursor did not move, so a reload pages these events again.
          if (!this.disposed) {
            this.ctx.log.error(`Could not store run ${book.runId}: ${errorText(error)}`);
          }
        },
      );
    }
  }

  /** Folds one record (live or from the journal); false when it was already held. */
  private fold(book: RunBook, record: A3sEventRecord): boolean {
    const sequence = record.sequence + 1;
    if (sequence <= (this.run(book.runId)?.lastSequence ?? 0)) {
      return false;
    }
    const mapped = mapA3sEvent(decodeA3sEvent(record), book.mapping);
    const events: readonly RunEvent[] = mapped.events.length > 0 ? mapped.events : [{ kind: 'messageBoundary' }];
    events.forEach((event, i) => this.ctx.store.dispatch({ type: 'runEvent', runKey: this.key(book.runId), ...(i === 0 ? { sequence } : {}), event }));
    return true;
  }

  private async finish(book: RunBook, a3sState: string): Promise<void> {
    if (book.terminal) {
      return;
    }
    book.terminal = true;
    const { state } = mapA3sRunState(a3sState);
    this.ctx.store.dispatch({ type: 'runEvent', runKey: this.key(book.runId), event: { kind: 'stateChanged', state, announce: true } });
    await this.saveRun(book);
    await this.fetchChangeSet(book);
  }

  private async pollFailed(book: RunBook, error: A3sError): Promise<void> {
    if (error instanceof A3sHttpError && (error.code === A3S_ERROR_CODE.sessionNotFound || error.code === A3S_ERROR_CODE.runUnavailable)) {
      await this.markStranded(book, 'the harness no longer has its session open (it probably restarted)');
    } else if (error instanceof A3sHttpError && error.code === A3S_ERROR_CODE.runNotFound) {
      book.terminal = true;
      book.changeSet = 'done';
      this.ctx.store.dispatch({ type: 'runEvent', runKey: this.key(book.runId), event: { kind: 'stateChanged', state: 'lost', detail: 'The harness does not know this run any more. The transcript is kept.', announce: true } });
      await this.saveRun(book);
    } else if (this.ready) {
      await this.recordLocal(book.runId, { kind: 'notice', text: `Stopped reading this run's events: ${error.message}. "Refresh" tries again.`, level: 'error' });
    }
  }

  private async markStranded(book: RunBook, why: string): Promise<void> {
    if (book.stranded || book.terminal) {
      return;
    }
    book.stranded = true;
    book.poller?.dispose();
    book.poller = undefined;
    this.ctx.store.dispatch({
      type: 'runEvent',
      runKey: this.key(book.runId),
      event: { kind: 'stateChanged', state: 'interrupted', detail: `Stranded: ${why}. Use "Recover A3S Run" to resume it from its checkpoint as a new run.`, announce: true },
    });
    this.publishRecoverPanel(book.runId);
    await this.saveRun(book);
  }

  private publishRecoverPanel(runId: string): void {
    this.ctx.store.dispatch({ type: 'runPanels', runKey: this.key(runId), panels: [a3sRecoverPanel(A3S_RECOVER_PANEL)], merge: true });
  }

  // --- change sets --------------------------------------------------------------------------------------------

  private async fetchChangeSet(book: RunBook): Promise<void> {
    const client = this.client;
    if (book.changeSet !== 'none' || !client || !this.ready) {
      return;
    }
    book.changeSet = 'fetching';
    this.publishChangeSet(book.runId, { source: 'daemon', status: 'capturing', reason: 'Fetching the change set from the harness…' });
    const outcome = await a3sChangeSetOutcome(client, this.identity(book), {
      replayed: book.replayed,
      ...(this.options.changeSetInitialDelayMs !== undefined ? { initialDelayMs: this.options.changeSetInitialDelayMs } : {}),
      ...(this.options.changeSetMaxDelayMs !== undefined ? { maxDelayMs: this.options.changeSetMaxDelayMs } : {}),
    });
    if (!outcome.final) {
      book.changeSet = 'none';
      this.ctx.log.warn(`Change set of ${book.runId}: ${outcome.reason}`);
      this.publishChangeSet(book.runId, { source: 'daemon', status: 'capturing', reason: `Not fetched yet (${outcome.reason}); tried again when the harness is ready.` });
      return;
    }
    book.changeSet = 'done';
    this.publishChangeSet(book.runId, outcome.changeSet);
    await this.storage.saveChangeSet(book.runId, outcome.changeSet);
  }

  private publishChangeSet(runId: string, changeSet: CachedChangeSet): void {
    this.ctx.store.dispatch({ type: 'changeSet', changeSet: { runKey: this.key(runId), ...changeSet } });
  }

  // --- persistence --------------------------------------------------------------------------------------------

  private saveRun(book: RunBook): Promise<void> {
    return this.storage.saveRun(book, this.run(book.runId));
  }

  /** Rebuilds stored runs and transcripts once (after a window reload), before the first connect. */
  private loadJournal(): Promise<void> {
    this.loaded ??= (async () => {
      for (const { stored, extra, items, changeSet } of await this.storage.loadRuns()) {
        if (this.books.has(stored.runId)) {
          continue;
        }
        const parsed = runStateSchema.safeParse(stored.state);
        const state = parsed.success ? parsed.data : 'lost';
        this.applyFields(stored.runId, {
          title: stored.title,
          state,
          createdAt: stored.createdAt,
          ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}),
        });
        const book = this.newBook(stored.runId, extra.sessionId, extra);
        let held: number | null = null;
        for (const item of items) {
          if (item.kind === 'event') {
            this.fold(book, { sequence: item.sequence, occurred_at_ms: item.occurredAtMs, event: item.event });
            held = Math.max(held ?? -1, item.sequence);
          } else if (item.kind === 'gap') {
            this.onGap(book, item.from, item.toExclusive, false);
          } else {
            this.ctx.store.dispatch({ type: 'runEvent', runKey: this.key(stored.runId), event: item.event });
          }
        }
        // The journal is the truth for what is held; the index's cursor only helps when it has no records.
        book.cursor = held ?? extra.cursor;
        // Replayed events must not move the state: the stored one is the last we knew.
        this.applyFields(stored.runId, { state });
        book.terminal = isTerminalRunState(state) && !book.stranded;
        if (book.stranded) {
          this.publishRecoverPanel(stored.runId);
        }
        if (changeSet) {
          book.changeSet = 'done';
          this.publishChangeSet(stored.runId, changeSet);
        } else if (state === 'failed' && book.cursor === null) {
          book.changeSet = 'done'; // the command itself failed: the run never existed on the harness
        }
      }
    })();
    return this.loaded;
  }
}
