/**
 * The settle-once gate for approval decisions. A notification button, the editor-title Allow/Deny, the transcript
 * card and the command palette can all answer the same request, possibly within the same tick; exactly one of
 * them may reach the daemon. The gate checks the approval's status and marks it `sending` synchronously (before
 * the first `await`), so any other caller sees `busy` or `decided` and nothing is sent twice. A failed send puts it
 * back to `pending`: only a person's next click decides. Pure (no `vscode`): the UI turns the result into words.
 */
import type { ApprovalDecision } from '../protocol/transcriptTypes';
import type { ApprovalInfo, RunInfo } from './modelTypes';
import type { RunStore } from './runStore';

/** The part of a driver the gate needs (structural, so the model does not depend on the drivers). */
export interface ApprovalDecider {
  decideApproval?(runId: string, approvalId: string, decision: ApprovalDecision): Promise<void>;
}

export type ApprovalGateResult =
  /** The decision was delivered to the daemon. */
  | { readonly kind: 'sent'; readonly approval: ApprovalInfo; readonly run: RunInfo }
  /** No such approval (its run or connection was removed). */
  | { readonly kind: 'unknown' }
  /** Another decision for it is on the wire right now. */
  | { readonly kind: 'busy'; readonly approval: ApprovalInfo }
  /** It was already decided (or expired). */
  | { readonly kind: 'decided'; readonly approval: ApprovalInfo }
  /** The daemon does not offer this decision for it. */
  | { readonly kind: 'unsupported'; readonly approval: ApprovalInfo }
  /** Its daemon is not connected: it stays pending. */
  | { readonly kind: 'disconnected'; readonly approval: ApprovalInfo }
  /** Sending failed; it is pending again. */
  | { readonly kind: 'failed'; readonly approval: ApprovalInfo; readonly run: RunInfo; readonly error: unknown };

/** Sends `decision` for `approvalKey` unless another decision was or is being sent. */
export async function decideApprovalOnce(
  store: RunStore,
  approvalKey: string,
  decision: ApprovalDecision,
  deciderFor: (connectionId: string) => ApprovalDecider | undefined,
): Promise<ApprovalGateResult> {
  const approval = store.state.approvals.get(approvalKey);
  if (!approval) {
    return { kind: 'unknown' };
  }
  if (approval.status === 'sending') {
    return { kind: 'busy', approval };
  }
  if (approval.status === 'decided') {
    return { kind: 'decided', approval };
  }
  if (!approval.options.includes(decision)) {
    return { kind: 'unsupported', approval };
  }
  const run = store.state.runs.get(approval.runKey);
  const driver = run ? deciderFor(run.connectionId) : undefined;
  if (!run || !driver?.decideApproval) {
    return { kind: 'disconnected', approval };
  }
  // Synchronous with the checks above: a second caller in the same tick already sees `sending`.
  store.dispatch({ type: 'approvalStatus', runKey: approval.runKey, approvalId: approval.approvalId, status: 'sending' });
  try {
    await driver.decideApproval(run.runId, approval.approvalId, decision);
    return { kind: 'sent', approval, run };
  } catch (error) {
    store.dispatch({ type: 'approvalStatus', runKey: approval.runKey, approvalId: approval.approvalId, status: 'pending' });
    return { kind: 'failed', approval, run, error };
  }
}
