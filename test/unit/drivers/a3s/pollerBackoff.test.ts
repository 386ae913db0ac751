/** A3sRunPoller's schedule with injected timers: catch-up, idle backoff, resets, terminal confirmation, errors. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { A3sCheckedPage } from '../../../../extension/drivers/a3s/eventPageCheck';
import { A3sRunPoller } from '../../../../extension/drivers/a3s/runPoller';
import type { A3sPollerEnd } from '../../../../extension/drivers/a3s/runPoller';
import { buildRunIdentity } from '../../../../extension/protocol/a3s';
import type { A3sRunIdentity } from '../../../../extension/protocol/a3s';
import { DEFAULT_RELEASE } from '../../../fixtures/a3s/harnessWire';
import { FakeStore, FakeTimers, settle } from './pagingFakes';

const id = (runId: string) => buildRunIdentity({ agentReleaseIdentity: DEFAULT_RELEASE, sessionId: 'session-1', runId });

describe('A3sRunPoller backoff (fake timers)', () => {
  it('catches up at once, backs off while idle, resets on events, stops terminal after one confirming poll', async () => {
    const store = new FakeStore();
    store.add(100);
    store.firstAvailable = 10;
    const timers = new FakeTimers();
    const poller = new A3sRunPoller({ client: store, identity: id('r'), activeIntervalMs: 100, maxIntervalMs: 800, timers });
    const got: number[] = [];
    const gaps: unknown[] = [];
    let end: A3sPollerEnd | undefined;
    poller.onEvents(({ events }) => got.push(...events.map((e) => e.sequence)));
    poller.onGap((g) => gaps.push(g));
    poller.onEnd((e) => (end = e));
    void poller.start();
    await settle();
    assert.equal(store.calls, 2, 'two pages back to back while has_more');
    assert.deepEqual(gaps, [{ fromSequence: 0, toSequenceExclusive: 10 }]);
    assert.deepEqual(got, store.events.slice(10));
    for (let i = 0; i < 5; i++) {
      timers.fire();
      await settle();
    }
    assert.deepEqual(timers.delays, [100, 200, 400, 800, 800, 800]);
    store.add(3);
    timers.fire();
    await settle();
    assert.equal(timers.delays.at(-1), 100, 'events reset the interval');
    store.add(1);
    store.state = 'completed';
    const callsBefore = store.calls;
    timers.fire();
    await settle();
    assert.equal(store.calls, callsBefore + 2, 'one confirming poll after terminal');
    assert.deepEqual(end, { reason: 'terminal', state: 'completed', cursor: 103 });
    assert.equal(timers.waiting, 0);
    assert.deepEqual(got, store.events.slice(10));
    poller.dispose();
  });

  it('once the harness answers again after failures, polling returns to the active cadence', async () => {
    const store = new FakeStore(); // an idle run: no events to reset the interval by themselves
    const timers = new FakeTimers();
    let failures = 3;
    const { A3sError } = await import('../../../../extension/drivers/a3s/a3sErrors');
    const client = {
      eventPage: (identity: A3sRunIdentity, after: number | null, limit?: number): Promise<A3sCheckedPage> =>
        failures-- > 0 ? Promise.reject(new A3sError('transport', 'ECONNREFUSED')) : store.eventPage(identity, after, limit),
    };
    const poller = new A3sRunPoller({ client, identity: id('r'), activeIntervalMs: 50, maxIntervalMs: 800, timers });
    void poller.start();
    for (let i = 0; i < 4; i++) {
      await settle();
      timers.fire();
    }
    await settle();
    // Errors back off 100, 200, 400; the first (empty) answer restarts idle backoff from 50: 100, 200, not 800.
    assert.deepEqual(timers.delays, [100, 200, 400, 100, 200]);
    poller.dispose();
  });

  it('retries transport errors with backoff and gives up on a final HTTP error', async () => {
    const timers = new FakeTimers();
    let n = 0;
    const { A3sError, A3sHttpError } = await import('../../../../extension/drivers/a3s/a3sErrors');
    const client = {
      eventPage: async (): Promise<A3sCheckedPage> => {
        n++;
        if (n < 3) {
          throw new A3sError('transport', 'ECONNREFUSED');
        }
        throw new A3sHttpError('POST', '/v1/agent/events:page', 404, 'a3s.code.agent_protocol.session_not_found', 'x', {});
      },
    };
    const poller = new A3sRunPoller({ client, identity: id('r'), activeIntervalMs: 50, timers });
    const errors: boolean[] = [];
    poller.onError((e) => errors.push(e.willRetry));
    const done = poller.start();
    await settle();
    timers.fire();
    await settle();
    timers.fire();
    const end = await done;
    assert.deepEqual(errors, [true, true, false]);
    assert.deepEqual(timers.delays, [100, 200]);
    assert.equal(end.reason, 'error');
    poller.dispose();
  });
});
