import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { A3sClient } from '../../../../extension/drivers/a3s/client';
import { A3sSequenceError } from '../../../../extension/drivers/a3s/a3sErrors';
import { A3sRunPoller, pageA3sUntilCaughtUp } from '../../../../extension/drivers/a3s/runPoller';
import { A3S_TRUNCATION_SUFFIX, buildRunIdentity, decodeA3sEvent } from '../../../../extension/protocol/a3s';
import type { A3sEventRecord } from '../../../../extension/protocol/a3s';
import { A3sHarness } from '../../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../../fixtures/a3s/harnessWire';
import { FakeA3sServer } from './fakeA3sServer';
import { pageBody } from './pagingFakes';

const id = (runId: string) => buildRunIdentity({ agentReleaseIdentity: DEFAULT_RELEASE, sessionId: 'session-1', runId });

function assertContiguous(events: readonly A3sEventRecord[], from: number): void {
  events.forEach((e, i) => assert.equal(e.sequence, from + i));
}

describe('event paging against the reference harness', () => {
  // Zero latency: a run's events exist by the first page, so nothing here races the harness's clock.
  const harness = new A3sHarness({ zeroLatency: true });
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
    // Parked at 10 events: the poller meets the run live (not terminal), then follows it to its end once released.
    harness.holdEventsAt(10);
    await client.start('q', id('run-poll'), 'poll me');
    const poller = new A3sRunPoller({ client, identity: id('run-poll'), activeIntervalMs: 5, maxIntervalMs: 20 });
    const seen: number[] = [];
    const states: string[] = [];
    poller.onEvents(({ events }) => seen.push(...events.map((e) => e.sequence)));
    poller.onState((s) => states.push(s));
    const tenHeld = new Promise<void>((resolve) => poller.onEvents(() => seen.length >= 10 && resolve()));
    const ended = poller.start();
    await tenHeld;
    assert.deepEqual([harness.getRun('run-poll')?.live, states], [true, ['executing']], 'the poller meets the run live');
    harness.holdEventsAt(undefined);
    const end = await ended;
    poller.dispose();
    assert.equal(end.reason, 'terminal');
    assert.equal(states.at(-1), 'completed');
    assertContiguous(seen.map((sequence) => ({ sequence }) as A3sEventRecord), 0);
    assert.equal(poller.cursor, seen.at(-1));
  });
});

// ---------------------------------------------------------------------------------------------------------------

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
