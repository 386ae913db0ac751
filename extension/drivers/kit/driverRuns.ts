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
import { approvalKeyOf } from '../../model/modelTypes';
import { RunKeyCache } from '../../model/runKeys';
import type { RunKey } from '../../model/runKeys';
import type { DriverContext } from '../connectionManager';
import { errorText } from './errors';
import type { RunInput } from './journalRecords';
import { runInput } from './journalRecords';
import { modelActionOf } from './runRecorder';
import type { RunRecorder } from './runRecorder';
import { coldTestOf, journalOf, replayHandlersOf, replayRuns, storedRunOf } from './runJournaling';
import type { ConnectPages, DoorReplayHandlers, Journaling, RestorePolicy } from './runJournaling';
import { DriverRunWriters } from './driverRunWriters';
import { RunHistory } from './runHistory';
import { DEFAULT_RETENTION, retainedRuns } from './runRetention';
import type { HistoryRetention, RunIds } from './runRetention';
import { trimHistory } from './runHistoryTrim';

/** Events that only show progress: folded into the model, never journaled (a reload shows the result instead). */
export const DISPLAY_ONLY_EVENTS: ReadonlySet<RunEvent['kind']> = new Set(['toolProgress']);

/** What a connection says about itself (the model's `connectionInfo`, for this connection). */
type ConnectionDetails = Omit<Extract<ModelAction, { type: 'connectionInfo' }>, 'type' | 'connectionId'>;

export class DriverRuns<C = never> extends DriverRunWriters<C> {
  private recorder: RunRecorder<C> | undefined;
  private closed = false;
  /**
   * How the connect replayed the stored runs (built with the first replay, kept: they know which runs' index entries
   * were restored); a run shown from its summary is replayed through them when opened.
   */
  private handlers: DoorReplayHandlers<C> | undefined;
  /** Runs past the retention setting at the last replay (left out of the model). */
  private archivedIds: RunIds = new Set<string>();
  /** Runs shown from their summary, loaded and released; archived runs; removal (kit/runHistory.ts). */
  readonly history: RunHistory<C>;
  /** Stops following other windows' removals (started with the first replay, when windows may share the journals). */
  private stopRemovalWatch: (() => void) | undefined;
  /** A stream asks for its run's key once per frame. */
  private readonly keys: RunKeyCache;

  constructor(
    private readonly ctx: Pick<DriverContext, 'store' | 'connectionId' | 'storageDir' | 'log' | 'windowId' | 'windowName' | 'runRemoved' | 'runRemoval'> & { readonly retention?: () => HistoryRetention; readonly now?: () => number },
    /** Read once, at the first write or replay (the driver's own field, set after the base constructor ran). */
    private readonly journaling: () => Journaling<C>,
  ) {
    super();
    this.keys = new RunKeyCache(ctx.connectionId);
    this.history = new RunHistory<C>({
      ctx,
      get: (runId) => this.get(runId),
      key: (runId) => this.key(runId),
      journal: () => this.journal(),
      handlers: () => this.handlers,
      failed: (runId, error) => this.failed(runId, error),
      archived: (runId) => this.archivedIds.has(runId),
      removed: (runId) => {
        this.keys.forget(runId);
        const terms = this.journaling();
        if (terms !== 'not journaled') {
          terms.removed?.(runId);
        }
      },
    });
    if (ctx.runRemoval) {
      this.history.onRemoval(ctx.runRemoval);
    }
  }

  get connectionId(): string {
    return this.ctx.connectionId;
  }

  key(runId: string): RunKey {
    return this.keys.of(runId);
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
    if (this.history.removals.removedForGood(runId)) {
      // The person removed it (here or in another window of this machine): news of it brings nothing back.
      return Promise.resolve();
    }
    if (this.history.mustShowFirst(runId) || this.history.mustLoadFirst(runId, inputs.every((input) => 'fields' in input))) {
      // A run shown from its summary gets news (a continued run): its transcript comes back first, then this. Fields
      // alone (a daemon's run list restating a state) change no transcript: folded as they are.
      return this.history.load(runId).then(() => this.record(runId, inputs));
    }
    if (!inputs.every((input) => 'fields' in input)) {
      this.history.recorded(runId);
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
    const summary = this.history.summaryOf(run, previous);
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
      if (policy.lazy) {
        recorder.keepDigest(coldTestOf(policy)); // the next connect reads a digest of the index (storage/runIndexDigest.ts)
      }
      let index = onlyNew ? undefined : await recorder.connectRuns();
      if (index && (await trimHistory(recorder, retention, this.ctx.log, (runId) => this.history.removeStored(runId), index)).length > 0) {
        index = await recorder.connectRuns(); // the size limit deleted runs
      }
      const retained = policy.lazy && index ? retainedRuns(index.runs, retention, this.ctx.now?.() ?? Date.now(), index.older) : undefined;
      // An "only new" replay keeps what the connect archived: another window's new runs are the newest. One policy per
      // driver: the handlers are built once and kept (see `handlers`).
      this.archivedIds = retained?.archived ?? (onlyNew ? this.archivedIds : new Set<string>());
      const pages: ConnectPages = { paged: (older, stubs) => this.history.pages.listed(older, stubs), listed: (runId) => this.history.isOlder(runId) };
      this.handlers ??= replayHandlersOf(this, this.ctx, terms, policy, (stored) => this.archivedIds.has(stored.runId), pages);
      await replayRuns(recorder, this.handlers, onlyNew, index && retained ? { ...index, older: retained.older } : index);
      this.history.removals.dropRemovedElsewhere(); // the index was read: what other windows removed goes here too
      if (this.ctx.windowId !== undefined && !this.closed) {
        this.stopRemovalWatch ??= this.history.removals.watch();
      }
    }
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
    this.stopRemovalWatch?.();
    if (this.recorder) {
      await this.history.saveSummaries(this.all());
    }
    this.closed = true;
    await this.recorder?.close();
  }

  /** Folds one input into the store only (a driver that does not journal, a display-only event). */
  private fold(runId: string, input: RunInput<C>): void {
    // The same mapping the recorder folds with: one meaning of an input, journaled or not.
    const action = modelActionOf(this.ctx.connectionId, runId, input, false, this.key(runId));
    if (action) {
      this.ctx.store.dispatch(action);
    }
  }

  private quietly(runId: string, inputs: readonly RunInput<C>[]): Promise<void> {
    return this.record(runId, inputs).catch((error: unknown) => this.failed(runId, error));
  }

  /** Logs a failed write of the run (not after close: a disposed driver's late events). */
  private failed(runId: string, error: unknown): void {
    if (!this.closed) {
      this.ctx.log.error(`Could not store run ${runId}: ${errorText(error)}`);
    }
  }

  protected journal(): RunRecorder<C> | undefined {
    if (this.recorder === undefined && !this.closed) {
      // Each checkpoint saves its run's summary: a window killed before it closes leaves the two of one moment.
      this.recorder = journalOf(this.ctx, this.journaling(), (runId) => void (this.closed ? undefined : this.history.checkpointed(runId)));
    }
    return this.recorder;
  }
}
