/**
 * Which AgencyProxy runs this connection follows, and bringing the model in line with the daemon's run list: every
 * run that may still have events is attached after the last sequence the editor holds (WIRE.md 1.9), a run the
 * daemon no longer knows is marked lost (it restarted), and approvals restored from the journal are confirmed or
 * expired by what the daemon says. After a run's terminal event the daemon's snapshot gives its exact final state.
 */
import type { RunSnapshot } from '../../protocol/agencyProxy';
import { isTerminalRunState as isWireTerminal } from '../../protocol/agencyProxy';
import type { RunState } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { errorText } from '../kit/errors';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import type { AgencyProxyClient } from './client';
import { mapRunState } from './eventMapping';

const LOST_DETAIL = 'The daemon no longer knows this run (it probably restarted). The transcript is kept.';

export class AgencyProxyAttachments {
  /** Runs whose start_run is in flight: not yet in the daemon's list, but not lost either. */
  readonly starting = new Set<string>();
  /**
   * Runs attached on the current connection: their event stream (and the final-state read after a terminal event)
   * owns their state, so a periodic `list_runs` neither re-attaches them nor overwrites it with a snapshot that may
   * be ahead of the events still in flight (a snapshot's `completed` arriving before `finished` would drop the
   * closing notice). Cleared with each new connection.
   */
  private readonly attached = new Set<string>();

  constructor(
    private readonly parts: AgencyProxyRunParts,
    /** The open client, if any (the final-state read uses whichever is open by then). */
    private readonly client: () => AgencyProxyClient | undefined,
  ) {}

  /** A new connection follows nothing yet. */
  clear(): void {
    this.attached.clear();
  }

  /** The run was removed: it is not followed any more. */
  forget(runId: string): void {
    this.attached.delete(runId);
    this.starting.delete(runId);
  }

  /** Brings the model in line with the daemon's run list, and attaches every run that may still have events. */
  async reconcile(client: AgencyProxyClient, runs: readonly RunSnapshot[]): Promise<void> {
    const { runs: model, activity, ownership } = this.parts;
    const known = new Set(runs.map((r) => r.runId));
    for (const run of model.all()) {
      // A run another window is starting (its index entry came first, its start_run is in flight) is not lost.
      const startingElsewhere = run.state === 'starting' && !ownership.owns(run.runId);
      if (!known.has(run.runId) && !isTerminalRunState(run.state) && !this.starting.has(run.runId) && !startingElsewhere) {
        void model.event(run.runId, { kind: 'stateChanged', state: 'lost', detail: LOST_DETAIL, announce: true });
        void this.parts.expireApprovals(run.runId, 'The daemon no longer knows this run (it probably restarted).');
        void this.parts.localChanges.finish(run.runId);
        await this.parts.saveRun(run.runId);
      }
    }
    for (const snapshot of runs) {
      const existing = model.get(snapshot.runId);
      // Removed by the person (here or in another window of this machine, before or after a reload): never back,
      // whatever the daemon says of it. Archived (retention) and finished: its list does not bring it back either.
      if (!existing && (model.history.removals.removed(snapshot.runId) || (isWireTerminal(snapshot.state) && model.history.leftOut(snapshot.runId)))) {
        continue;
      }
      const title = typeof snapshot.metadata.title === 'string' ? snapshot.metadata.title : snapshot.runId;
      activity.setInteractiveFromMetadata(snapshot.runId, snapshot.metadata);
      ownership.noteSession(snapshot.runId, snapshot.providerSessionId);
      if (this.attached.has(snapshot.runId)) {
        continue; // followed live on this connection
      }
      const held = existing?.lastSequence ?? 0;
      void model.fields(snapshot.runId, {
        ...(existing ? {} : { title }),
        provider: snapshot.provider,
        // The snapshot repeats the requested model, '' for the provider's default; the name `session_opened` gave
        // (journaled, so a reload has it too) must not be blanked by it.
        ...(snapshot.model || !existing?.model ? { model: snapshot.model } : {}),
        ...this.snapshotState(snapshot, held, existing === undefined),
        workspaceRoots: snapshot.workspaceRoots,
      });
      if (!existing) {
        await this.parts.saveRun(snapshot.runId);
      }
      if (!isWireTerminal(snapshot.state) || held < snapshot.latestSequence) {
        await this.attach(client, snapshot.runId);
      }
    }
  }

  /** Attaches the run after the last sequence held; a failed attach is logged (the next reconcile tries again). */
  async attach(client: AgencyProxyClient, runId: string): Promise<void> {
    const model = this.parts.runs;
    const held = model.get(runId)?.lastSequence ?? 0;
    let snapshot: RunSnapshot;
    try {
      snapshot = await client.attachRun(runId, held);
    } catch (error) {
      this.parts.log.warn(`attach ${runId}: ${errorText(error)}`);
      return;
    }
    if (this.client() === client) {
      this.attached.add(runId);
    }
    // Acked by someone else before we stored them: those events are gone (WIRE.md 1.9). Replayed events that came in
    // the snapshot's chunk were folded before this continuation, and the reducer already recorded the jump to them
    // as the gap; record it here only when nothing past it has been folded yet (one gap item either way).
    const folded = model.get(runId)?.lastSequence ?? 0;
    if (snapshot.acknowledgedSequence > folded) {
      void model.gap(runId, folded, snapshot.acknowledgedSequence, 'acknowledged by another client before this editor stored them');
    }
    const fields = this.snapshotState(snapshot, folded, false);
    if (fields.state !== undefined) {
      void model.fields(runId, fields);
    }
    this.confirmRestoredApprovals(runId, snapshot.state === 'waiting_approval');
  }

  /**
   * The run fields a snapshot's state gives, `held` being the last sequence the model folded. A terminal state waits
   * for the events it stands after: while the journal still holds events past `held` (the connection dropped between
   * a `tool_call` and its `tool_result`, and the run finished before the editor was back), folding `completed` now
   * would end the call in flight, and the replayed result would find no open call and add a second tool row
   * (finishedWhileCut.test.ts). Those events end with the run's terminal event, after which the final state is read
   * anyway (`refreshFinalState`); until then the run keeps the state it has (a run new to the model: `running`, its
   * replay starts now). Events acknowledged away (`acknowledgedSequence`) will not come: then the snapshot is all.
   */
  private snapshotState(snapshot: RunSnapshot, held: number, isNew: boolean): { state?: RunState; stateDetail?: string } {
    const { state, detail } = mapRunState(snapshot.state);
    const toCome = held < snapshot.latestSequence && snapshot.acknowledgedSequence < snapshot.latestSequence;
    if (isTerminalRunState(state) && toCome) {
      return isNew ? { state: 'running' } : {};
    }
    return { state: this.parts.activity.present(snapshot.runId, state), ...(detail ? { stateDetail: detail } : {}) };
  }

  /** After a terminal event, the snapshot has the exact final state (completed / failed / canceled). */
  async refreshFinalState(runId: string): Promise<void> {
    const client = this.client();
    if (!client) {
      return;
    }
    try {
      const snapshot = (await client.listRuns()).find((r) => r.runId === runId);
      if (snapshot) {
        const { state, detail } = mapRunState(snapshot.state);
        const before = this.parts.runs.get(runId)?.state;
        // Journaled like the daemon's events: a reload shows the same closing line.
        await this.parts.recordLocal(runId, { kind: 'stateChanged', state, ...(detail ? { detail } : {}), announce: before !== state });
        await this.parts.saveRun(runId);
      }
    } catch (error) {
      this.parts.log.warn(`Reading the final state of ${runId}: ${String(error)}`);
    }
  }

  /**
   * Requests restored from the journal after a reload are not announced until the daemon confirms them: a run that
   * still waits for approval confirms its unsettled requests; one that moved on answered them elsewhere.
   */
  private confirmRestoredApprovals(runId: string, daemonWaits: boolean): void {
    const { runs } = this.parts;
    const restored = (runs.get(runId)?.pendingApprovals ?? []).filter((approvalId) => runs.approval(runId, approvalId)?.live === false);
    if (daemonWaits) {
      restored.forEach((approvalId) => runs.approvalLive(runId, approvalId));
    } else if (restored.length > 0) {
      void runs.expireApprovals(runId, 'The daemon no longer waits for it (answered elsewhere).', (approvalId) => restored.includes(approvalId));
    }
  }
}
