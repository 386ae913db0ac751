/**
 * The reducer's run-event action and what it shares with the approval changes: a sequenced event already folded in is
 * dropped, a jump in sequences becomes a gap row, and a run reducer's result (run fields, patches, changed approvals)
 * is folded into the model state, copying the run table only when a run field changed (reducer.ts).
 */
import type { TranscriptPatch } from '../protocol/transcriptTypes';
import type { ModelState, RunInfo } from './modelTypes';
import type { RunEventResult } from './runEditor';
import { reduceRunEvent } from './runEventReducer';
import { PersistentMap } from './persistentMap';

export interface RunPatch {
  readonly runKey: string;
  readonly patch: TranscriptPatch;
}

export interface ReduceResult {
  readonly state: ModelState;
  readonly patches: readonly RunPatch[];
  /** Whether run/connection/approval state changed (views refresh their trees and headers). */
  readonly changed: boolean;
}

export const unchanged = (state: ModelState): ReduceResult => ({ state, patches: [], changed: false });

export function withRun(state: ModelState, run: RunInfo): ModelState {
  return { ...state, runs: PersistentMap.from(state.runs).set(run.key, run) };
}

/** The `runEvent` action: drops a replayed sequence, marks a jump in sequences as a gap, then folds the event in. */
export function reduceRunEventAction(
  state: ModelState,
  runKey: string,
  sequence: number | undefined,
  firstSequence: number | undefined,
  event: Parameters<typeof reduceRunEvent>[1],
  now: number,
  restored: boolean,
): ReduceResult {
  let run = state.runs.get(runKey);
  if (!run) {
    return unchanged(state);
  }
  const patches: RunPatch[] = [];
  if (sequence !== undefined) {
    if (sequence <= run.lastSequence) {
      // Replay overlap after a reconnect or an internal re-attach: already folded in.
      return unchanged(state);
    }
    // A folded run of chunks stands for firstSequence..sequence: only a jump before its first one is a gap.
    const first = firstSequence !== undefined && firstSequence < sequence ? firstSequence : sequence;
    if (first > run.lastSequence + 1) {
      // Whatever was streaming is cut by the gap: close it so text after the gap starts a new item.
      const closed = reduceRunEvent(run, { kind: 'messageBoundary' }, state.approvals, now);
      run = closed.run;
      for (const patch of closed.patches) {
        patches.push({ runKey, patch });
      }
      const id = `g${run.itemCount}`;
      patches.push({
        runKey,
        patch: {
          op: 'add',
          item: { id, kind: 'gap', from: run.lastSequence + 1, to: first - 1, reason: 'not in the daemon journal any more' },
        },
      });
      run = { ...run, itemCount: run.itemCount + 1 };
    }
    run = { ...run, lastSequence: sequence };
  }
  return mergeRunResult(state, state.runs.get(runKey)!, patches, reduceRunEvent(run, event, state.approvals, now, restored));
}

/** Folds a run reducer's result (new run fields, patches, changed approvals) into the model state. */
export function mergeRunResult(state: ModelState, before: RunInfo, leading: RunPatch[], result: RunEventResult): ReduceResult {
  const runKey = before.key;
  const patches = leading;
  for (const patch of result.patches) {
    patches.push({ runKey, patch });
  }
  // A chunk appended to an open item changes no run field (without a sequence): keep the state object, so a stream
  // of chunks does not copy the run table for each one.
  let next = result.run === before ? state : withRun(state, result.run);
  if (result.approvals.length > 0) {
    let approvals = PersistentMap.from(next.approvals);
    for (const approval of result.approvals) {
      approvals = approvals.set(approval.key, approval);
    }
    next = { ...next, approvals };
  }
  const changed = result.approvals.length > 0 || visibleRunChange(before, result.run);
  return { state: next, patches, changed };
}

/** Whether a run changed in a way the tree or the transcript header shows (not on every streamed chunk). */
function visibleRunChange(before: RunInfo, after: RunInfo): boolean {
  return (
    before.state !== after.state ||
    before.stateDetail !== after.stateDetail ||
    before.title !== after.title ||
    before.provider !== after.provider ||
    before.model !== after.model ||
    before.usage !== after.usage ||
    before.reportedEdits !== after.reportedEdits || // the board's "files changed since you looked"
    before.pendingApprovals !== after.pendingApprovals
  );
}
