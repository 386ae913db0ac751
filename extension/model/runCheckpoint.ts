/**
 * A run's model state as a checkpoint: what a journal replay of the run's records so far rebuilds, taken from the
 * store instead, so that a window reload loads it and replays only the records written after it (issue #12: three
 * runs of 100k items replayed record by record took 10–13 s). When one is written and how it is checked on load is
 * the driver kit's (drivers/kit/runCheckpoints.ts); this file says what it holds and how it goes back. Pure.
 *
 * It holds what the journal's records make, nothing the editor adds on the side: no prompt queue (SCV restores its
 * own from the run index), no change set (each driver restores its own). Approvals come back as a replay brings
 * them back — `live: false` until the driver confirms the daemon still waits — so a run is not checkpointed while
 * one of its approvals is mid-decision (`deciding`, or `failed` and waiting for a second try): those states are the
 * editor's, not the journal's, and the checkpoint waits for them to settle.
 */
import type { TranscriptItem } from '../protocol/transcriptTypes';
import type { Transcript } from './transcript';
import type { ApprovalInfo, ModelState, RunInfo } from './modelTypes';
import { approvalKeyOf } from './runKeys';
import type { RunKey } from './runKeys';

/** RunInfo without what the key derives and what is not journaled; `openTools` as entries (JSON has no Map). */
export type CheckpointRun = Omit<RunInfo, 'key' | 'connectionId' | 'runId' | 'openTools' | 'queue' | 'queuePaused'> & {
  readonly openTools: readonly (readonly [string, string])[];
};

/** An approval without the keys its run gives it. */
export type CheckpointApproval = Omit<ApprovalInfo, 'key' | 'runKey'>;

export interface RunCheckpointModel {
  readonly run: CheckpointRun;
  readonly approvals: readonly CheckpointApproval[];
  /** The transcript's patch sequence (the items carry their ids). */
  readonly seq: number;
  readonly items: readonly TranscriptItem[];
}

/** Why `captureRun` gave none (for the log: a run skipped now is checkpointed at the next chance). */
export type CaptureRefusal = 'unknown run' | 'approval mid-decision' | 'transcript out of step';

/** The run's checkpoint, or why there is none now. O(items): the items array is copied, the items are shared. */
export function captureRun(state: ModelState, transcript: Transcript | undefined, runKey: string): RunCheckpointModel | CaptureRefusal {
  const run = state.runs.get(runKey);
  if (!run || !transcript) {
    return 'unknown run';
  }
  if (transcript.length !== run.itemCount) {
    return 'transcript out of step';
  }
  const approvals: CheckpointApproval[] = [];
  for (const approval of state.approvals.values()) {
    if (approval.runKey !== runKey) {
      continue;
    }
    if (approval.status === 'deciding' || approval.status === 'failed') {
      return 'approval mid-decision';
    }
    const { key: _key, runKey: _runKey, ...rest } = approval;
    approvals.push(rest);
  }
  const { key: _key, connectionId: _c, runId: _r, openTools, queue: _q, queuePaused: _p, ...fields } = run;
  return { run: { ...fields, openTools: [...openTools] }, approvals, seq: transcript.seq, items: transcript.slice(0, transcript.length) };
}

/** The RunInfo a checkpoint restores, under its key. */
export function restoredRun(connectionId: string, runId: string, key: RunKey, run: CheckpointRun): RunInfo {
  return { ...run, key, connectionId, runId, openTools: new Map(run.openTools) };
}

/** Its approvals, as a replay restores them: not live until the driver confirms them. */
export function restoredApprovals(runKey: RunKey, approvals: readonly CheckpointApproval[]): ApprovalInfo[] {
  return approvals.map((approval) => ({ ...approval, key: approvalKeyOf(runKey, approval.approvalId), runKey, live: false }));
}

/** Whether a checkpoint read back holds as many items as its run counts (the reducer's ids depend on it). */
export function holdsItsItems(model: { readonly items: readonly unknown[]; readonly run: Pick<CheckpointRun, 'itemCount'> }): boolean {
  return model.items.length === model.run.itemCount;
}
