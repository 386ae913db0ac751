import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { A3sClient } from '../../../../extension/drivers/a3s/client';
import {
  A3sError,
  A3sHttpError,
  A3sReceiptMismatchError,
  A3sTooLargeError,
  A3sValidationError,
} from '../../../../extension/drivers/a3s/a3sErrors';
import type { A3sReceiptField } from '../../../../extension/drivers/a3s/a3sErrors';
import { pageA3sUntilCaughtUp } from '../../../../extension/drivers/a3s/runPoller';
import { buildRunIdentity, buildStartCommand } from '../../../../extension/protocol/a3s';
import type { FrameDirection, HttpTraceInfo } from '../../../../extension/transport/frameTap';
import { A3sHarness } from '../../../fixtures/a3s/harness';
import { DEFAULT_RELEASE, commandDigest as harnessDigest, parseCommand } from '../../../fixtures/a3s/harnessWire';
import { FakeA3sServer } from './fakeA3sServer';

const id = (runId: string, sessionId = 'session-1', release = DEFAULT_RELEASE) =>
  buildRunIdentity({ agentReleaseIdentity: release, sessionId, runId });

async function rejectsWith(promise: Promise<unknown>, check: (e: A3sHttpError) => void): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof A3sHttpError, String(e));
    check(e);
    return true;
  });
}

describe('A3sClient against the reference harness', () => {
  // Zero latency: waiting for a run's end is waiting for a state, never for the harness's clock.
  const harness = new A3sHarness({ zeroLatency: true });
  const frames: { dir: FrameDirection; frame: unknown; http?: HttpTraceInfo }[] = [];
  let client: A3sClient;

  before(async () => {
    await harness.start();
    client = new A3sClient({ baseUrl: harness.url, frameTap: (dir, frame, http) => frames.push({ dir, frame, ...(http ? { http } : {}) }) });
  });
  after(async () => {
    client.dispose();
    await harness.stop();
  });

  it('reads readiness and liveness', async () => {
    assert.deepEqual(await client.readiness(), { state: 'ready', httpStatus: 200, detail: 'ready' });
    assert.deepEqual(await client.liveness(), { state: 'live', httpStatus: 200, detail: 'live' });
  });

  it('starts a run, verifies the receipt and traces every JSON body', async () => {
    frames.length = 0;
    const result = await client.start('req-1', id('run-1'), 'Fix the failing test');
    assert.equal(result.replayed, false);
    assert.equal(result.receipt.command_digest, result.commandDigest);
    assert.equal(result.receipt.command_digest, harnessDigest(buildStartCommand('req-1', id('run-1'), 'Fix the failing test')));
    assert.deepEqual(frames.map((f) => [f.dir, f.http]), [
      ['out', { method: 'POST', path: '/v1/agent/commands' }],
      ['in', { method: 'POST', path: '/v1/agent/commands', status: 200 }],
    ]);
    assert.deepEqual(frames[0]?.frame, buildStartCommand('req-1', id('run-1'), 'Fix the failing test'));
  });

  it('surfaces exact replay: same run id → replayed:true with the same digest', async () => {
    const first = await client.start('req-r', id('run-replay'), 'hello');
    const again = await client.start('req-r', id('run-replay'), 'hello');
    assert.deepEqual([first.replayed, again.replayed], [false, true]);
    assert.equal(again.commandDigest, first.commandDigest);
  });

  it('cancel: live → cancelled; terminal → replayed; stranded → 409 run_unavailable; recover', async () => {
    await client.start('req-w', id('run-wait'), 'please wait');
    const cancelled = await client.cancel('req-c1', id('run-wait'), 'user stop');
    assert.deepEqual([cancelled.replayed, cancelled.receipt.state], [false, 'cancelled']);
    const again = await client.cancel('req-c2', id('run-wait'), 'user stop');
    assert.deepEqual([again.replayed, again.receipt.state], [true, 'cancelled']);

    await client.start('req-s', id('run-strand'), 'strand me');
    await rejectsWith(client.cancel('req-c3', id('run-strand'), 'stop'), (e) => {
      assert.deepEqual([e.status, e.code, e.retryable], [409, 'a3s.code.agent_protocol.run_unavailable', false]);
      assert.match(e.message, /recover it with a new run id/);
    });
    const recovered = await client.recover('req-rec', id('run-recovered'), 'run-strand');
    assert.equal(recovered.replayed, false);
    const caught = await waitTerminal(client, id('run-recovered'));
    assert.equal(caught.state, 'completed');
  });

  it('maps identity conflicts and unknown runs', async () => {
    const other = new A3sClient({ baseUrl: harness.url });
    try {
      await rejectsWith(other.start('q', id('run-x', 'session-1', `sha256:${'2'.repeat(64)}`), 'hi'), (e) => {
        assert.deepEqual([e.status, e.code], [409, 'a3s.code.agent_protocol.release_mismatch']);
        assert.match(e.message, /different agent release/);
      });
      await rejectsWith(other.start('q', id('run-1', 'session-2'), 'hi'), (e) => assert.equal(e.code, 'a3s.code.agent_protocol.session_mismatch'));
      await rejectsWith(other.eventPage(id('nope'), null), (e) => assert.deepEqual([e.status, e.code], [404, 'a3s.code.agent_protocol.run_not_found']));
      await rejectsWith(other.eventPage(id('run-1', 'never-opened'), null), (e) => assert.equal(e.code, 'a3s.code.agent_protocol.session_not_found'));
    } finally {
      other.dispose();
    }
  });

  it('validates before sending (nothing reaches the wire)', async () => {
    frames.length = 0;
    await assert.rejects(client.start('q', id('run-v'), '  '), A3sValidationError);
    await assert.rejects(client.start('q', id('run-v'), 'x'.repeat(131_000)), (e: unknown) => e instanceof A3sValidationError && /65536/.test(e.message));
    await assert.rejects(client.eventPage(id('run-1'), null, 65), A3sValidationError);
    assert.equal(frames.length, 0);
  });
});

describe('reference harness strictness (raw HTTP)', () => {
  const harness = new A3sHarness({ zeroLatency: true });
  before(() => harness.start());
  after(() => harness.stop());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${harness.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return { status: res.status, json: (await res.json()) as { error?: { code: string } } };
  };
  const start = (extra: Record<string, unknown> = {}, requestExtra: Record<string, unknown> = {}) =>
    JSON.stringify({ ...buildStartCommand('q', id('strict-1'), 'hi'), ...extra, request: { ...buildStartCommand('q', id('strict-1'), 'hi').request, ...requestExtra } });

  it('unknown keys → 400 invalid_json; wrong schema → unsupported_schema; bad field → invalid_field', async () => {
    assert.deepEqual(await post('/v1/agent/commands', start({ extra: 1 })).then((r) => [r.status, r.json.error?.code]), [400, 'a3s.code.agent_protocol.invalid_json']);
    assert.equal((await post('/v1/agent/commands', start({}, { identity: { ...id('strict-1'), x: 1 } }))).json.error?.code, 'a3s.code.agent_protocol.invalid_json');
    assert.equal((await post('/v1/agent/commands', '{not json')).json.error?.code, 'a3s.code.agent_protocol.invalid_json');
    assert.equal((await post('/v1/agent/commands', start({}, { schema: 'a3s.code.agent-run-start.v2' }))).json.error?.code, 'a3s.code.agent_protocol.unsupported_schema');
    assert.equal((await post('/v1/agent/commands', start({}, { prompt: ' ' }))).json.error?.code, 'a3s.code.agent_protocol.invalid_field');
    const page = { schema: 'a3s.code.agent-event-page-request.v1', identity: id('strict-1'), after_event_sequence: null, limit: 0 };
    assert.equal((await post('/v1/agent/events:page', JSON.stringify(page))).json.error?.code, 'a3s.code.agent_protocol.invalid_field');
    assert.equal((await post('/v1/agent/commands', 'x'.repeat(131_073))).json.error?.code, 'a3s.code.agent_protocol.invalid_json');
  });

  it('drains: readiness not_ready, requests 503 harness_closed → "draining"', async () => {
    const client = new A3sClient({ baseUrl: harness.url });
    try {
      harness.beginDrain();
      assert.equal((await client.readiness()).state, 'not_ready');
      await rejectsWith(client.start('q', id('late'), 'hi'), (e) => {
        assert.deepEqual([e.status, e.code, e.retryable], [503, 'a3s.code.agent_protocol.harness_closed', true]);
        assert.match(e.message, /draining/);
      });
    } finally {
      client.dispose();
    }
  });
});

describe('receipt verification (tampering fake server)', () => {
  let tamper: (receipt: Record<string, unknown>) => void = () => undefined;
  const server = new FakeA3sServer((req) => {
    const cmd = parseCommand(req.body);
    const receipt: Record<string, unknown> = {
      schema: 'a3s.code.agent-command-receipt.v1',
      action: cmd.action,
      request_id: cmd.request.request_id,
      identity: cmd.request.identity,
      command_digest: harnessDigest(cmd),
      state: 'created',
      latest_event_sequence_exclusive: 0,
      observed_at_ms: 1_760_000_000_000,
      replayed: false,
    };
    tamper(receipt);
    return { status: 200, body: receipt };
  });
  let client: A3sClient;
  before(async () => {
    client = new A3sClient({ baseUrl: await server.start() });
  });
  after(async () => {
    client.dispose();
    await server.stop();
  });

  it('accepts an honest receipt and surfaces replayed', async () => {
    tamper = (r) => {
      r['replayed'] = true;
      r['unknown_future_key'] = 1;
    };
    assert.equal((await client.start('req-1', id('run-1'), 'go')).replayed, true);
  });

  const cases: [A3sReceiptField, (r: Record<string, unknown>) => void][] = [
    ['schema', (r) => (r['schema'] = 'a3s.code.agent-command-receipt.v2')],
    ['action', (r) => (r['action'] = 'cancel')],
    ['request_id', (r) => (r['request_id'] = 'req-other')],
    ['identity', (r) => (r['identity'] = { ...(r['identity'] as object), run_id: 'run-other' })],
    ['identity', (r) => (r['identity'] = { ...(r['identity'] as object), agent_release_identity: `sha256:${'3'.repeat(64)}` })],
    ['command_digest', (r) => (r['command_digest'] = `sha256:${'0'.repeat(64)}`)],
  ];
  for (const [field, change] of cases) {
    it(`detects a tampered ${field}`, async () => {
      tamper = change;
      await assert.rejects(client.start('req-1', id('run-1'), 'go'), (e: unknown) => e instanceof A3sReceiptMismatchError && e.field === field);
    });
  }

  it('rejects a malformed receipt and maps a non-JSON error body', async () => {
    tamper = (r) => delete r['state'];
    await assert.rejects(client.start('req-1', id('run-1'), 'go'), (e: unknown) => e instanceof A3sError && e.kind === 'protocol');
    server.setHandler(() => ({ status: 502, raw: '<html>bad gateway</html>' }));
    await rejectsWith(client.start('req-1', id('run-1'), 'go'), (e) => assert.deepEqual([e.status, e.code, e.retryable], [502, 'http_502', true]));
  });

  it('bounds response size while reading (chunked and declared)', async () => {
    const big = Buffer.alloc(7 * 1024 * 1024, 0x20);
    server.setHandler(() => ({ status: 200, raw: big, chunked: true }));
    await assert.rejects(client.eventPage(id('run-1'), null), (e: unknown) => e instanceof A3sTooLargeError && e.limitBytes === 6_291_456);
    server.setHandler(() => ({ status: 200, raw: big }));
    await assert.rejects(client.changeSetRaw(id('run-1')), (e: unknown) => e instanceof A3sTooLargeError && e.limitBytes === 5_723_477);
  });
});

async function waitTerminal(client: A3sClient, identity: ReturnType<typeof id>) {
  for (let i = 0; i < 400; i++) {
    const caught = await pageA3sUntilCaughtUp(client, identity, null);
    if (caught.terminal) {
      return caught;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('run did not finish');
}
