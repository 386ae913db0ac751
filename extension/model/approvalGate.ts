/**
 * The settle-once gate for approval decisions. A notification button, the editor-title Allow/Deny, the transcript
 * card and the command palette can all answer the same request, possibly within the same tick; exactly one of
 * them may reach the daemon. The gate records the choice as `deciding` synchronously (before the first `await`, and
 * so before the frame is sent), so any other caller sees `busy` or `decided` and nothing is sent twice; the
 * outcome of the send then moves it to `decided`, `failed` (a person may try again) or, when the run ended
 * meanwhile, `expired`. Pure (no `vscode`): the UI turns the result into words (approvalOutcomeText).
 */
import type { ApprovalDecision, DecisionSurface } from '../protocol/transcriptTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { ApprovalInfo, RunInfo } from './modelTypes';
import type { RunStore } from './runStore';

/** The part of a driver the gate needs (structural, so the model does not depend on the drivers). */
export interface ApprovalDecider {
  /**
   * Sends the decision; once the daemon took it, the driver records it (`approvalSettled` with `decision`, `by` and
   * `rule`: the one writer of a decision, journaled where the driver journals) before resolving.
   */
  decideApproval?(runId: string, approvalId: string, decision: ApprovalDecision, by: DecisionSurface, rule?: string): Promise<void>;
  /** Marks the approval expired for `reason`, recorded as the driver records every expiry (journaled, replayed). */
  expireApproval?(runId: string, approvalId: string, reason: string): Promise<unknown>;
}

export type ApprovalGateResult =
  /** The decision was delivered to the daemon. */
  | { readonly kind: 'sent'; readonly approval: ApprovalInfo; readonly run: RunInfo }
  /** No such approval (its run or connection was removed). */
  | { readonly kind: 'unknown' }
  /** Another decision for it is on the wire right now. */
  | { readonly kind: 'busy'; readonly approval: ApprovalInfo }
  /** It was already decided or expired. */
  | { readonly kind: 'decided'; readonly approval: ApprovalInfo }
  /** Restored from storage after a reload, and its daemon has not confirmed that it still waits. */
  | { readonly kind: 'unconfirmed'; readonly approval: ApprovalInfo }
  /** The daemon does not offer this decision for it. */
  | { readonly kind: 'unsupported'; readonly approval: ApprovalInfo }
  /** Its daemon is not connected: it stays pending. */
  | { readonly kind: 'disconnected'; readonly approval: ApprovalInfo }
  /** Sending failed; it is `failed` (still waiting) or, if its run ended meanwhile, `expired`. */
  | { readonly kind: 'failed'; readonly approval: ApprovalInfo; readonly run: RunInfo; readonly error: unknown };

/**
 * Sends `decision` (chosen on surface `by`) for `approvalKey` unless another decision was or is being sent. `rule`
 * is the label of the approval rule that chose it (`by: 'rule'`), so the transcript can say which one.
 */
export async function decideApprovalOnce(
  store: RunStore,
  approvalKey: string,
  decision: ApprovalDecision,
  by: DecisionSurface,
  deciderFor: (connectionId: string) => ApprovalDecider | undefined,
  rule?: string,
): Promise<ApprovalGateResult> {
  const approval = store.state.approvals.get(approvalKey);
  if (!approval) {
    return { kind: 'unknown' };
  }
  if (approval.status === 'deciding') {
    return { kind: 'busy', approval };
  }
  if (approval.status === 'decided' || approval.status === 'expired') {
    return { kind: 'decided', approval };
  }
  if (!approval.live) {
    return { kind: 'unconfirmed', approval };
  }
  if (!approval.options.includes(decision)) {
    return { kind: 'unsupported', approval };
  }
  const run = store.state.runs.get(approval.runKey);
  const driver = run ? deciderFor(run.connectionId) : undefined;
  if (!run || !driver?.decideApproval) {
    return { kind: 'disconnected', approval };
  }
  const { runKey, approvalId } = approval;
  // Synchronous with the checks above: a second caller in the same tick already sees `deciding`.
  store.dispatch({ type: 'approvalChange', runKey, approvalId, change: { kind: 'deciding', decision, by, ...(rule !== undefined ? { rule } : {}) } });
  try {
    // The driver's record of the decision settles it (approvalSettled): the gate does not write it again.
    await driver.decideApproval(run.runId, approvalId, decision, by, rule);
    return { kind: 'sent', approval, run };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    store.dispatch({ type: 'approvalChange', runKey, approvalId, change: { kind: 'failed', reason } });
    const now = store.state.runs.get(runKey);
    if (!now || isTerminalRunState(now.state)) {
      const expired = `the run ended before the decision was delivered: ${reason}`;
      // Through the driver where it can (its record is what a reload replays); a run already gone has no driver record.
      if (now && driver.expireApproval) {
        await driver.expireApproval(run.runId, approvalId, expired);
      } else {
        store.dispatch({ type: 'approvalChange', runKey, approvalId, change: { kind: 'expired', reason: expired } });
      }
    }
    return { kind: 'failed', approval, run, error };
  }
}
