/**
 * The AgencyProxy driver: keeps a connection to the daemon, mirrors its runs into the model, and carries out user
 * actions. Durability (WIRE.md 6.1): every event folded into a transcript is appended to the run's journal in the
 * extension's storage, and `ack_events` is sent only through what is on disk — never past an unanswered approval,
 * so a reload can always show it again, and only for runs this editor started or the user adopted (runOwnership.ts:
 * an ack deletes the journal for every client). After a reload the journal is replayed and each run re-attached
 * after the last stored sequence: nothing lost, nothing doubled. A run the daemon no longer knows (it restarted) is
 * kept and marked lost; `continueInNewRun` resumes its provider session in a new run.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { RunEvent as ModelRunEvent, RunFields } from '../../model/modelActions';
import type { Capability } from '../../model/modelTypes';
import { approvalKeyOf, runKeyOf } from '../../model/modelTypes';
import type { EventFrame, RunEvent as WireRunEvent, RunSnapshot } from '../../protocol/agencyProxy';
import { isTerminalRunState as isWireTerminal, serializeRunEvent } from '../../protocol/agencyProxy';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { RunJournal, safeFileName } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { LocalChangeSetRecord } from '../../changeSets/localChangeSet';
import { LocalChangeSets, localChangeSetExtra, localChangeSetFromExtra } from '../../changeSets/localChangeSet';
import { storeChangeSetSink } from '../kit/localChangeSetSink';
import type { Driver, ProviderChoice, StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { errorText, toDriverError } from '../kit/errors';
import { CoalescedTasks } from '../kit/coalescedTasks';
import { ReconnectLoop } from '../kit/reconnectLoop';
import { isAgencyProxyError } from './agencyProxyError';
import { AgencyProxyClient } from './client';
import { AckTracker } from './ackTracker';
import { mapAgencyProxyEvent, mapRunState } from './eventMapping';
import type { ActivityChange } from './runActivityBook';
import { INTERACTIVE_METADATA_KEY, RunActivityBook } from './runActivityBook';
import { RunOwnership } from './runOwnership';
import type { Continuation, ContinueRunOptions } from './continueRun';
import { planContinuation } from './continueRun';
import { checkSocketSecurity, resolveSocketPath } from './socketDiscovery';
import type { JournalRecord } from './storedRuns';
import { replayJournal, runFieldsOf, storedRunOf } from './storedRuns';

const CAPABILITY_MAP: Record<string, Capability[]> = {
  live_injection: ['run.inject'],
  approvals: ['approvals', 'approvals.allowSimilar'],
  // Ending an interactive run that waits for input is a cancel_run (WIRE.md 1.5: nothing else ends it).
  cancellation: ['run.cancel', 'run.end'],
  provider_detection: ['providers'],
  lifecycle_control: ['daemon.shutdown'],
};

export class AgencyProxyDriver implements Driver {
  readonly protocol = 'agency-proxy' as const;
  readonly connectionId: string;
  private client: AgencyProxyClient | undefined;
  private readonly loop: ReconnectLoop;
  private readonly journal: RunJournal;
  private readonly acks: AckTracker;
  private loaded: Promise<void> | undefined;
  private disposed = false;
  private lastWarning = '';
  /** Runs whose start_run is in flight: not yet in the daemon's list, but not lost either. */
  private readonly starting = new Set<string>();
  /**
   * Runs attached on the current connection: their event stream (and the final-state read after a terminal event)
   * owns their state, so a periodic `list_runs` neither re-attaches them nor overwrites it with a snapshot that may
   * be ahead of the events still in flight (a snapshot's `completed` arriving before `finished` would drop the
   * closing notice). Cleared with each new connection.
   */
  private readonly attached = new Set<string>();
  /** AgencyProxy sends no change sets: the editor snapshots the git workspace around each run (localChangeSet.ts). */
  private readonly localChanges: LocalChangeSets;
  private readonly localRecords = new Map<string, LocalChangeSetRecord>();
  /** Answering or waiting for input: the daemon's snapshot cannot tell (runActivity.ts). */
  private readonly activity = new RunActivityBook();
  /** Change sets recomputed while a run is open (after each answer, on demand), one git snapshot at a time. */
  private readonly interimChanges = new CoalescedTasks();
  /** Runs this editor may acknowledge (started here or adopted), and their provider sessions (runOwnership.ts). */
  private readonly ownership = new RunOwnership();

  constructor(private readonly ctx: DriverContext) {
    this.connectionId = ctx.connectionId;
    this.journal = new RunJournal(join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId)));
    this.acks = new AckTracker(
      // Observed runs are never acked: an ack deletes the journal another client may still need (WIRE.md 1.9).
      (runId, through) => (this.client?.isOpen && this.ownership.owns(runId) ? this.client.ackEvents(runId, through) : undefined),
      (message) => ctx.log.warn(message),
    );
    this.localChanges = new LocalChangeSets(storeChangeSetSink(ctx.store, ctx.connectionId, ctx.log));
    this.loop = new ReconnectLoop({
      connectOnce: (onLost) => this.connectOnce(onLost),
      setState: (state) => ctx.store.dispatch({ type: 'connectionState', connectionId: this.connectionId, state }),
      describeError: (error) => ({
        message: errorText(error),
        fatal: isAgencyProxyError(error, 'incompatible_version') || (error instanceof DriverError && error.code === 'fatal'),
      }),
    });
  }

  async connect(): Promise<void> {
    await this.loadJournal();
    await this.loop.start();
  }

  async disconnect(): Promise<void> {
    this.loop.stop();
    this.client?.close();
    this.client = undefined;
  }

  dispose(): void {
    this.disposed = true;
    void this.disconnect();
    this.acks.dispose();
    void this.journal.close();
  }

  /** Resolves once everything folded so far is on disk (the window is about to go away; tests of a reload). */
  flushStorage(): Promise<void> {
    return this.journal.flush();
  }

  async listProviders(): Promise<readonly ProviderChoice[]> {
    const providers = await this.requireClient().probeProviders();
    return providers.map((p) => ({
      provider: p.provider,
      installed: p.installed,
      ...(p.version ? { version: p.version } : {}),
      outdated: p.outdated,
      authState: p.authState,
      detail: p.detail,
      loginHint: p.loginHint,
    }));
  }

  /** `continuation` is for continueInNewRun: the provider session to resume, and the title naming the old run. */
  async startRun(options: StartRunOptions, continuation?: Continuation): Promise<string> {
    const client = this.requireClient();
    const runId = `sb-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const title = continuation?.title ?? (options.prompt.trim().split(/\r?\n/, 1)[0]!.slice(0, 80) || 'Untitled run');
    const fields: RunFields = {
      title,
      provider: options.provider ?? 'claude',
      model: options.model ?? '',
      state: 'starting',
      workspaceRoots: options.workspaceRoots,
    };
    this.ctx.store.dispatch({ type: 'runUpserted', connectionId: this.connectionId, runId, fields });
    this.starting.add(runId);
    this.ownership.own(runId); // stored with the run below, before start_run is sent
    const interactive = options.interactive ?? true;
    this.activity.setInteractive(runId, interactive);
    const local = await this.localChanges.begin(runId, options.workspaceRoots[0]);
    if (local) {
      this.localRecords.set(runId, local);
    }
    await this.saveRun(runId);
    await this.recordLocal(runId, { kind: 'userPrompt', text: options.prompt });
    try {
      await client.startRun(runId, {
        provider: options.provider ?? 'claude',
        model: options.model ?? '',
        prompt: options.prompt,
        permission: options.permission ?? 'edit',
        approvals: options.approvals ?? true,
        interactive,
        workspaceRoots: [...options.workspaceRoots],
        ...(continuation ? { resumeSessionId: continuation.resumeSessionId } : {}),
        metadata: { title, client: 'agent-switchboard', [INTERACTIVE_METADATA_KEY]: interactive },
      });
    } catch (error) {
      // A retried start that meets `conflict` for our own fresh id means the first attempt went through.
      if (!isAgencyProxyError(error, 'conflict')) {
        this.applyFields(runId, { state: 'failed', stateDetail: errorText(error) });
        await this.saveRun(runId);
        throw toDriverError(error);
      }
    } finally {
      this.starting.delete(runId);
    }
    await this.attach(client, runId);
    return runId;
  }

  /**
   * Lets this editor acknowledge a run another client started (by default it only observes such runs: an ack
   * deletes the journal for every client, WIRE.md 1.9). Stored with the run, so it survives a reload.
   */
  async adoptRun(runId: string): Promise<void> {
    if (!this.ctx.store.state.runs.has(runKeyOf(this.connectionId, runId))) {
      throw new DriverError(`Unknown run ${runId}.`);
    }
    this.ownership.own(runId);
    await this.saveRun(runId);
    this.acks.schedule(runId); // what is already stored may go now
  }

  /** True for runs this editor started or adopted (acknowledged); false for runs it only observes. */
  ownsRun(runId: string): boolean {
    return this.ownership.owns(runId);
  }

  /**
   * Starts a new run that resumes the provider session of a lost (or ended) run, e.g. after a daemon restart, which
   * loses every run but not the provider's session (WIRE.md 1.9). Resolves with the new run's id.
   */
  async continueInNewRun(runId: string, options: ContinueRunOptions = {}): Promise<string> {
    const run = this.ctx.store.state.runs.get(runKeyOf(this.connectionId, runId));
    const { start, continuation } = planContinuation(run, runId, this.ownership.sessionOf(runId), options);
    return this.startRun(start, continuation);
  }

  async sendMessage(runId: string, text: string): Promise<void> {
    const client = this.requireClient();
    try {
      await client.injectMessage(runId, text, this.acks.nextInjection(runId));
    } catch (error) {
      // Never retried: inject_message is not deduplicated by the daemon (a retry could deliver it twice).
      throw toDriverError(error);
    }
    await this.recordLocal(runId, { kind: 'userPrompt', text, note: 'sent while running' });
  }

  async cancelRun(runId: string): Promise<void> {
    try {
      await this.requireClient().cancelRun(runId);
    } catch (error) {
      if (isAgencyProxyError(error, 'conflict')) {
        return; // already cancelling
      }
      throw toDriverError(error);
    }
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface = 'palette'): Promise<void> {
    try {
      await this.requireClient().decideApproval(runId, approvalId, decision);
    } catch (error) {
      throw toDriverError(error);
    }
    this.acks.approvalAnswered(runId, approvalId);
    // Journaled after the run's own events that arrived meanwhile (even its end): a replay still ends decided,
    // because replayed terminal events expire nothing (see loadJournal's runDone).
    await this.recordLocal(runId, { kind: 'approvalSettled', approvalId, decision, by });
    this.acks.schedule(runId);
  }

  /**
   * Recomputes the local change set of a run that is still open (from its start to the working tree now); after
   * the run ended, the final one. Interactive runs stay open for good, so this runs after every answer and on
   * Show Change Set.
   */
  async refreshChangeSet(runId: string): Promise<void> {
    const record = this.localRecords.get(runId);
    const run = this.ctx.store.state.runs.get(runKeyOf(this.connectionId, runId));
    if (!record || !run) {
      return;
    }
    if (isTerminalRunState(run.state)) {
      await this.finishLocalChangeSet(runId);
      return;
    }
    await this.interimChanges.run(runId, () => this.localChanges.refresh(runId, record));
  }

  async refresh(): Promise<void> {
    const client = this.requireClient();
    await this.reconcile(client, await client.listRuns());
  }

  /** Provider account usage as the daemon reports it (provider-specific; shown raw). */
  async readAccountUsage(): Promise<readonly { provider: string; supported: boolean; usage: unknown; error: string | null }[]> {
    try {
      return await this.requireClient().readAccountUsage();
    } catch (error) {
      throw toDriverError(error);
    }
  }

  /** Stops the daemon only when no run is active (`conflict` otherwise, said plainly). */
  async shutdownIfIdle(): Promise<void> {
    try {
      await this.requireClient().shutdownIfIdle();
    } catch (error) {
      throw toDriverError(error);
    }
  }

  /** Stops the daemon (drain lets runs finish; terminate cancels them). */
  async shutdown(mode: 'drain' | 'terminate'): Promise<void> {
    try {
      await this.requireClient().shutdown(mode);
    } catch (error) {
      throw toDriverError(error);
    }
  }

  // ------------------------------------------------------------------------------------------------------------

  private requireClient(): AgencyProxyClient {
    if (!this.client?.isOpen) {
      throw new DriverError('AgencyProxy is not connected.');
    }
    return this.client;
  }

  private async connectOnce(onLost: (reason: string) => void): Promise<void> {
    // The profile's path, else the first live socket at the usual places (WIRE.md 1.1).
    const socketPath = await resolveSocketPath(this.ctx.profile.socketPath, (m) => this.ctx.log.info(m));
    const client = await AgencyProxyClient.connect({ socketPath, frameTap: this.ctx.tap, clientName: 'agent-switchboard' });
    if (this.disposed || !this.loop.isWanted) {
      client.close();
      return;
    }
    const warning = checkSocketSecurity(socketPath).warnings.join(' ');
    if (warning && warning !== this.lastWarning) {
      this.ctx.log.warn(warning);
    }
    this.lastWarning = warning;
    this.ctx.store.dispatch({ type: 'connectionInfo', connectionId: this.connectionId, warning });
    this.client = client;
    this.attached.clear();
    client.onWarning((w) => this.ctx.log.warn(w.message));
    client.onEvent((frame) => this.onEvent(frame));
    client.onClose((info) => {
      if (this.client === client) {
        this.client = undefined;
      }
      if (!info.byClient) {
        this.ctx.log.warn(`Connection lost: ${info.reason}`);
        onLost(info.reason);
      }
    });
    const capabilities = new Set<Capability>(['run.start', 'changeSets.local']);
    for (const c of client.capabilities) {
      for (const mapped of CAPABILITY_MAP[c] ?? []) {
        capabilities.add(mapped);
      }
    }
    this.ctx.store.dispatch({
      type: 'connectionInfo',
      connectionId: this.connectionId,
      capabilities: [...capabilities],
      serverDescription: `${client.serverName} ${client.version.major}.${client.version.minor}`,
    });
    await this.reconcile(client, await client.listRuns());
  }

  /** Brings the model in line with the daemon's run list, and attaches every run that may still have events. */
  private async reconcile(client: AgencyProxyClient, runs: readonly RunSnapshot[]): Promise<void> {
    const known = new Set(runs.map((r) => r.runId));
    for (const run of this.ctx.store.state.runs.values()) {
      if (run.connectionId === this.connectionId && !known.has(run.runId) && !isTerminalRunState(run.state) && !this.starting.has(run.runId)) {
        this.ctx.store.dispatch({
          type: 'runEvent',
          runKey: run.key,
          event: { kind: 'stateChanged', state: 'lost', detail: 'The daemon no longer knows this run (it probably restarted). The transcript is kept.', announce: true },
        });
        this.expireApprovals(run.runId, 'The daemon no longer knows this run (it probably restarted).');
        void this.finishLocalChangeSet(run.runId);
        await this.saveRun(run.runId);
      }
    }
    for (const snapshot of runs) {
      const key = runKeyOf(this.connectionId, snapshot.runId);
      const existing = this.ctx.store.state.runs.get(key);
      const title = typeof snapshot.metadata.title === 'string' ? snapshot.metadata.title : snapshot.runId;
      this.activity.setInteractiveFromMetadata(snapshot.runId, snapshot.metadata);
      this.ownership.noteSession(snapshot.runId, snapshot.providerSessionId);
      if (this.attached.has(snapshot.runId)) {
        continue; // followed live on this connection
      }
      const { state, detail } = mapRunState(snapshot.state);
      this.applyFields(snapshot.runId, {
        ...(existing ? {} : { title }),
        provider: snapshot.provider,
        model: snapshot.model,
        state: this.activity.present(snapshot.runId, state),
        ...(detail ? { stateDetail: detail } : {}),
        workspaceRoots: snapshot.workspaceRoots,
      });
      if (!existing) {
        await this.saveRun(snapshot.runId);
      }
      const held = this.ctx.store.state.runs.get(key)?.lastSequence ?? 0;
      if (!isWireTerminal(snapshot.state) || held < snapshot.latestSequence) {
        await this.attach(client, snapshot.runId);
      }
    }
  }

  private async attach(client: AgencyProxyClient, runId: string): Promise<void> {
    const key = runKeyOf(this.connectionId, runId);
    const held = this.ctx.store.state.runs.get(key)?.lastSequence ?? 0;
    let snapshot: RunSnapshot;
    try {
      snapshot = await client.attachRun(runId, held);
    } catch (error) {
      this.ctx.log.warn(`attach ${runId}: ${errorText(error)}`);
      return;
    }
    if (this.client === client) {
      this.attached.add(runId);
    }
    // Acked by someone else before we stored them: those events are gone (WIRE.md 1.9). Replayed events that came in
    // the snapshot's chunk were folded before this continuation, and the reducer already recorded the jump to them
    // as the gap; record it here only when nothing past it has been folded yet (one gap item either way).
    const folded = this.ctx.store.state.runs.get(key)?.lastSequence ?? 0;
    if (snapshot.acknowledgedSequence > folded) {
      this.ctx.store.dispatch({ type: 'runGap', runKey: key, from: folded, to: snapshot.acknowledgedSequence, reason: 'acknowledged by another client before this editor stored them' });
    }
    const { state, detail } = mapRunState(snapshot.state);
    this.applyFields(runId, { state: this.activity.present(runId, state), ...(detail ? { stateDetail: detail } : {}) });
    this.confirmRestoredApprovals(runId, snapshot.state === 'waiting_approval');
  }

  /**
   * Requests restored from the journal after a reload are not announced until the daemon confirms them: a run that
   * still waits for approval confirms its unsettled requests; one that moved on answered them elsewhere.
   */
  private confirmRestoredApprovals(runId: string, daemonWaits: boolean): void {
    const key = runKeyOf(this.connectionId, runId);
    for (const approvalId of this.ctx.store.state.runs.get(key)?.pendingApprovals ?? []) {
      const approval = this.ctx.store.state.approvals.get(approvalKeyOf(key, approvalId));
      if (!approval || approval.live) {
        continue;
      }
      if (daemonWaits) {
        this.ctx.store.dispatch({ type: 'approvalChange', runKey: key, approvalId, change: { kind: 'live' } });
      } else {
        this.ctx.store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'approvalSettled', approvalId, expired: true, reason: 'The daemon no longer waits for it (answered elsewhere).' } });
      }
    }
  }

  private onEvent(frame: EventFrame): void {
    const key = runKeyOf(this.connectionId, frame.run_id);
    let run = this.ctx.store.state.runs.get(key);
    if (!run) {
      this.ctx.store.dispatch({ type: 'runUpserted', connectionId: this.connectionId, runId: frame.run_id, fields: { title: frame.run_id, state: 'running' } });
      run = this.ctx.store.state.runs.get(key)!;
    }
    if (frame.sequence <= run.lastSequence) {
      return; // replay overlap (WIRE.md 1.9): already folded in and journaled
    }
    if (this.fold(frame.run_id, frame.sequence, frame.event).becameIdle) {
      // An answer ended (live, or replayed after an attach): show what it changed without waiting for the end.
      void this.refreshChangeSet(frame.run_id);
    }
    this.journal.append(frame.run_id, { s: frame.sequence, e: serializeRunEvent(frame.event) } satisfies JournalRecord).then(
      () => {
        this.acks.stored(frame.run_id, frame.sequence);
        this.acks.schedule(frame.run_id);
      },
      (error: unknown) => this.ctx.log.error(`Could not store run ${frame.run_id} (events stay unacknowledged): ${String(error)}`),
    );
  }

  /** Folds one daemon event into the model (live or replayed from the journal). */
  private fold(runId: string, sequence: number, event: WireRunEvent, restored = false): ActivityChange {
    const key = runKeyOf(this.connectionId, runId);
    const mapped = mapAgencyProxyEvent(event);
    const events = mapped.events.length > 0 ? mapped.events : [{ kind: 'messageBoundary' } as const];
    events.forEach((e, i) => this.ctx.store.dispatch({ type: 'runEvent', runKey: key, ...(i === 0 ? { sequence } : {}), event: e, ...(restored ? { restored } : {}) }));
    if (event.type === 'approval_requested') {
      this.acks.approvalRequested(runId, event.payload.approval_id, sequence);
    }
    if (event.type === 'session_opened' && this.ownership.noteSession(runId, event.payload.provider_session_id) && !restored) {
      void this.saveRun(runId); // the session a lost run is continued from (continueInNewRun)
    }
    if (mapped.fields) {
      this.applyFields(runId, mapped.fields);
    }
    const activity = this.activity.observe(runId, event);
    if (activity.state) {
      this.applyFields(runId, { state: activity.state });
    }
    if (mapped.terminal && !restored) {
      this.expireApprovals(runId, 'The run ended before a decision was made.');
      void this.finishLocalChangeSet(runId);
      void this.refreshFinalState(runId);
    }
    return activity;
  }

  /** After a terminal event, the snapshot has the exact final state (completed / failed / canceled). */
  private async refreshFinalState(runId: string): Promise<void> {
    const client = this.client;
    if (!client) {
      return;
    }
    try {
      const snapshot = (await client.listRuns()).find((r) => r.runId === runId);
      if (snapshot) {
        const { state, detail } = mapRunState(snapshot.state);
        const key = runKeyOf(this.connectionId, runId);
        const before = this.ctx.store.state.runs.get(key)?.state;
        this.ctx.store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'stateChanged', state, ...(detail ? { detail } : {}), announce: before !== state } });
        await this.saveRun(runId);
      }
    } catch (error) {
      this.ctx.log.warn(`Reading the final state of ${runId}: ${String(error)}`);
    }
  }

  private expireApprovals(runId: string, reason: string): void {
    const key = runKeyOf(this.connectionId, runId);
    const run = this.ctx.store.state.runs.get(key);
    for (const approvalId of run?.pendingApprovals ?? []) {
      this.ctx.store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'approvalSettled', approvalId, expired: true, reason } });
    }
    this.acks.approvalsGone(runId);
  }

  private applyFields(runId: string, fields: RunFields): void {
    this.ctx.store.dispatch({ type: 'runUpserted', connectionId: this.connectionId, runId, fields });
  }

  private async recordLocal(runId: string, event: ModelRunEvent): Promise<void> {
    this.ctx.store.dispatch({ type: 'runEvent', runKey: runKeyOf(this.connectionId, runId), event });
    await this.journal.append(runId, { l: event } satisfies JournalRecord).catch((error: unknown) => this.ctx.log.error(`Could not store run ${runId}: ${String(error)}`));
  }

  /** Diffs the run's working-tree snapshots once it ended; the result tree is stored so a reload diffs the same. */
  private async finishLocalChangeSet(runId: string): Promise<void> {
    const record = this.localRecords.get(runId);
    if (!record) {
      return;
    }
    const finished = await this.localChanges.finish(runId, record);
    if (finished.resultTree !== record.resultTree) {
      this.localRecords.set(runId, finished);
      await this.saveRun(runId);
    }
  }

  private async saveRun(runId: string): Promise<void> {
    const run = this.ctx.store.state.runs.get(runKeyOf(this.connectionId, runId));
    if (!run) {
      return;
    }
    const local = this.localRecords.get(runId);
    const extra = { ...this.ownership.extraOf(runId), ...(local ? localChangeSetExtra(local) : {}) };
    await this.journal.saveRun(storedRunOf(run, Object.keys(extra).length > 0 ? extra : undefined)).catch((error: unknown) => this.ctx.log.error(`Could not store run list: ${String(error)}`));
  }

  /** Rebuilds stored transcripts once (after a window reload), before the first connect. */
  private loadJournal(): Promise<void> {
    this.loaded ??= replayJournal(this.journal, {
      run: (stored) => {
        this.applyFields(stored.runId, runFieldsOf(stored));
        this.ownership.restore(stored.runId, stored.extra);
        const local = localChangeSetFromExtra(stored.extra);
        if (local) {
          this.localRecords.set(stored.runId, local);
          this.localChanges.restore(stored.runId, local);
        }
      },
      event: (runId, sequence, event) => {
        this.fold(runId, sequence, event, true);
        this.acks.stored(runId, sequence);
      },
      local: (runId, event) => {
        if (event.kind === 'userPrompt' && event.note) {
          this.acks.nextInjection(runId);
        }
        if (event.kind === 'approvalSettled') {
          this.acks.approvalAnswered(runId, event.approvalId);
        }
        this.ctx.store.dispatch({ type: 'runEvent', runKey: runKeyOf(this.connectionId, runId), event, restored: true });
      },
      runDone: (stored) => {
        // Replaying terminal events must not touch the daemon; the stored state is the last one we knew.
        const { state } = runFieldsOf(stored);
        this.applyFields(stored.runId, { state });
        if (state && isTerminalRunState(state)) {
          // Only now, after the run's own journaled decisions were replayed: what is still unsettled expired.
          this.expireApprovals(stored.runId, 'The run had ended before a decision was made.');
          void this.finishLocalChangeSet(stored.runId);
        }
      },
    });
    return this.loaded;
  }
}
