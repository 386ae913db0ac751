/**
 * A restarted SCV daemon may hand out a session id it used before (the reference daemon, like the real one, counts
 * from `s1` again). The driver keys a session's run by its connection epoch too, so a new session never merges into
 * an old run: its own run, its own transcript, and its approvals pending in the model.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextScvEpoch, scvEpochOf, scvRunId, scvSessionIdOf } from '../../../../extension/drivers/scv/scvSessionBook';
import { awaitsDecision, runKeyOf } from '../../../../extension/model/modelTypes';
import { until } from '../driverKit';
import { CONNECTION, connected, items, run, scvDriverSetup, sessionIdsStarted, turns } from './scvDriverKit';

describe('SCV run ids carry the connection epoch', () => {
  it('builds and reads run ids; epochs always move past every one used', () => {
    assert.equal(scvRunId('s1', 'mh3k2x'), 's1@mh3k2x');
    assert.equal(scvSessionIdOf('s1@mh3k2x'), 's1');
    assert.equal(scvSessionIdOf('5b0d3c3e-uuid-from-an-old-store'), '5b0d3c3e-uuid-from-an-old-store');
    assert.equal(scvEpochOf('s1@mh3k2x'), parseInt('mh3k2x', 36));
    assert.equal(scvEpochOf('no-epoch'), undefined);
    assert.equal(nextScvEpoch(1000, []), 1000);
    assert.equal(nextScvEpoch(1000, [1000]), 1001, 'two handshakes in one millisecond');
    assert.equal(nextScvEpoch(1000, [5000, 20]), 5001, 'a clock that went back since a stored run');
  });

  it('a session after a daemon restart reuses the old session id but gets its own run, transcript and approvals', async () => {
    const s = await scvDriverSetup();
    try {
      const first = await connected(s);
      await s.driver.sendMessage(first, 'use a tool');
      await until('the first approval', () => run(s, first).pendingApprovals[0]);
      await s.restartDaemon();
      await until('the first session ended', () => run(s, first).state === 'interrupted');
      await until('reconnected', () => s.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
      const firstItems = items(s, first).length;

      // The reconnect started the next session by itself (WIRE.md 6.2), as a run of its own.
      const second = await until('the new session', () => s.driver.liveSessionRunId);
      assert.deepEqual(sessionIdsStarted(s), ['s1', 's1'], 'the restarted daemon handed out the same session id');
      assert.notEqual(second, first);
      assert.equal(scvSessionIdOf(second), 's1');
      assert.equal(run(s, second).title, run(s, first).title, 'the title stays human (no epoch in it)');
      assert.equal(run(s, second).state, 'idle');
      assert.equal(run(s, first).state, 'interrupted');

      await s.driver.sendMessage(second, 'another tool please');
      const approvalId = await until('the second approval', () => run(s, second).pendingApprovals[0]);
      assert.equal(run(s, second).state, 'waiting_approval');
      const approval = s.store.state.approvals.get(`${runKeyOf(CONNECTION, second)}::${approvalId}`);
      assert.equal(approval?.status, 'pending', 'the approval is pending in the model');
      assert.ok(approval && awaitsDecision(approval), 'and awaits a decision: the card, toast and count are projections of that');
      assert.ok(items(s, second).some((i) => i.kind === 'approval' && i.approvalId === approvalId && i.status === 'pending'));
      assert.ok(items(s, second).some((i) => i.kind === 'user' && i.text === 'another tool please'));
      assert.ok(!items(s, second).some((i) => i.kind === 'user' && i.text === 'use a tool'), 'the old transcript is not merged in');
      assert.equal(items(s, first).length, firstItems, 'nothing of the new session lands in the old run');

      await s.driver.decideApproval(second, approvalId, 'allow_once');
      await until('the second session answered', () => turns(s, second, 'completed') === 1);
      assert.equal(run(s, first).state, 'interrupted');
    } finally {
      await s.cleanup();
    }
  });

  it('after a window reload, a reused session id still gets a run of its own', async () => {
    const s = await scvDriverSetup();
    try {
      const first = await connected(s);
      await s.driver.sendMessage(first, 'hello before the reload');
      await until('answered', () => turns(s, first, 'completed') === 1);
      await s.driver.disconnect(); // the old window goes away
      await s.restartDaemon();
      const reloaded = s.reload();
      const next = await connected(reloaded);
      assert.deepEqual(sessionIdsStarted(reloaded), ['s1']);
      assert.notEqual(next, first);
      assert.equal(run(reloaded, first).state, 'interrupted');
      await reloaded.driver.history.load(first); // an ended session comes back from its summary until opened
      assert.ok(items(reloaded, first).some((i) => i.kind === 'text' && i.text === 'Echo: hello before the reload'));
      assert.ok(!items(reloaded, next).some((i) => i.kind === 'text'), 'the new session starts empty');
    } finally {
      await s.cleanup();
    }
  });
});
