/**
 * Folds live AgencyProxy run events into the model: the wire event becomes the journal's records (model events, the
 * fields they imply, the activity and provider session as a cursor: agencyProxyRecords.ts), which are dispatched
 * and journaled in one go, and the books beside the model follow it — approvals hold back acks, a provider session
 * is remembered for continueInNewRun, answering/waiting is tracked (runActivityBook.ts). A terminal event expires
 * what the run still waits for and finishes its local change set. A reload does not come through here: it
 * dispatches the journaled records as they are (agencyProxyJournal.ts), touching nothing outside the model.
 */
import type { EventFrame, RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import { agencyProxyFold } from './agencyProxyRecords';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';

export class AgencyProxyEventFolder {
  constructor(
    private readonly parts: AgencyProxyRunParts,
    /** After a live terminal event: the snapshot's exact final state. */
    private readonly readFinalState: (runId: string) => Promise<void>,
  ) {}

  /** A frame from the daemon; one already folded (replay overlap, WIRE.md 1.9) is dropped, not stored again. */
  foldLive(frame: EventFrame): void {
    const { runs } = this.parts;
    let run = runs.get(frame.run_id);
    if (!run) {
      runs.upsert(frame.run_id, { title: frame.run_id, state: 'running' });
      run = runs.get(frame.run_id)!;
    }
    if (frame.sequence <= run.lastSequence) {
      return; // already folded in and journaled
    }
    if (this.fold(frame.run_id, frame.sequence, frame.event)) {
      // An answer ended (live, or replayed after an attach): show what it changed without waiting for the end.
      void this.parts.localChanges.refresh(frame.run_id);
    }
  }

  /** Folds one daemon event into the model and the journal; true when the run just finished an answer. */
  private fold(runId: string, sequence: number, event: WireRunEvent): boolean {
    const { acks, ownership, activity } = this.parts;
    const folded = agencyProxyFold({ activity, ownership }, runId, sequence, event);
    // Dispatched before the books below look at the run (an expiry reads its pending approvals).
    this.parts.storeEvent(runId, sequence, folded.records);
    if (event.type === 'approval_requested') {
      acks.approvalRequested(runId, event.payload.approval_id, sequence);
    }
    if (folded.sessionChanged) {
      void this.parts.saveRun(runId); // the session a lost run is continued from (continueInNewRun)
    }
    if (folded.terminal) {
      this.parts.expireApprovals(runId, 'The run ended before a decision was made.');
      void this.parts.localChanges.finish(runId);
      void this.readFinalState(runId);
    }
    return folded.becameIdle;
  }
}
