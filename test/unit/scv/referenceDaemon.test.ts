/** The reference daemon's wire rules, checked with a raw NDJSON socket (frames the typed client never sends). */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parseScvServerEvent } from '../../../extension/protocol/scv';
import { RawConnection, startDaemon } from './scvHarness';
import type { DaemonHandle } from './scvHarness';

describe('reference SCV daemon wire rules', () => {
  let h: DaemonHandle;
  let raw: RawConnection;

  beforeEach(async () => {
    h = await startDaemon();
    raw = await RawConnection.open(h.socketPath);
  });
  afterEach(async () => {
    raw.close();
    await h.cleanup();
  });

  async function startSession(): Promise<string> {
    await raw.initialize();
    raw.send({ type: 'session.start', request_id: 's', cwd: h.dir });
    const started = await raw.next();
    assert.equal(started['type'], 'session.started');
    const snapshot = await raw.next();
    assert.equal(snapshot['type'], 'queue.snapshot');
    assert.equal(snapshot['request_id'], null);
    return started['session_id'] as string;
  }

  it('answers anything before initialize with not_initialized', async () => {
    raw.send({ type: 'session.start', request_id: '7', cwd: h.dir });
    assert.deepEqual(await raw.next(), {
      type: 'error',
      request_id: '7',
      code: 'not_initialized',
      message: 'send initialize first',
      fatal: false,
    });
    await raw.initialize(); // still usable
  });

  it('closes after a fatal version_mismatch', async () => {
    raw.send({ type: 'initialize', request_id: '1', protocol_version: 2, client: { name: 'old', version: '1' } });
    const error = await raw.next();
    assert.equal(error['code'], 'version_mismatch');
    assert.equal(error['fatal'], true);
    assert.equal(error['request_id'], '1');
    await raw.waitClosed();
  });

  it('uses invalid_json for non-JSON, unknown types and unknown daemon.control actions', async () => {
    raw.sendLine('this is not json');
    const notJson = await raw.next();
    assert.equal(notJson['code'], 'invalid_json');
    assert.equal('request_id' in notJson, false, 'connection-level errors omit request_id');
    raw.send({ type: 'turn.teleport', request_id: '2' });
    assert.deepEqual([(await raw.next())['code'], 'ok'], ['invalid_json', 'ok']);
    await raw.initialize();
    raw.send({ type: 'daemon.control', request_id: '3', command: { action: 'mail_send' } });
    const unknownAction = await raw.next();
    assert.equal(unknownAction['code'], 'invalid_json');
    assert.equal(unknownAction['request_id'], '3');
  });

  it('uses invalid_request for bad fields and oversized lines, and keeps the connection', async () => {
    await raw.initialize();
    raw.send({ type: 'session.start', request_id: '4' });
    assert.equal((await raw.next())['code'], 'invalid_request');
    raw.send({ type: 'session.start', request_id: '5', cwd: `${h.dir}/nope` });
    assert.equal((await raw.next())['code'], 'invalid_request');
    raw.send({ type: 'session.start', request_id: '6', cwd: h.dir, system_prompt: 'x' });
    assert.match(String((await raw.next())['message']), /system_prompt requires no_tools/);
    raw.sendLine(JSON.stringify({ type: 'daemon.control', request_id: '8', command: { action: 'confirm_ask', question: 'q'.repeat(1_100_000) } }));
    const oversized = await raw.next();
    assert.equal(oversized['code'], 'invalid_request');
    assert.match(String(oversized['message']), /exceeds the 1048576-byte limit/);
    raw.send({ type: 'daemon.control', request_id: '9', command: { action: 'status' } });
    const status = await raw.next();
    assert.equal(status['type'], 'daemon.status');
    assert.equal('seq' in status, false);
  });

  it('keeps one session per connection and checks session ids', async () => {
    const sessionId = await startSession();
    raw.send({ type: 'session.start', request_id: 'again', cwd: h.dir });
    assert.equal((await raw.next())['code'], 'invalid_request');
    raw.send({ type: 'session.attach', request_id: 'att', session_id: sessionId, cwd: h.dir });
    assert.equal((await raw.next())['code'], 'unsupported');
    raw.send({ type: 'turn.start', request_id: 't', session_id: 'someone-else', prompt: 'hi' });
    assert.equal((await raw.next())['code'], 'session_not_found');
    raw.send({ type: 'queue.update', request_id: 'u', session_id: sessionId, queue_id: 'q1', revision: '1', prompt: 'x' });
    assert.equal((await raw.next())['code'], 'invalid_request', 'revision must be an integer');
    raw.send({ type: 'turn.start', request_id: 'e', session_id: sessionId, prompt: '' });
    assert.equal((await raw.next())['code'], 'invalid_request', 'empty prompt without attachments');
    raw.send({ type: 'approval.resolve', request_id: 'a', session_id: sessionId, approval_id: 'nope', approved: true });
    assert.equal((await raw.next())['code'], 'approval_not_found');
  });

  it('numbers every session event consecutively and every frame parses', async () => {
    const sessionId = await startSession();
    raw.send({ type: 'turn.start', request_id: 'r1', session_id: sessionId, prompt: 'tool compact future' });
    const frames: Record<string, unknown>[] = [];
    for (;;) {
      const frame = await raw.next();
      frames.push(frame);
      if (frame['type'] === 'approval.requested') {
        raw.send({ type: 'approval.resolve', request_id: 'r2', session_id: sessionId, approval_id: frame['approval_id'], approved: true });
      }
      if (frame['type'] === 'session.trimmed') {
        break;
      }
    }
    const seqs = frames.map((f) => f['seq'] as number);
    assert.deepEqual(seqs, seqs.map((_, i) => 2 + i));
    for (const frame of frames) {
      assert.ok(parseScvServerEvent(frame).ok, JSON.stringify(frame));
      if (frame['turn_id'] !== undefined) {
        assert.equal(frame['request_id'], 'r1');
      }
    }
    assert.equal(frames.filter((f) => ['turn.completed', 'turn.failed', 'turn.cancelled'].includes(f['type'] as string)).length, 1);
  });
});
