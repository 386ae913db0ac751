import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { A3sClient } from '../../../extension/drivers/a3s/client';
import { A3sSequenceError } from '../../../extension/drivers/a3s/a3sErrors';
import { checkA3sEventPage } from '../../../extension/drivers/a3s/eventPageCheck';
import type { A3sCheckedPage } from '../../../extension/drivers/a3s/eventPageCheck';
import { A3sRunPoller, pageA3sUntilCaughtUp } from '../../../extension/drivers/a3s/runPoller';
import type { A3sPollerEnd, A3sTimers } from '../../../extension/drivers/a3s/runPoller';
import { A3S_TRUNCATION_SUFFIX, buildRunIdentity, decodeA3sEvent } from '../../../extension/protocol/a3s';
import type { A3sEventRecord, A3sRunIdentity } from '../../../extension/protocol/a3s';
import { A3sHarness } from '../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { FakeA3sServer } from './fakeA3sServer';

const id = (runId: string) => buildRunIdentity({ agentReleaseIdentity: DEFAULT_RELEASE, sessionId: 'session-1', runId });

function assertContiguous(events: readonly A3sEventRecord[], from: number): void {
  events.forEach((e, i) => assert.equal(e.sequence, from + i));
}

describe('event paging against the reference harness', () => {
  const harness = new A3sHarness({ stepMs: 0 });
  let client: A3sClient;
  let pages = 0;
  before(async () => {
    await harness.start();
    client = new A3sClient({ baseUrl: harness.url, frameTap: (dir, _f, http) => void (dir === 'in' && http?.path === '/v1/agent/events:page' && pages++) });
  });
  after(async () => {
    client.dispose();
    await harness.stop();
  });

  it('follows has_more across pages, 0-based and contiguous', async () => {
    await client.start('q', id('run-many'), 'many events please');
    while (!(await pageA3sUntilCaughtUp(client, id('run-many'), null)).terminal) {
      await new Promise((r) => setTimeout(r, 10));
    }
    pages = 0;
    const all = await pageA3sUntilCaughtUp(client, id('run-many'), null, 64);
    assert.ok(all.events.length > 150);
    assert.equal(pages, Math.ceil(all.events.length / 64));
    assertContiguous(all.events, 0);
    assert.equal(all.cursor, all.events.length - 1);
    assert.deepEqual(all.gaps, []);
    // Resuming from the persisted cursor yields nothing new, and echoes it.
    const resumed = await client.eventPage(id('run-many'), all.cursor);
    assert.deepEqual([resumed.events.length, resumed.next, resumed.caughtUp], [0, all.cursor, true]);
  });

  it('surfaces a retention gap and continues from first_available_sequence', async () => {
    const receipt = await client.start('q', id('run-gap'), 'mind the gap');
    assert.ok(receipt.receipt.latest_event_sequence_exclusive >= 6);
    const page = await client.eventPage(id('run-gap'), null, 2);
    assert.deepEqual(page.gap, { fromSequence: 0, toSequenceExclusive: 3 });
    assert.deepEqual([page.page.retention_gap, page.page.first_available_sequence, page.events[0]?.sequence], [true, 3, 3]);
    const next = await client.eventPage(id('run-gap'), page.next, 2);
    assert.equal(next.gap, undefined);
    assertContiguous(next.events, 5);
  });

  it('decodes catalogue, unknown, truncated and bounded events', async () => {
    await client.start('q', id('run-mix'), 'big output');
    let caught;
    do {
      caught = await pageA3sUntilCaughtUp(client, id('run-mix'), null);
    } while (!caught.terminal);
    const views = caught.events.map(decodeA3sEvent);
    const types = new Set(views.map((v) => v.type));
    for (const t of ['text_delta', 'reasoning_delta', 'tool_start', 'tool_input_delta', 'tool_output_delta', 'tool_end', 'turn_start', 'turn_end', 'confirmation_required', 'permission_denied', 'planning_start', 'step_start', 'goal_extracted', 'subagent_start', 'context_compacted', 'agent_end']) {
      assert.ok(types.has(t), t);
    }
    const unknown = views.filter((v) => !v.known);
    assert.deepEqual(unknown.map((v) => v.type), ['a3s_future_event']);
    assert.deepEqual(unknown[0]?.payload, { anything: ['goes', 1, null] });
    const truncated = views.filter((v) => v.truncated);
    assert.equal(truncated.length, 2);
    for (const v of truncated) {
      assert.ok(v.fields.delta?.endsWith(A3S_TRUNCATION_SUFFIX));
    }
    assert.ok(Buffer.byteLength(JSON.stringify(truncated[1]?.payload)) <= 65_536);
    const bounded = views.filter((v) => v.bounded);
    assert.deepEqual(bounded.map((v) => [v.type, v.fields.id, v.fields.exit_code]), [['tool_end', 'tool-4', 0]]);
    assert.equal(views.find((v) => v.type === 'turn_end')?.fields.total_tokens, 1234);
    assert.equal(caught.state, 'completed');
  });

  it('polls a live run to its end with real timers', async () => {
    await client.start('q', id('run-poll'), 'poll me');
    const poller = new A3sRunPoller({ client, identity: id('run-poll'), activeIntervalMs: 5, maxIntervalMs: 20 });
    const seen: number[] = [];
    const states: string[] = [];
    poller.onEvents(({ events }) => seen.push(...events.map((e) => e.sequence)));
    poller.onState((s) => states.push(s));
    const end = await poller.start();
    poller.dispose();
    assert.equal(end.reason, 'terminal');
    assert.equal(states.at(-1), 'completed');
    assertContiguous(seen.map((sequence) => ({ sequence }) as A3sEventRecord), 0);
    assert.equal(poller.cursor, seen.at(-1));
  });
});

// ---------------------------------------------------------------------------------------------------------------

interface PageBody {
  after_event_sequence: number | null;
  first_available_sequence: number | null;
  latest_sequence_exclusive: number;
  next_after_event_sequence: number | null;
  retention_gap: boolean;
  has_more: boolean;
  events: { sequence: number }[];
  state?: string;
}

function pageBody(identity: A3sRunIdentity, p: PageBody): unknown {
  return {
    schema: 'a3s.code.agent-event-page.v1',
    identity,
    ...p,
    state: p.state ?? 'executing',
    observed_at_ms: 1,
    events: p.events.map((e) => ({ sequence: e.sequence, occurred_at_ms: 1, event: { version: 1, type: 'text_delta', payload: { text: 'x' } } })),
  };
}

describe('cursor rules (fake server)', () => {
  let body: unknown;
  const server = new FakeA3sServer(() => ({ status: 200, body }));
  let client: A3sClient;
  before(async () => {
    client = new A3sClient({ baseUrl: await server.start() });
  });
  after(async () => {
    client.dispose();
    await server.stop();
  });
  const base = { first_available_sequence: null, latest_sequence_exclusive: 0, retention_gap: false, has_more: false, events: [] };

  it('an empty page echoes a null cursor, which is sent back unchanged', async () => {
    body = pageBody(id('r'), { ...base, after_event_sequence: null, next_after_event_sequence: null });
    const page = await client.eventPage(id('r'), null);
    assert.deepEqual([page.next, page.events.length, page.caughtUp], [null, 0, true]);
    await client.eventPage(id('r'), page.next);
    assert.deepEqual(server.requests.at(-1)?.json, {
      schema: 'a3s.code.agent-event-page-request.v1',
      identity: id('r'),
      after_event_sequence: null,
      limit: 64,
    });
    assert.equal(server.requests.at(-1)?.body.indexOf('"after_event_sequence":null'), server.requests.at(-1)?.body.indexOf('"after_event_sequence"'));
  });

  const broken: [string, unknown][] = [
    ['an empty page that does not echo', pageBody(id('r'), { ...base, after_event_sequence: null, next_after_event_sequence: 0 })],
    ['a gap in sequences', pageBody(id('r'), { ...base, after_event_sequence: null, latest_sequence_exclusive: 3, next_after_event_sequence: 2, events: [{ sequence: 0 }, { sequence: 2 }] })],
    ['a start past the cursor without retention_gap', pageBody(id('r'), { ...base, after_event_sequence: null, latest_sequence_exclusive: 3, next_after_event_sequence: 2, events: [{ sequence: 1 }, { sequence: 2 }] })],
    ['a wrong next cursor', pageBody(id('r'), { ...base, after_event_sequence: null, latest_sequence_exclusive: 2, next_after_event_sequence: 0, events: [{ sequence: 0 }, { sequence: 1 }] })],
    ['an empty page claiming has_more', pageBody(id('r'), { ...base, after_event_sequence: null, next_after_event_sequence: null, has_more: true })],
    ['another run identity', pageBody(id('other'), { ...base, after_event_sequence: null, next_after_event_sequence: null })],
    ['a wrong after echo', pageBody(id('r'), { ...base, after_event_sequence: 5, next_after_event_sequence: 5 })],
  ];
  for (const [name, b] of broken) {
    it(`rejects ${name}`, async () => {
      body = b;
      await assert.rejects(client.eventPage(id('r'), null), A3sSequenceError);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------

class FakeTimers implements A3sTimers {
  time = 0;
  readonly delays: number[] = [];
  private pending: { at: number; cb: () => void; handle: number }[] = [];
  private next = 1;
  setTimeout(cb: () => void, ms: number): unknown {
    this.delays.push(ms);
    const handle = this.next++;
    this.pending.push({ at: this.time + ms, cb, handle });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.handle !== handle);
  }
  now(): number {
    return this.time;
  }
  get waiting(): number {
    return this.pending.length;
  }
  fire(): void {
    const p = this.pending.shift();
    assert.ok(p, 'nothing scheduled');
    this.time = p.at;
    p.cb();
  }
}

/** An in-memory run store answering pages like the harness, through the real cursor checks. */
class FakeStore {
  events: number[] = [];
  state = 'executing';
  firstAvailable = 0;
  calls = 0;
  async eventPage(identity: A3sRunIdentity, after: number | null, limit = 64): Promise<A3sCheckedPage> {
    this.calls++;
    let start = after === null ? 0 : after + 1;
    const gap = start < this.firstAvailable;
    if (gap) {
      start = this.firstAvailable;
    }
    const events = this.events.slice(start, start + limit).map((sequence) => ({ sequence }));
    const last = events.at(-1);
    const body = pageBody(identity, {
      after_event_sequence: after,
      first_available_sequence: this.firstAvailable,
      latest_sequence_exclusive: this.events.length,
      next_after_event_sequence: last ? last.sequence : after,
      retention_gap: gap,
      has_more: last ? last.sequence + 1 < this.events.length : false,
      events,
      state: this.state,
    });
    return checkA3sEventPage(body, identity, after, limit);
  }
  add(n: number): void {
    for (let i = 0; i < n; i++) {
      this.events.push(this.events.length);
    }
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setImmediate(r));
  }
};

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

  it('retries transport errors with backoff and gives up on a final HTTP error', async () => {
    const timers = new FakeTimers();
    let n = 0;
    const { A3sError, A3sHttpError } = await import('../../../extension/drivers/a3s/a3sErrors');
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
