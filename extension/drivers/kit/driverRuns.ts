/**
 * The one door between a driver and the model: every change a driver makes to its connection's runs goes through
 * here — fields, events, gaps, panels, change sets, the prompt queue, approval expiry, resume state, the run index
 * and the replay after a reload. The base driver owns it (`this.runs`); a driver never dispatches to the store.
 *
 * Whether the runs are journaled is chosen once per driver (`journaling`, an abstract member of BaseDriver): a
 * journaled driver's fields, events (but the display-only ones, `DISPLAY_ONLY_EVENTS`), gaps, panels and approval
 * expiries are folded and written in the same call, so what a reload replays is what the user saw live. Only the
 * kit knows the disk encoding (journalRecords.ts); the door speaks the model's words (`RunInput`). Writes resolve
 * once on disk; a failed write is logged here, once (`record` alone rejects: a driver that acknowledges what it
 * stored must know).
 */
import type { ModelAction, RunEvent, RunFields } from '../../model/modelActions';
import type { ApprovalInfo, ChangeSetInfo, ConnectionInfo, Panel, QueueEntry, RunInfo } from '../../model/modelTypes';
import { approvalKeyOf, runKeyOf } from '../../model/modelTypes';
import type { RunKey } from '../../model/runKeys';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { RunRemoval } from '../driver';
import { errorText } from './errors';
import type { RunInput } from './journalRecords';
import { runInput } from './journalRecords';
import { modelActionOf } from './runRecorder';
import type { RunRecorder } from './runRecorder';
import { journalOf, replayHandlersOf, replayRuns, restoredFieldsOf } from './runJournaling';
import type { Journaling, RestorePolicy } from './runJournaling';
import type { ReplayHandlers } from './runRecorder';
import { archivedRunIds, DEFAULT_RETENTION } from './runRetention';
import { trimHistory } from './runHistoryTrim';
import type { HistoryRetention } from './runRetention';
import { coldSummaryOf, digestOf, storedSummaryOf, summaryCountsOf, summaryOf } from './runSummaries';
import { isTerminalRunState } from '../../protocol/transcriptTypes';

/** Events that only show progress: folded into the model, never journaled (a reload shows the result instead). */
export const DISPLAY_ONLY_EVENTS: ReadonlySet<RunEvent['kind']> = new Set(['toolProgress']);

/** What a connection says about itself (the model's `connectionInfo`, for this connection). */
type ConnectionDetails = Omit<Extract<ModelAction, { type: 'connectionInfo' }>, 'type' | 'connectionId'>;

export class DriverRuns<C = never> {
  private recorder: RunRecorder<C> | undefined;
  private closed = false;
  /** How the connect replayed the stored runs: a run shown from its summary is replayed through them when opened. */
  private handlers: ReplayHandlers<C> | undefined;
  /** Runs being replayed because they were opened (one replay each, however many ask). */
  private readonly loading = new Map<string, Promise<void>>();
  /** The last key built: a stream asks for the same run's key once per frame. */
  private lastKey: { readonly runId: string; readonly key: RunKey } | undefined;

  constructor(
    private readonly ctx: Pick<DriverContext, 'store' | 'connectionId' | 'storageDir' | 'log' | 'windowId' | 'windowName'> & { readonly retention?: () => HistoryRetention; readonly now?: () => number },
    /** Read once, at the first write or replay (the driver's own field, set after the base constructor ran). */
    private readonly journaling: () => Journaling<C>,
  ) {}

  get connectionId(): string {
    return this.ctx.connectionId;
  }

  key(runId: string): RunKey {
    const last = this.lastKey;
    if (last?.runId === runId) {
      return last.key;
    }
    const key = runKeyOf(this.ctx.connectionId, runId);
    this.lastKey = { runId, key };
    return key;
  }

  get(runId: string): RunInfo | undefined {
    return this.ctx.store.state.runs.get(this.key(runId));
  }

  /** One approval of the run, as the model has it. */
  approval(runId: string, approvalId: string): ApprovalInfo | undefined {
    return this.ctx.store.state.approvals.get(approvalKeyOf(this.key(runId), approvalId));
  }

  /** Every run of this connection the store holds. */
  all(): RunInfo[] {
    return [...this.ctx.store.state.runs.values()].filter((run) => run.connectionId === this.ctx.connectionId);
  }

  // --- Model inputs (journaled when the driver journals) ------------------------------------------------------------

  /**
   * Folds the inputs into the run and journals them when the driver journals; resolves once they are on disk,
   * rejects when they could not be written.
   */
  record(runId: string, inputs: readonly RunInput<C>[]): Promise<void> {
    if (this.loading.has(runId) || (this.get(runId)?.unloaded !== undefined && inputs.some((input) => !('fields' in input)))) {
      // A run shown from its summary gets news (a continued run): its transcript comes back first, then this. Fields
      // alone (a daemon's run list restating a state) change no transcript: folded as they are.
      return this.load(runId).then(() => this.record(runId, inputs));
    }
    const recorder = this.journal();
    if (recorder) {
      return recorder.record(runId, inputs);
    }
    if (this.closed && this.journaling() !== 'not journaled') {
      return Promise.reject(new Error('The journal is closed.'));
    }
    for (const input of inputs) {
      this.fold(runId, input);
    }
    return Promise.resolve();
  }

  /** Creates the run or updates its fields. */
  fields(runId: string, fields: RunFields): Promise<void> {
    return this.quietly(runId, [runInput.fields(fields)]);
  }

  /** One event into the run's transcript (`sequence`: the daemon's, when it opens a daemon event). */
  event(runId: string, event: RunEvent, sequence?: number): Promise<void> {
    if (DISPLAY_ONLY_EVENTS.has(event.kind)) {
      this.fold(runId, runInput.event(event, sequence));
      return Promise.resolve();
    }
    return this.quietly(runId, [runInput.event(event, sequence)]);
  }

  /** Events in (from, to] are known to be lost. */
  gap(runId: string, from: number, to: number, reason: string): Promise<void> {
    return this.quietly(runId, [runInput.gap({ from, to, reason })]);
  }

  /** The run's side panels, merged by id (`replace`: the run's panels are these, and only these). */
  panels(runId: string, panels: readonly Panel[], replace = false): Promise<void> {
    return this.quietly(runId, [runInput.panels(panels, replace)]);
  }

  /**
   * Marks every approval of the run that is still pending as expired (nobody waits for it any more), with the
   * reason shown on it (`which`: only those it picks). The one place approvals expire from a driver. Resolves to the ids it expired, once stored.
   */
  async expireApprovals(runId: string, reason?: string, which?: (approvalId: string) => boolean): Promise<readonly string[]> {
    // Not one whose decision is on its way: the daemon may have it already, and the send's outcome settles it (the
    // reducer would ignore the expiry live, but a replay — which has no `deciding` — would not). Folded before the
    // first await: whoever reads the run next sees them expired.
    const pending = (this.get(runId)?.pendingApprovals ?? []).filter((approvalId) => (which?.(approvalId) ?? true) && this.approval(runId, approvalId)?.status !== 'deciding');
    if (pending.length > 0) {
      await this.quietly(runId, pending.map((approvalId) => runInput.event({ kind: 'approvalSettled', approvalId, expired: true, ...(reason !== undefined ? { reason } : {}) })));
    }
    return pending;
  }

  /** Journals the driver's resume state for the run (a replay hands it back to the policy's `record`). */
  cursor(runId: string, cursor: C): Promise<void> {
    return this.quietly(runId, [runInput.cursor(cursor)]);
  }

  // --- What the model shows but no journal keeps -------------------------------------------------------------------

  /** The run's change set (what the daemon delivered or the editor computed; drivers store it their own way). */
  changeSet(runId: string, changeSet: Omit<ChangeSetInfo, 'runKey'>): void {
    this.ctx.store.dispatch({ type: 'changeSet', changeSet: { runKey: this.key(runId), ...changeSet } });
  }

  /** The run's editable prompt queue as the daemon has it now. */
  queue(runId: string, queue: readonly QueueEntry[], paused: boolean): void {
    this.ctx.store.dispatch({ type: 'runQueue', runKey: this.key(runId), queue, paused });
  }

  /** A restored approval's daemon confirmed it still waits: it may be answered again. */
  approvalLive(runId: string, approvalId: string): void {
    this.ctx.store.dispatch({ type: 'approvalChange', runKey: this.key(runId), approvalId, change: { kind: 'live' } });
  }

  /** What the connection says about itself (capabilities, daemon description, warnings). */
  connectionInfo(details: ConnectionDetails): void {
    this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.ctx.connectionId, ...details });
  }

  /** The connection's state (the reconnect loop's, or a driver's own verdict such as a failed restart). */
  connectionState(state: ConnectionInfo['state']): void {
    this.ctx.store.dispatch({ type: 'connectionState', connectionId: this.ctx.connectionId, state });
  }

  // --- The run index, the replay, the files -------------------------------------------------------------------------

  /** Keeps the run's entry in the run index: the model's fields now, and what the driver keeps beside them. */
  async saveRun(runId: string, extra?: Readonly<Record<string, unknown>>): Promise<void> {
    const run = this.get(runId);
    const recorder = this.journal();
    if (!run || !recorder) {
      return;
    }
    const previous = await recorder.loadRun(runId);
    const summary = this.summaryOf(run, previous);
    await recorder.saveRun(storedRunOf(run, extra, summary)).catch((error: unknown) => this.failed(runId, error));
  }

  /**
   * Rebuilds every stored run of this connection (after a window reload), the policy saying what each comes back
   * as. With a `lazy` policy, finished runs come back from their index summary and are replayed when opened (`load`);
   * those past the retention setting are archived (left out). `onlyNew`: reads the index again and rebuilds only the
   * runs not shown yet — what another window of this machine journaled, loaded from its checkpoint and journal
   * instead of asking the daemon to replay it from the start.
   */
  async replay(policy: RestorePolicy<C>, onlyNew = false): Promise<void> {
    const recorder = this.journal();
    const terms = this.journaling();
    if (recorder && terms !== 'not journaled') {
      const retention = this.ctx.retention?.() ?? DEFAULT_RETENTION;
      if (!onlyNew) {
        await trimHistory(recorder, retention, this.ctx.log, terms.removed); // the size limit deletes (runHistoryTrim.ts)
      }
      const archived = policy.lazy ? archivedRunIds(await recorder.loadRuns(), retention, this.now()) : new Set<string>();
      this.handlers = replayHandlersOf(this, this.ctx, terms, policy, (stored) => archived.has(stored.runId));
      await replayRuns(recorder, this.handlers, onlyNew);
    }
  }

  // --- History: runs shown from their summary, archived runs, removal ----------------------------------------------

  /** Replays a run shown from its summary (a view opens it); resolves once its transcript is in the store. */
  load(runId: string): Promise<void> {
    const pending = this.loading.get(runId);
    if (pending) {
      return pending;
    }
    const recorder = this.journal();
    const handlers = this.handlers;
    if (this.get(runId)?.unloaded === undefined || !recorder || !handlers) {
      return Promise.resolve();
    }
    const loading = (async () => {
      const stored = await recorder.loadRun(runId);
      if (stored) {
        await recorder.replayRun(stored, handlers);
      }
    })().finally(() => this.loading.delete(runId));
    this.loading.set(runId, loading);
    return loading;
  }

  /**
   * Drops a finished run's transcript from memory (no view shows it), keeping what the board shows; its summary is
   * saved first. False when it must stay: not finished, waiting for a person, being loaded, or already released.
   */
  async release(runId: string): Promise<boolean> {
    const run = this.get(runId);
    if (!run || run.unloaded !== undefined || this.loading.has(runId) || !isTerminalRunState(run.state) || run.pendingApprovals.length > 0 || !this.handlers) {
      return false;
    }
    await this.saveSummary(runId);
    const now = this.get(runId);
    if (!now || now.unloaded !== undefined || !isTerminalRunState(now.state) || now.pendingApprovals.length > 0) {
      return false; // it changed while its summary was written
    }
    this.ctx.store.dispatch({ type: 'runReleased', runKey: this.key(runId), digest: digestOf(this.summaryOf(now)) });
    return true;
  }

  /** The archived runs' index entries with a summary (Search Run History), newest first. */
  async archived(): Promise<StoredRun[]> {
    const recorder = this.journal();
    if (!recorder || !this.handlers?.summarized) {
      return [];
    }
    return (await recorder.loadRuns())
      .filter((stored) => this.get(stored.runId) === undefined && coldSummaryOf(stored) !== undefined)
      .sort((a, b) => (coldSummaryOf(b)?.activeAt ?? 0) - (coldSummaryOf(a)?.activeAt ?? 0));
  }

  /** Brings an archived run into the model from its summary (it is then opened, and loaded, like any other). */
  async unarchive(runId: string): Promise<boolean> {
    const recorder = this.journal();
    const stored = await recorder?.loadRun(runId);
    const summary = stored && coldSummaryOf(stored);
    if (!stored || !summary || !this.handlers) {
      return false;
    }
    this.ctx.store.dispatch({ type: 'runSummarized', connectionId: this.ctx.connectionId, runId, fields: restoredFieldsOf(stored), summary: summaryCountsOf(summary) });
    return true;
  }

  /**
   * Removes a finished run: out of the model, then its journal, checkpoint and index entry deleted. A run that is
   * not finished is refused (its daemon may still be writing it: stop it first) — the caller says so.
   */
  async remove(runId: string): Promise<RunRemoval> {
    const run = this.get(runId);
    if (run && !isTerminalRunState(run.state)) {
      return 'not finished';
    }
    await this.loading.get(runId)?.catch(() => undefined);
    // Another window of this machine writing it keeps it (its writer would recreate the files): refused, and said.
    const removed = (await this.journal()?.removeRun(runId)) ?? { kind: 'removed' };
    if (removed.kind === 'held elsewhere') {
      return { heldBy: { pid: removed.holder.pid, ...(removed.holder.name !== undefined ? { name: removed.holder.name } : {}) } };
    }
    if (run) {
      this.ctx.store.dispatch({ type: 'runRemoved', runKey: this.key(runId) });
    }
    const terms = this.journaling();
    if (terms !== 'not journaled') {
      terms.removed?.(runId);
    }
    return 'removed';
  }

  // --- Which window writes which run (kit/runWriters.ts) -------------------------------------------------------------

  /** Whether this window journals the run (else another window of this machine does; true when not journaled). */
  writes(runId: string): boolean {
    return this.journal()?.writes(runId) ?? true;
  }

  /** Makes this window the run's writer if it can be; resolves with whether it is (adopting a run needs it). */
  claim(runId: string): Promise<boolean> {
    return this.journal()?.claim(runId) ?? Promise.resolve(true);
  }

  /** The last daemon sequence of the run known to be durably in its journal (acks also need `writes`). */
  journaledThrough(runId: string): number {
    return this.journal()?.journaledThrough(runId) ?? 0;
  }

  /**
   * Calls `onIndex` when another window changed the run index (a new run, a new state), and lets readers of runs
   * probe their writer's lease when it changes. Returns the stop (nothing to stop when not journaled).
   */
  watchOtherWindows(onIndex: () => void): () => void {
    return this.journal()?.watch(onIndex) ?? (() => undefined);
  }

  /** The run's index entry as it is on disk now (what another window stored of it). */
  storedRun(runId: string): Promise<StoredRun | undefined> {
    return this.journal()?.storedRun(runId) ?? Promise.resolve(undefined);
  }

  /** The daemon sequences a run's journal holds, in order (tests of a reload). */
  sequencesOf(runId: string): Promise<number[]> {
    return this.journal()?.sequencesOf(runId) ?? Promise.resolve([]);
  }

  /** Resolves once everything recorded so far is on disk. */
  flush(): Promise<void> {
    return this.recorder?.flush() ?? Promise.resolve();
  }

  /**
   * Saves every loaded run's summary (one coalesced index write: the next connect shows finished runs from them),
   * flushes and closes the journal; writes after this fail quietly (a disposed driver's late events).
   */
  async close(): Promise<void> {
    if (this.recorder && this.handlers) {
      await Promise.all(this.all().filter((run) => run.unloaded === undefined).map((run) => this.saveSummary(run.runId)));
    }
    this.closed = true;
    await this.recorder?.close();
  }

  /** Rewrites the run's index entry with its summary now (its other fields as the index has them). */
  private async saveSummary(runId: string): Promise<void> {
    const run = this.get(runId);
    const recorder = this.recorder;
    const stored = run && (await recorder?.loadRun(runId));
    if (!run || !recorder || !stored || run.unloaded !== undefined) {
      return;
    }
    const summary = this.summaryOf(run, stored);
    const previous = storedSummaryOf(stored);
    if (previous && JSON.stringify(previous) === JSON.stringify(summary)) {
      return; // unchanged: no index write
    }
    await recorder.saveRun({ ...stored, summary }).catch((error: unknown) => this.failed(runId, error));
  }

  private summaryOf(run: RunInfo, previous?: StoredRun) {
    return summaryOf(run, this.ctx.store.transcript(run.key), this.ctx.store.state.changeSets.get(run.key), this.now(), previous && storedSummaryOf(previous));
  }

  private now(): number {
    return this.ctx.now?.() ?? Date.now();
  }

  /** Folds one input into the store only (a driver that does not journal, a display-only event). */
  private fold(runId: string, input: RunInput<C>): void {
    // The same mapping the recorder folds with: one meaning of an input, journaled or not.
    const action = modelActionOf(this.ctx.connectionId, runId, input);
    if (action) {
      this.ctx.store.dispatch(action);
    }
  }


  private quietly(runId: string, inputs: readonly RunInput<C>[]): Promise<void> {
    return this.record(runId, inputs).catch((error: unknown) => this.failed(runId, error));
  }

  private failed(runId: string, error: unknown): void {
    if (!this.closed) {
      this.ctx.log.error(`Could not store run ${runId}: ${errorText(error)}`);
    }
  }

  private journal(): RunRecorder<C> | undefined {
    if (this.recorder === undefined && !this.closed) {
      this.recorder = journalOf(this.ctx, this.journaling());
    }
    return this.recorder;
  }
}

/** A run's entry in the run index: the model's fields, plus what the driver keeps beside them (JSON-safe). */
export function storedRunOf(run: RunInfo, extra?: Readonly<Record<string, unknown>>, summary?: unknown): StoredRun {
  return {
    runId: run.runId,
    title: run.title,
    ...(run.provider !== undefined ? { provider: run.provider } : {}),
    ...(run.model !== undefined ? { model: run.model } : {}),
    state: run.state,
    createdAt: run.createdAt,
    ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
    ...(extra && Object.keys(extra).length > 0 ? { extra } : {}),
    ...(summary !== undefined ? { summary } : {}),
  };
}
