/**
 * The AgencyProxy driver: keeps a connection to the daemon, mirrors its runs into the model, and carries out user
 * actions. Durability (WIRE.md 6.1): every event folded into a transcript is appended to the run's journal in the
 * extension's storage, and `ack_events` is sent only through what is on disk — never past an unanswered approval,
 * so a reload can always show it again. After a reload the journal is replayed and each run re-attached after the
 * last stored sequence: nothing lost, nothing doubled. A run the daemon no longer knows is kept and marked lost.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { RunEvent as ModelRunEvent, RunFields } from '../../model/modelActions';
import type { Capability } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { EventFrame, RunEvent as WireRunEvent, RunSnapshot } from '../../protocol/agencyProxy';
import { isTerminalRunState as isWireTerminal, serializeRunEvent } from '../../protocol/agencyProxy';
import type { ApprovalDecision } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { RunJournal, safeFileName } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { LocalChangeSetRecord } from '../localChangeSet';
import { LocalChangeSets, localChangeSetExtra, localChangeSetFromExtra } from '../localChangeSet';
import type { Driver, ProviderChoice, StartRunOptions } from '../driver';
import { DriverError } from '../driver';
import { ReconnectLoop } from '../reconnectLoop';
import { AgencyProxyError, isAgencyProxyError } from './agencyProxyError';
import { AgencyProxyClient } from './client';
import { AckTracker } from './ackTracker';
import { mapAgencyProxyEvent, mapRunState } from './eventMapping';
import { candidateSocketPaths, checkSocketSecurity, findExistingSocket } from './socketDiscovery';
import type { JournalRecord } from './storedRuns';
import { replayJournal, runFieldsOf, storedRunOf } from './storedRuns';

const CAPABILITY_MAP: Record<string, Capability[]> = {
  live_injection: ['run.inject'],
  approvals: ['approvals', 'approvals.allowSimilar'],
  cancellation: ['run.cancel'],
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
  /** AgencyProxy sends no change sets: the editor snapshots the git workspace around each run (localChangeSet.ts). */
  private readonly localChanges: LocalChangeSets;
  private readonly localRecords = new Map<string, LocalChangeSetRecord>();

  constructor(private readonly ctx: DriverContext) {
    this.connectionId = ctx.connectionId;
    this.journal = new RunJournal(join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId)));
    this.acks = new AckTracker(
      (runId, through) => (this.client?.isOpen ? this.client.ackEvents(runId, through) : undefined),
      (message) => ctx.log.warn(message),
    );
    this.localChanges = new LocalChangeSets(ctx.store, ctx.connectionId, ctx.log);
    this.loop = new ReconnectLoop({
      connectOnce: (onLost) => this.connectOnce(onLost),
      setState: (state) => ctx.store.dispatch({ type: 'connectionState', connectionId: this.connectionId, state }),
      describeError: (error) => ({
        message: error instanceof Error ? error.message : String(error),
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

  async listProviders(): Promise<readonly ProviderChoice[]> {
    const providers = await this.requireClient().probeProviders();
    return providers.map((p) => ({
      provider: p.provider,
      installed: p.installed,
      ...(p.version ? { version: p.version } : {}),
      authState: p.authState,
      detail: p.detail,
      loginHint: p.loginHint,
    }));
  }

  async startRun(options: StartRunOptions): Promise<string> {
    const client = this.requireClient();
    const runId = `sb-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const title = options.prompt.trim().split(/\r?\n/, 1)[0]!.slice(0, 80) || 'Untitled run';
    const fields: RunFields = {
      title,
      provider: options.provider ?? 'claude',
      model: options.model ?? '',
      state: 'starting',
      workspaceRoots: options.workspaceRoots,
    };
    this.ctx.store.dispatch({ type: 'runUpserted', connectionId: this.connectionId, runId, fields });
    this.starting.add(runId);
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
        interactive: options.interactive ?? true,
        workspaceRoots: [...options.workspaceRoots],
        metadata: { title, client: 'agent-switchboard' },
      });
    } catch (error) {
      // A retried start that meets `conflict` for our own fresh id means the first attempt went through.
      if (!isAgencyProxyError(error, 'conflict')) {
        this.applyFields(runId, { state: 'failed', stateDetail: error instanceof Error ? error.message : String(error) });
        await this.saveRun(runId);
        throw this.userError(error);
      }
    } finally {
      this.starting.delete(runId);
    }
    await this.attach(client, runId);
    return runId;
  }

  async sendMessage(runId: string, text: string): Promise<void> {
    const client = this.requireClient();
    try {
      await client.injectMessage(runId, text, this.acks.nextInjection(runId));
    } catch (error) {
      // Never retried: inject_message is not deduplicated by the daemon (a retry could deliver it twice).
      throw this.userError(error);
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
      throw this.userError(error);
    }
  }

  async decideApproval(runId: string, approvalId: string, decision: ApprovalDecision): Promise<void> {
    try {
      await this.requireClient().decideApproval(runId, approvalId, decision);
    } catch (error) {
      throw this.userError(error);
    }
    this.acks.approvalAnswered(runId, approvalId);
    await this.recordLocal(runId, { kind: 'approvalSettled', approvalId, decision });
    this.acks.schedule(runId);
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
      throw this.userError(error);
    }
  }

  /** Stops the daemon only when no run is active (`conflict` otherwise, said plainly). */
  async shutdownIfIdle(): Promise<void> {
    try {
      await this.requireClient().shutdownIfIdle();
    } catch (error) {
      throw this.userError(error);
    }
  }

  /** Stops the daemon (drain lets runs finish; terminate cancels them). */
  async shutdown(mode: 'drain' | 'terminate'): Promise<void> {
    try {
      await this.requireClient().shutdown(mode);
    } catch (error) {
      throw this.userError(error);
    }
  }

  // ------------------------------------------------------------------------------------------------------------

  private requireClient(): AgencyProxyClient {
    if (!this.client?.isOpen) {
      throw new DriverError('AgencyProxy is not connected.');
    }
    return this.client;
  }

  private userError(error: unknown): DriverError {
    if (error instanceof AgencyProxyError) {
      return new DriverError(error.message, error.code);
    }
    return error instanceof DriverError ? error : new DriverError(error instanceof Error ? error.message : String(error));
  }

  private resolveSocket(): string {
    if (this.ctx.profile.socketPath) {
      return this.ctx.profile.socketPath;
    }
    const candidates = candidateSocketPaths();
    return findExistingSocket(candidates) ?? candidates[0]!;
  }

  private async connectOnce(onLost: (reason: string) => void): Promise<void> {
    const socketPath = this.resolveSocket();
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
        this.expireApprovals(run.runId);
        void this.finishLocalChangeSet(run.runId);
        await this.saveRun(run.runId);
      }
    }
    for (const snapshot of runs) {
      const key = runKeyOf(this.connectionId, snapshot.runId);
      const existing = this.ctx.store.state.runs.get(key);
      const title = typeof snapshot.metadata.title === 'string' ? snapshot.metadata.title : snapshot.runId;
      const { state, detail } = mapRunState(snapshot.state);
      this.applyFields(snapshot.runId, {
        ...(existing ? {} : { title }),
        provider: snapshot.provider,
        model: snapshot.model,
        state,
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
      this.ctx.log.warn(`attach ${runId}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (snapshot.acknowledgedSequence > held) {
      // Acked by someone else before we stored them: those events are gone (WIRE.md 1.9).
      this.ctx.store.dispatch({ type: 'runGap', runKey: key, from: held, to: snapshot.acknowledgedSequence, reason: 'acknowledged by another client before this editor stored them' });
    }
    const { state, detail } = mapRunState(snapshot.state);
    this.applyFields(runId, { state, ...(detail ? { stateDetail: detail } : {}) });
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
    this.fold(frame.run_id, frame.sequence, frame.event);
    this.journal.append(frame.run_id, { s: frame.sequence, e: serializeRunEvent(frame.event) } satisfies JournalRecord).then(
      () => {
        this.acks.stored(frame.run_id, frame.sequence);
        this.acks.schedule(frame.run_id);
      },
      (error: unknown) => this.ctx.log.error(`Could not store run ${frame.run_id} (events stay unacknowledged): ${String(error)}`),
    );
  }

  /** Folds one daemon event into the model (live or replayed from the journal). */
  private fold(runId: string, sequence: number, event: WireRunEvent): void {
    const key = runKeyOf(this.connectionId, runId);
    const mapped = mapAgencyProxyEvent(event);
    const events = mapped.events.length > 0 ? mapped.events : [{ kind: 'messageBoundary' } as const];
    events.forEach((e, i) => this.ctx.store.dispatch({ type: 'runEvent', runKey: key, ...(i === 0 ? { sequence } : {}), event: e }));
    if (event.type === 'approval_requested') {
      this.acks.approvalRequested(runId, event.payload.approval_id, sequence);
    }
    if (mapped.fields) {
      this.applyFields(runId, mapped.fields);
    }
    if (mapped.terminal) {
      this.expireApprovals(runId);
      void this.finishLocalChangeSet(runId);
      void this.refreshFinalState(runId);
    }
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

  private expireApprovals(runId: string): void {
    const key = runKeyOf(this.connectionId, runId);
    const run = this.ctx.store.state.runs.get(key);
    for (const approvalId of run?.pendingApprovals ?? []) {
      this.ctx.store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'approvalSettled', approvalId, expired: true } });
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
    await this.journal.saveRun(storedRunOf(run, local ? localChangeSetExtra(local) : undefined)).catch((error: unknown) => this.ctx.log.error(`Could not store run list: ${String(error)}`));
  }

  /** Rebuilds stored transcripts once (after a window reload), before the first connect. */
  private loadJournal(): Promise<void> {
    this.loaded ??= replayJournal(this.journal, {
      run: (stored) => {
        this.applyFields(stored.runId, runFieldsOf(stored));
        const local = localChangeSetFromExtra(stored.extra);
        if (local) {
          this.localRecords.set(stored.runId, local);
          this.localChanges.restore(stored.runId, local);
        }
      },
      event: (runId, sequence, event) => {
        this.fold(runId, sequence, event);
        this.acks.stored(runId, sequence);
      },
      local: (runId, event) => {
        if (event.kind === 'userPrompt' && event.note) {
          this.acks.nextInjection(runId);
        }
        if (event.kind === 'approvalSettled') {
          this.acks.approvalAnswered(runId, event.approvalId);
        }
        this.ctx.store.dispatch({ type: 'runEvent', runKey: runKeyOf(this.connectionId, runId), event });
      },
      runDone: (stored) => {
        // Replaying terminal events must not touch the daemon; the stored state is the last one we knew.
        const { state } = runFieldsOf(stored);
        this.applyFields(stored.runId, { state });
        if (state && isTerminalRunState(state)) {
          void this.finishLocalChangeSet(stored.runId);
        }
      },
    });
    return this.loaded;
  }
}
