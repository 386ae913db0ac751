/**
 * The approval lifecycle, through the real store and reducer: pending → deciding → decided | failed | expired, in
 * every order the wire can produce them. The decisive cases are the races: a terminal event (expiry) that lands
 * while the decision is in flight, or after it was accepted, must never turn it into "expired".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approvalOutcomeText, nextApproval } from '../../../extension/model/approvalLifecycle';
import type { ApprovalChange, RunEvent } from '../../../extension/model/modelActions';
import type { ApprovalInfo } from '../../../extension/model/modelTypes';
import { approvalKeyOf, awaitsDecision, runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';

const RUN = runKeyOf('c1', 'r1');
const KEY = approvalKeyOf(RUN, 'ap-1');

function setup(restored = false) {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'runUpserted', connectionId: 'c1', runId: 'r1', fields: { title: 'Run', state: 'running' } });
  const requested: RunEvent = { kind: 'approvalRequested', approvalId: 'ap-1', title: 'Edit', detail: { file_path: 'a.ts' }, options: ['allow_once', 'allow_similar', 'deny'] };
  store.dispatch({ type: 'runEvent', runKey: RUN, sequence: 1, event: requested, ...(restored ? { restored } : {}) });
  const change = (c: ApprovalChange) => store.dispatch({ type: 'approvalChange', runKey: RUN, approvalId: 'ap-1', change: c });
  const event = (e: RunEvent) => store.dispatch({ type: 'runEvent', runKey: RUN, event: e });
  const approval = () => store.state.approvals.get(KEY)!;
  const card = () => {
    const item = store.transcript(RUN)!.snapshot().find((i) => i.kind === 'approval');
    assert.ok(item?.kind === 'approval');
    return item;
  };
  return { store, change, event, approval, card };
}

describe('approval lifecycle', () => {
  test('a live request is pending and awaits a decision; a restored one waits for its driver to confirm it', () => {
    const live = setup();
    assert.equal(live.approval().status, 'pending');
    assert.equal(live.approval().live, true);
    assert.equal(awaitsDecision(live.approval()), true);
    const restored = setup(true);
    assert.equal(restored.approval().live, false);
    assert.equal(awaitsDecision(restored.approval()), false, 'not announced or counted after a reload');
    assert.match(approvalOutcomeText(restored.approval()), /restored from an earlier window/);
    restored.change({ kind: 'live' });
    assert.equal(awaitsDecision(restored.approval()), true, 'confirmed by the daemon');
  });

  test('the daemon sending a restored request again confirms it; a replay from storage does not', () => {
    const { store, approval } = setup(true);
    const again: RunEvent = { kind: 'approvalRequested', approvalId: 'ap-1', title: 'Edit', detail: null, options: ['deny'] };
    store.dispatch({ type: 'runEvent', runKey: RUN, event: again, restored: true });
    assert.equal(approval().live, false);
    store.dispatch({ type: 'runEvent', runKey: RUN, event: again });
    assert.equal(approval().live, true);
    assert.equal(store.transcript(RUN)!.snapshot().filter((i) => i.kind === 'approval').length, 1, 'one card');
  });

  test('deciding → decided records the decision and the surface, on the card too', () => {
    const { change, approval, card, store } = setup();
    change({ kind: 'deciding', decision: 'allow_once', by: 'notification' });
    assert.equal(approval().status, 'deciding');
    assert.equal(card().status, 'deciding');
    assert.equal(card().decidedBy, 'notification');
    assert.equal(awaitsDecision(approval()), false, 'not counted while in flight');
    assert.deepEqual(store.state.runs.get(RUN)?.pendingApprovals, ['ap-1'], 'still unsettled at the daemon');
    change({ kind: 'decided', decision: 'allow_once', by: 'notification' });
    assert.equal(approval().status, 'decided');
    assert.equal(card().decision, 'allow_once');
    assert.deepEqual(store.state.runs.get(RUN)?.pendingApprovals, []);
    assert.match(approvalOutcomeText(approval()), /already decided: Allowed once from the notification\. Nothing was sent/);
  });

  test('a terminal event while the decision is in flight does not expire it (the daemon had it first)', () => {
    const { change, event, approval, card } = setup();
    change({ kind: 'deciding', decision: 'deny', by: 'transcript' });
    event({ kind: 'approvalSettled', approvalId: 'ap-1', expired: true, reason: 'The run ended.' });
    assert.equal(approval().status, 'deciding');
    change({ kind: 'decided', decision: 'deny', by: 'transcript' });
    assert.equal(approval().status, 'decided');
    assert.equal(card().status, 'decided');
    assert.equal(card().decision, 'deny');
    assert.equal(card().reason, undefined);
  });

  test('a terminal event after the decision changes nothing; a later click is told what was decided', () => {
    const { change, event, approval } = setup();
    change({ kind: 'deciding', decision: 'allow_similar', by: 'editor' });
    event({ kind: 'approvalSettled', approvalId: 'ap-1', decision: 'allow_similar', by: 'editor' });
    event({ kind: 'approvalSettled', approvalId: 'ap-1', expired: true });
    assert.equal(approval().status, 'decided');
    assert.equal(approval().decision, 'allow_similar');
    assert.equal(approval().decidedBy, 'editor');
    assert.equal(nextApproval(approval(), { kind: 'deciding', decision: 'deny', by: 'notification' }), undefined, 'settled is final');
  });

  test('a failed send keeps the request waiting with its reason; the next choice clears it', () => {
    const { change, approval, card, store } = setup();
    change({ kind: 'deciding', decision: 'allow_once', by: 'palette' });
    change({ kind: 'failed', reason: 'socket closed' });
    assert.equal(approval().status, 'failed');
    assert.equal(card().reason, 'socket closed');
    assert.equal(awaitsDecision(approval()), true);
    change({ kind: 'deciding', decision: 'deny', by: 'transcript' });
    assert.equal(card().reason, undefined, 'the old reason is removed (a null in the patch)');
    assert.equal(card().decision, 'deny');
    assert.deepEqual(store.state.runs.get(RUN)?.pendingApprovals, ['ap-1']);
  });

  test('a pending request expires with its reason; a decision cannot follow', () => {
    const { event, approval, card, store } = setup();
    event({ kind: 'approvalSettled', approvalId: 'ap-1', expired: true, reason: 'The run ended before a decision was made.' });
    assert.equal(approval().status, 'expired');
    assert.equal(card().status, 'expired');
    assert.equal(card().reason, 'The run ended before a decision was made.');
    assert.deepEqual(store.state.runs.get(RUN)?.pendingApprovals, []);
    event({ kind: 'approvalSettled', approvalId: 'ap-1', decision: 'allow_once' });
    assert.equal(approval().status, 'expired');
    assert.match(approvalOutcomeText(approval()), /expired without a decision \(The run ended/);
  });

  test('a failed send on a run that ended meanwhile may expire; a decision without deciding is the daemon\'s', () => {
    const failed = setup();
    failed.change({ kind: 'deciding', decision: 'allow_once', by: 'notification' });
    failed.change({ kind: 'failed', reason: 'not_found' });
    failed.change({ kind: 'expired', reason: 'the run ended' });
    assert.equal(failed.approval().status, 'expired');
    const daemon = setup();
    daemon.event({ kind: 'approvalSettled', approvalId: 'ap-1', decision: 'deny' });
    assert.equal(daemon.approval().decidedBy, 'daemon');
  });

  test('changes are no-ops where they do not apply (table)', () => {
    const base = setup().approval();
    const at = (status: ApprovalInfo['status']): ApprovalInfo => ({ ...base, status });
    const rows: [ApprovalInfo['status'], ApprovalChange['kind'], boolean][] = [
      ['pending', 'failed', false],
      ['deciding', 'deciding', false],
      ['deciding', 'expired', false],
      ['decided', 'failed', false],
      ['decided', 'expired', false],
      ['expired', 'decided', false],
      ['expired', 'deciding', false],
      ['failed', 'deciding', true],
      ['failed', 'expired', true],
      ['pending', 'decided', true],
    ];
    for (const [status, kind, applies] of rows) {
      const change = (kind === 'deciding' || kind === 'decided' ? { kind, decision: 'deny', by: 'palette' } : kind === 'live' ? { kind } : { kind, reason: 'r' }) as ApprovalChange;
      assert.equal(nextApproval(at(status), change) !== undefined, applies, `${status} + ${kind}`);
    }
  });
});
