/**
 * Folds AgencyProxy run events into the model, live or replayed from the journal: the wire event becomes model
 * events (eventMapping.ts), and the books beside the model follow it — approvals hold back acks, a provider session
 * is remembered for continueInNewRun, answering/waiting is tracked (runActivityBook.ts). A live terminal event
 * expires what the run still waits for and finishes its local change set; replayed ones touch nothing outside the
 * model (the driver's journal replay settles those once the run's own decisions were replayed).
 */
import type { EventFrame, RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import { mapAgencyProxyEvent } from './eventMapping';
import type { ActivityChange } from './runActivityBook';

export class AgencyProxyEventFolder {
  constructor(
    private readonly parts: AgencyProxyRunParts,
    /** After a live terminal event: the snapshot's exact final state. */
    private readonly readFinalState: (runId: string) => Promise<void>,
  ) {}

  /** A frame from the daemon; false when it was already folded (replay overlap, WIRE.md 1.9), so not to be stored. */
  foldLive(frame: EventFrame): boolean {
    const { runs } = this.parts;
    let run = runs.get(frame.run_id);
    if (!run) {
      runs.upsert(frame.run_id, { title: frame.run_id, state: 'running' });
      run = runs.get(frame.run_id)!;
    }
    if (frame.sequence <= run.lastSequence) {
      return false; // already folded in and journaled
    }
    if (this.fold(frame.run_id, frame.sequence, frame.event).becameIdle) {
      // An answer ended (live, or replayed after an attach): show what it changed without waiting for the end.
      void this.parts.localChanges.refresh(frame.run_id);
    }
    return true;
  }

  /** Folds one daemon event into the model (live or, `restored`, replayed from the journal). */
  fold(runId: string, sequence: number, event: WireRunEvent, restored = false): ActivityChange {
    const { runs, acks, ownership, activity } = this.parts;
    const mapped = mapAgencyProxyEvent(event);
    const events = mapped.events.length > 0 ? mapped.events : [{ kind: 'messageBoundary' } as const];
    events.forEach((e, i) => runs.event(runId, e, { ...(i === 0 ? { sequence } : {}), restored }));
    if (event.type === 'approval_requested') {
      acks.approvalRequested(runId, event.payload.approval_id, sequence);
    }
    if (event.type === 'session_opened' && ownership.noteSession(runId, event.payload.provider_session_id) && !restored) {
      void this.parts.saveRun(runId); // the session a lost run is continued from (continueInNewRun)
    }
    if (mapped.fields) {
      runs.upsert(runId, mapped.fields);
    }
    const activityChange = activity.observe(runId, event);
    if (activityChange.state) {
      runs.upsert(runId, { state: activityChange.state });
    }
    if (mapped.terminal && !restored) {
      this.parts.expireApprovals(runId, 'The run ended before a decision was made.');
      void this.parts.localChanges.finish(runId);
      void this.readFinalState(runId);
    }
    return activityChange;
  }
}
