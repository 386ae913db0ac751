/**
 * The one owner of an approval's lifecycle. Every surface (notification, transcript card, tree, status bar, diff
 * editor title) is a projection of the state decided here:
 *
 *   pending ──a person chooses──▶ deciding(decision, by) ──daemon accepted──▶ decided(decision, by)
 *      ▲                              │
 *      └──── failed(reason) ◀─────────┘ not delivered (the request still waits; a person may choose again)
 *   pending | failed ──the daemon can no longer take a decision──▶ expired(reason)
 *
 * The decision is recorded as `deciding` *before* its frame is sent, so a terminal event that arrives while it is
 * on the wire (real daemons answer in a millisecond and send the rest of the run in the same write) cannot turn
 * it into "expired": a decision in flight or made always wins over expiry. Pure.
 */
import { protectedNotice } from '../protocol/protectedPaths';
import { DECISION_OUTCOMES, DECISION_SURFACE_LABELS } from '../protocol/transcriptTypes';
import { offersDiff } from './editProposal';
import type { ApprovalChange, RunEvent } from './modelActions';
import type { ApprovalInfo } from './modelTypes';
import { approvalKeyOf } from './runKeys';
import { protectedPathsOfSubject } from './pathRules';
import type { RunEditor } from './runEditor';

type Requested = Extract<RunEvent, { kind: 'approvalRequested' }>;
type Settled = Extract<RunEvent, { kind: 'approvalSettled' }>;

/** The next state of `approval` after `change`, or undefined when the change does not apply (settled is final). */
export function nextApproval(approval: ApprovalInfo, change: ApprovalChange): ApprovalInfo | undefined {
  const { status } = approval;
  switch (change.kind) {
    case 'deciding':
      return status === 'pending' || status === 'failed'
        ? withoutReason(withRule({ ...approval, status: 'deciding', decision: change.decision, decidedBy: change.by }, change.rule))
        : undefined;
    case 'decided':
      return status === 'pending' || status === 'failed' || status === 'deciding'
        ? withoutReason(
            status === 'deciding'
              ? withRule({ ...approval, status: 'decided', decision: change.decision, decidedBy: approval.decidedBy ?? change.by }, change.rule ?? approval.decidedByRule)
              : withRule({ ...approval, status: 'decided', decision: change.decision, decidedBy: change.by }, change.rule),
          )
        : undefined;
    case 'failed':
      return status === 'deciding' ? { ...approval, status: 'failed', reason: change.reason } : undefined;
    case 'expired':
      // Not from `deciding`: the daemon may already have the decision; the send's outcome settles it.
      return status === 'pending' || status === 'failed' ? { ...undecided(approval), status: 'expired', reason: change.reason } : undefined;
    case 'live':
      return approval.live ? undefined : { ...approval, live: true };
    default: {
      const _exhaustive: never = change;
      return _exhaustive;
    }
  }
}

/** Without the decision that never took effect (a failed send), so an expired request says only that it expired. */
function undecided(approval: ApprovalInfo): ApprovalInfo {
  const { decision: _decision, decidedBy: _by, decidedByRule: _rule, ...rest } = approval;
  return rest;
}

/** Records which rule decided (or that none did: a person's decision after a failed rule attempt drops the label). */
function withRule(approval: ApprovalInfo, rule: string | undefined): ApprovalInfo {
  if (rule !== undefined) {
    return { ...approval, decidedByRule: rule };
  }
  const { decidedByRule: _rule, ...rest } = approval;
  return rest;
}

function withoutReason(approval: ApprovalInfo): ApprovalInfo {
  if (approval.reason === undefined) {
    return approval;
  }
  const { reason: _reason, ...rest } = approval;
  return rest;
}

/** Applies `change` to the approval, its transcript card and the run's unsettled list. */
export function applyApprovalChange(ed: RunEditor, approval: ApprovalInfo, change: ApprovalChange): void {
  const next = nextApproval(approval, change);
  if (!next) {
    return;
  }
  ed.approvals.push(next);
  if (next.status !== approval.status || next.decision !== approval.decision || next.reason !== approval.reason || next.decidedByRule !== approval.decidedByRule) {
    // `null` removes a field (the patch appliers of both sides treat it so).
    ed.update(next.itemId, {
      status: next.status,
      decision: next.decision ?? null,
      decidedBy: next.decidedBy ?? null,
      decidedByRule: next.decidedByRule ?? null,
      reason: next.reason ?? null,
    });
  }
  if ((next.status === 'decided' || next.status === 'expired') && ed.run.pendingApprovals.includes(approval.approvalId)) {
    ed.run = { ...ed.run, pendingApprovals: ed.run.pendingApprovals.filter((a) => a !== approval.approvalId) };
  }
}

export function approvalRequested(ed: RunEditor, event: Requested, approvals: ReadonlyMap<string, ApprovalInfo>, now: number, restored: boolean): void {
  ed.closeStreams();
  const key = approvalKeyOf(ed.run.key, event.approvalId);
  const known = approvals.get(key);
  if (known !== undefined) {
    // The daemon sent it again (a reconnect's replay): the card exists; a restored request is now confirmed live.
    if (!restored) {
      applyApprovalChange(ed, known, { kind: 'live' });
    }
    return;
  }
  const itemId = ed.nextId('a');
  const guarded = protectedNotice(protectedPathsOfSubject(event.subject));
  ed.add({
    id: itemId,
    kind: 'approval',
    approvalId: event.approvalId,
    title: event.title,
    detail: event.detail,
    ...(event.summary !== undefined ? { summary: event.summary } : {}),
    ...(event.risk !== undefined ? { risk: event.risk } : {}),
    options: [...event.options],
    status: 'pending',
    // Not the driver's to say: one rule for every daemon and surface (editProposal.ts).
    hasDiff: offersDiff(event.detail),
    ...(event.subject !== undefined ? { subject: { ...event.subject } } : {}),
    ...(event.ruleNote !== undefined ? { ruleNote: event.ruleNote } : {}),
    ...(event.lasts !== undefined ? { lasts: { ...event.lasts } } : {}),
    ...(guarded !== undefined ? { protectedNotice: guarded } : {}),
  });
  ed.approvals.push({
    key,
    runKey: ed.run.key,
    approvalId: event.approvalId,
    itemId,
    title: event.title,
    ...(event.summary !== undefined ? { summary: event.summary } : {}),
    ...(event.risk !== undefined ? { risk: event.risk } : {}),
    detail: event.detail,
    options: event.options,
    ...(event.subject !== undefined ? { subject: event.subject } : {}),
    ...(event.saveRuleAs !== undefined ? { saveRuleAs: event.saveRuleAs } : {}),
    ...(event.lasts !== undefined ? { lasts: event.lasts } : {}),
    requestedAt: now,
    status: 'pending',
    live: !restored,
  });
  ed.run = { ...ed.run, pendingApprovals: [...ed.run.pendingApprovals, event.approvalId] };
}

export function approvalSettled(ed: RunEditor, event: Settled, approvals: ReadonlyMap<string, ApprovalInfo>): void {
  const known = approvals.get(approvalKeyOf(ed.run.key, event.approvalId));
  if (known === undefined) {
    return;
  }
  if (event.decision !== undefined) {
    applyApprovalChange(ed, known, { kind: 'decided', decision: event.decision, by: event.by ?? 'daemon', ...(event.rule !== undefined ? { rule: event.rule } : {}) });
  } else if (event.expired) {
    applyApprovalChange(ed, known, { kind: 'expired', reason: event.reason ?? 'The daemon no longer waits for a decision.' });
  }
}

/** One sentence for a surface that was used after the approval left `pending` (a stale notification, a second click). */
export function approvalOutcomeText(approval: ApprovalInfo): string {
  const by = approval.decidedBy ? ` ${DECISION_SURFACE_LABELS[approval.decidedBy]}` : '';
  switch (approval.status) {
    case 'decided':
      return `This approval was already decided: ${approval.decision ? DECISION_OUTCOMES[approval.decision] : 'decided'}${by}. Nothing was sent.`;
    case 'deciding':
      return `A decision for this approval is being sent: ${approval.decision ? DECISION_OUTCOMES[approval.decision] : 'decided'}${by}. Nothing else was sent.`;
    case 'expired':
      return `This approval expired without a decision${approval.reason ? ` (${approval.reason})` : ''}. Nothing was sent.`;
    case 'failed':
    case 'pending':
      return approval.live ? 'This approval is still waiting for a decision.' : 'This request was restored from an earlier window and its daemon has not confirmed that it still waits. Nothing was sent.';
    default: {
      const _exhaustive: never = approval.status;
      return _exhaustive;
    }
  }
}
