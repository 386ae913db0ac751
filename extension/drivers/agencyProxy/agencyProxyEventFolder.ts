/**
 * Folds live AgencyProxy run events into the model: the wire event becomes model inputs (events, the fields they
 * imply, the activity and provider session as a cursor: agencyProxyRecords.ts), which the kit's door folds and
 * journals in one go, and the books beside the model follow it — approvals hold back acks, a provider session
 * is remembered for continueInNewRun, answering/waiting is tracked (runActivityBook.ts). A terminal event expires
 * what the run still waits for and finishes its local change set; it and each `message_boundary` take a file
 * checkpoint (issue #26). A reload does not come through here: it
 * folds the journaled inputs again as they are (agencyProxyRecords.ts), touching nothing outside the model.
 *
 * Frames come one at a time, and the end of each read (or of the part of it one turn of the event loop delivers:
 * transport/readPacing.ts) is told. A frame whose inputs are a lone streamed chunk (text, reasoning: nothing
 * else changed) is held by the kit's `StreamedChunks`, which folds it with the chunks that follow it in the read;
 * any other frame, and the end of the read, records what is held first. So a read of 500 text chunks is one model
 * step, one journal line, one patch, and one `stored` for acks through its last sequence.
 */
import type { EventFrame, RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import { StreamedChunks, isStreamedChunk } from '../kit/streamedChunks';
import type { StreamedChunk } from '../kit/streamedChunks';
import type { AgencyProxyFold } from './agencyProxyRecords';
import { agencyProxyFold, agencyProxySteadyChunk } from './agencyProxyRecords';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';

/**
 * What a run being rejoined (agencyProxyDriver.ts `rejoin`) accepts of its live events: nothing while it comes back
 * from its journal; then only the event right after what it holds, until it is attached again — the events in flight
 * from before are resent after the journal's end, and folding one of them early would leave a hole.
 */
export type RejoinGate = 'none' | 'next only';

export class AgencyProxyEventFolder {
  private readonly chunks: StreamedChunks;
  private readonly gates = new Map<string, RejoinGate>();

  constructor(
    private readonly parts: AgencyProxyRunParts,
    /** After a live terminal event: the snapshot's exact final state. */
    private readonly readFinalState: (runId: string) => Promise<void>,
  ) {
    this.chunks = new StreamedChunks((runId, input) => this.parts.storeEvent(runId, input.sequence!, [input]));
  }

  /** The event frames of one socket read, in wire order (`foldFrame` each, then `endRead`). */
  foldRead(frames: readonly EventFrame[]): void {
    try {
      for (const frame of frames) {
        this.foldFrame(frame);
      }
    } finally {
      this.endRead();
    }
  }

  /** One event frame, in wire order; a streamed chunk may be held until the next frame or `endRead`. */
  foldFrame(frame: EventFrame): void {
    try {
      this.foldLive(frame);
    } catch (error) {
      // One bad frame must not cost the rest of the read.
      this.parts.log.error(`Could not fold event ${frame.sequence} of run ${frame.run_id}: ${String(error)}`);
    }
  }

  /** While a run is rejoined, which of its live events are folded (undefined: all, as usual). */
  gate(runId: string, gate: RejoinGate | undefined): void {
    if (gate === undefined) {
      this.gates.delete(runId);
    } else {
      this.chunks.flush();
      this.gates.set(runId, gate);
    }
  }

  /** The read (or one turn's part of it) is through: what is held is recorded. */
  endRead(): void {
    this.chunks.flush();
  }

  /** A frame from the daemon; one already folded (replay overlap, WIRE.md 1.9) is dropped, not stored again. */
  private foldLive(frame: EventFrame): void {
    const { runs } = this.parts;
    let run = runs.get(frame.run_id);
    if (!run) {
      this.chunks.flush();
      void runs.fields(frame.run_id, { title: frame.run_id, state: 'running' });
      run = runs.get(frame.run_id)!;
    }
    const held = this.chunks.heldSequence(frame.run_id);
    const last = held !== undefined && held > run.lastSequence ? held : run.lastSequence;
    if (frame.sequence <= last) {
      return; // already folded in and journaled (or held to be)
    }
    const gate = this.gates.get(frame.run_id);
    if (gate === 'none' || (gate === 'next only' && frame.sequence !== last + 1)) {
      return; // resent once the run is attached again after its journal's end
    }
    const { ownership, activity } = this.parts;
    const steady = agencyProxySteadyChunk({ activity, ownership }, frame.run_id, frame.event);
    if (steady !== undefined) {
      this.chunks.add(frame.run_id, steady, frame.sequence); // most frames: nothing to fold but the chunk
      return;
    }
    const folded = agencyProxyFold({ activity, ownership }, frame.run_id, frame.sequence, frame.event);
    const chunk = loneChunkOf(folded, frame.event);
    if (chunk !== undefined) {
      this.chunks.add(frame.run_id, chunk, frame.sequence);
      return;
    }
    this.chunks.flush();
    if (this.fold(frame.run_id, frame.sequence, frame.event, folded)) {
      // An answer ended (live, or replayed after an attach): show what it changed without waiting for the end.
      void this.parts.localChanges.refresh(frame.run_id);
    }
  }

  /** Folds one daemon event into the model and the journal; true when the run just finished an answer. */
  private fold(runId: string, sequence: number, event: WireRunEvent, folded: AgencyProxyFold): boolean {
    const { acks } = this.parts;
    // An interactive run that ends while it waits for input (a cancel) did nothing since its last boundary's checkpoint.
    const wasIdle = this.parts.runs.get(runId)?.state === 'idle';
    // Dispatched before the books below look at the run (an expiry reads its pending approvals).
    this.parts.storeEvent(runId, sequence, folded.inputs);
    if (event.type === 'approval_requested') {
      acks.approvalRequested(runId, event.payload.approval_id, sequence);
    }
    if (folded.sessionChanged) {
      void this.parts.saveRun(runId); // the session a lost run is continued from (continueInNewRun)
    }
    if (folded.becameIdle || (folded.terminal && !wasIdle)) {
      // A turn boundary (`message_boundary`: the answer ended; or the run ended): the run's files as they are now.
      void this.parts.checkpoints.boundary(runId, this.parts.runs.get(runId)?.workspaceRoots ?? []);
    }
    if (folded.terminal) {
      void this.parts.expireApprovals(runId, 'The run ended before a decision was made.');
      void this.parts.localChanges.finish(runId);
      void this.readFinalState(runId);
    }
    return folded.becameIdle;
  }
}

/** The chunk a frame folds into, when that is all it does (no fields, cursor, session, state or end). */
function loneChunkOf(folded: AgencyProxyFold, event: WireRunEvent): StreamedChunk | undefined {
  if (folded.inputs.length !== 1 || folded.terminal || folded.sessionChanged || folded.becameIdle || event.type === 'approval_requested') {
    return undefined;
  }
  const input = folded.inputs[0]!;
  return 'event' in input && isStreamedChunk(input.event) ? input.event : undefined;
}
