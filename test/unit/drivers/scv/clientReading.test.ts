/** How ScvClient reads what a misbehaving or newer server writes (scripted fake server). */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ScvVersionMismatchError } from '../../../../extension/drivers/scv/scvErrors';
import { fakeScvServer } from './fakeScvServer';
import type { FakeScvServer } from './fakeScvServer';
import { recordingClient, until } from './scvDaemonKit';
import type { Recorded } from './scvDaemonKit';

const T = { request_id: '3', session_id: 's1', turn_id: 't1' };
const line = (frame: unknown): string => JSON.stringify(frame);

describe('ScvClient reading a scripted server', () => {
  let dir: string;
  let fake: FakeScvServer | undefined;
  let rec: Recorded | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scv-'));
  });
  afterEach(async () => {
    rec?.client.dispose();
    await fake?.close();
    fake = undefined;
    rec = undefined;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  });

  async function run(script: string[], tail = ''): Promise<Recorded> {
    fake = await fakeScvServer(dir, { mode: 'script', script, tail });
    rec = recordingClient(fake.socketPath);
    await rec.client.connect();
    await rec.client.startSession({ cwd: dir });
    return rec;
  }

  it('survives bad lines, skips unknown events and reports gaps, stale seqs and malformed events', async () => {
    const r = await run([
      'not json at all',
      line({ type: 'turn.started', ...T, seq: 2 }),
      line({ type: 'assistant.thinking', session_id: 's1' }), // unknown, no seq: excuses one number (3)
      line({ type: 'assistant.delta', ...T, seq: 4, content: 'a' }),
      line({ type: 'assistant.delta', ...T, seq: 7, content: 'b' }), // 5..6 lost
      line({ type: 'assistant.delta', ...T, seq: 7, content: 'dup' }), // stale
      line({ type: 'assistant.delta', ...T, seq: 8 }), // malformed (no content) but accounted
      line({ type: 'assistant.completed', ...T, seq: 9, content: 'ab' }),
      line({ type: 'error', code: 'internal_error', message: 'hiccup', fatal: false }),
      line({ type: 'turn.completed', ...T, seq: 10, steps: 1, usage: {} }),
    ]);
    await until(() => r.events.some((e) => e.type === 'turn.completed'));
    assert.deepEqual(r.gaps, [{ sessionId: 's1', from: 5, to: 6, seq: 7 }]);
    const codes = r.errors.map((e) => e.code);
    assert.deepEqual(codes, ['malformed_frame', 'seq_out_of_order', 'malformed_event', 'internal_error']);
    const malformed = r.errors.find((e) => e.code === 'malformed_event')!;
    assert.deepEqual(malformed.raw, { type: 'assistant.delta', ...T, seq: 8 });
    assert.equal(r.errors.find((e) => e.code === 'internal_error')?.source, 'server');
    assert.equal(r.events.find((e) => e.type === 'unknown')?.type, 'unknown');
    assert.equal(r.client.state, 'open', 'none of this closes the connection');
  });

  it('closes on a fatal connection-level error', async () => {
    const r = await run([line({ type: 'error', code: 'internal_error', message: 'shutting down', fatal: true })]);
    await until(() => r.closes.length > 0);
    assert.equal(r.closes[0]!.kind, 'fatal');
    assert.match(r.closes[0]!.reason, /shutting down/);
    assert.equal(r.errors[0]?.fatal, true);
  });

  it('reports a line cut off by EOF', async () => {
    const r = await run([line({ type: 'turn.started', ...T, seq: 2 })], '{"type":"assistant.del');
    await until(() => r.events.some((e) => e.type === 'turn.started'));
    await fake!.close();
    await until(() => r.closes.length > 0);
    assert.ok(r.errors.some((e) => e.code === 'truncated_frame'));
    assert.equal(r.closes[0]!.kind, 'eof');
  });

  it('refuses an initialized with another protocol version', async () => {
    fake = await fakeScvServer(dir, { mode: 'mute', protocolVersion: 4 });
    rec = recordingClient(fake.socketPath);
    await assert.rejects(
      rec.client.connect(),
      (e: unknown) => e instanceof ScvVersionMismatchError && e.serverVersion === 4 && /speaks protocol 3/.test(e.message),
    );
    assert.equal(rec.client.state, 'closed');
  });
});

describe('ScvVersionMismatchError.fromServerMessage', () => {
  it('finds the daemon version after "protocol"/"version", ignoring release numbers', () => {
    assert.equal(ScvVersionMismatchError.fromServerMessage(3, 'scv 0.3.14 speaks protocol 4').serverVersion, 4);
    assert.equal(ScvVersionMismatchError.fromServerMessage(3, 'unsupported protocol version 3, expected 2').serverVersion, undefined);
    assert.equal(ScvVersionMismatchError.fromServerMessage(3, 'client protocol version 3; server protocol version 5').serverVersion, 5);
    assert.match(ScvVersionMismatchError.fromServerMessage(3, 'nope').message, /this client speaks protocol 3, the daemon speaks a different/);
  });
});
