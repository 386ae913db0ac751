/**
 * Writes that do not complete are never retried (SCV has no idempotency; a prompt could run twice). A tiny fake
 * server does the handshake, then stops reading so the client's write cannot drain.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ScvUnknownOutcomeError } from '../../../../extension/drivers/scv/scvErrors';
import { fakeScvServer } from './fakeScvServer';
import { recordingClient, until } from './scvDaemonKit';

describe('ScvClient write and reply timeouts', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scv-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  });

  it('reports a stalled turn.start as "outcome unknown", drops the connection and never resends', async () => {
    const fake = await fakeScvServer(dir, { mode: 'stall' });
    const rec = recordingClient(fake.socketPath, { writeTimeoutMs: 300 });
    try {
      await rec.client.connect();
      await rec.client.startSession({ cwd: dir });
      // Under the 256 KiB prompt limit, but more than a stalled Unix socket can take.
      const prompt = 'p'.repeat(260_000);
      const started = Date.now();
      await assert.rejects(rec.client.startTurn(prompt), (e: unknown) => {
        assert.ok(e instanceof ScvUnknownOutcomeError, String(e));
        assert.equal(e.reason, 'write_timeout');
        assert.equal(e.requestType, 'turn.start');
        assert.match(e.message, /outcome unknown, not retried/);
        return true;
      });
      assert.ok(Date.now() - started < 2_500, 'rejected soon after the write deadline');
      assert.equal(rec.closes[0]?.kind, 'write_timeout');
      assert.equal(rec.client.state, 'closed');
      // Collect whatever reached the server: turn.start appears at most once.
      fake.resume();
      await new Promise((r) => setTimeout(r, 200));
      const count = fake.received().split('"type":"turn.start"').length - 1;
      assert.ok(count <= 1, `turn.start sent ${count} times`);
      assert.equal(rec.frames.filter((f) => f.dir === 'out' && (f.frame as { type: string }).type === 'turn.start').length, 1);
      // Later calls are refused instead of silently reconnecting and resending.
      await assert.rejects(rec.client.startTurn('again'), /needs an open session/);
    } finally {
      rec.client.dispose();
      await fake.close();
    }
  });

  it('a request without an answer rejects as unknown outcome and is not resent', async () => {
    const fake = await fakeScvServer(dir, { mode: 'mute' });
    const rec = recordingClient(fake.socketPath, { replyTimeoutMs: 200 });
    try {
      await rec.client.connect();
      await rec.client.startSession({ cwd: dir });
      await assert.rejects(
        rec.client.startTurn('hello'),
        (e: unknown) => e instanceof ScvUnknownOutcomeError && e.reason === 'reply_timeout',
      );
      await until(() => fake.received().includes('\n'));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(fake.received().split('"type":"turn.start"').length - 1, 1);
      assert.equal(rec.client.state, 'open', 'a missing answer does not drop the connection');
    } finally {
      rec.client.dispose();
      await fake.close();
    }
  });
});
