/**
 * `daemon.status` and `error` as the real SCV daemon sends them (WIRE.md §2.8, §2.10): a delegation's `turn` is an
 * integer (`Option<u32>`), `components[].channel` and the whole `delegations` object are `#[serde(default)]` (older
 * daemons omit them), `restart_when_idle`'s four fields are all optional, and an `error`'s `request_id` may be
 * `null`. The reference daemon sends these shapes; a status that still fails to parse answers its request at once
 * with a clear error instead of leaving it to the 20 s reply timeout.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { daemonControl, daemonStatus } from '../../../../extension/drivers/scv/daemonStatus';
import { ScvUnknownOutcomeError } from '../../../../extension/drivers/scv/scvErrors';
import { parseScvServerEvent } from '../../../../extension/protocol/scv';
import { buildDaemonControl, validateScvClientMessage } from '../../../../extension/protocol/scvClientMessages';
import { DaemonStatusSchema } from '../../../../extension/protocol/scvDaemonControl';
import { fakeScvServer } from './fakeScvServer';
import type { FakeScvServer } from './fakeScvServer';
import { recordingClient, startDaemon, until } from './scvDaemonKit';
import type { DaemonHandle, Recorded } from './scvDaemonKit';

const entry = {
  handle: 'job-1',
  agent: 'helper',
  session: 's1',
  depth: 1,
  pid: 10,
  owner_pid: 9,
  processes: 1,
  cwd: '/w',
  started_unix_seconds: 1_700_000_000,
  orphaned: false,
};

describe('SCV daemon.status shapes', () => {
  let h: DaemonHandle | undefined;
  let fake: FakeScvServer | undefined;
  const clients: Recorded[] = [];
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scv-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const c of clients.splice(0)) {
      c.client.dispose();
    }
    await h?.cleanup();
    await fake?.close();
    h = undefined;
    fake = undefined;
    for (const dir of dirs.splice(0)) {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('parses integer, null and absent delegation turns, and defaults what older daemons omit', () => {
    const status = DaemonStatusSchema.parse({
      version: '0.3.0',
      pid: 1,
      components: [{ id: 'telegram:bot', account: 'bot', enabled: true, state: 'connected', restarts: 0, remote_tools: 'none' }],
      delegations: {
        active: 3,
        reaped: 0,
        entries: [
          { ...entry, turn: 7, conversation: 'c1' },
          { ...entry, handle: 'job-2', turn: null, conversation: null },
          { ...entry, handle: 'job-3' },
        ],
      },
    });
    assert.deepEqual(status.delegations.entries.map((e) => e.turn), [7, null, undefined]);
    assert.equal(status.components[0]!.channel, '', 'channel defaults like #[serde(default)]');
    assert.equal(DaemonStatusSchema.safeParse({ ...status, delegations: { ...status.delegations, entries: [{ ...entry, turn: 't1' }] } }).success, false);
    const old = DaemonStatusSchema.parse({ version: '0.2.9', pid: 1, components: [] });
    assert.deepEqual(old.delegations, { active: 0, reaped: 0, entries: [] });
  });

  it('accepts restart_when_idle with none of its four fields, and an error whose request_id is null', () => {
    assert.equal(validateScvClientMessage(buildDaemonControl('1', { action: 'restart_when_idle' })), undefined);
    const parsed = parseScvServerEvent({ type: 'error', request_id: null, code: 'internal_error', message: 'x', fatal: false });
    assert.ok(parsed.ok && parsed.event.type === 'error' && parsed.event.request_id === undefined, JSON.stringify(parsed));
  });

  it('reads a status whose delegations carry integer turns from the reference daemon', async () => {
    h = await startDaemon({ backgroundDelayMs: 60_000 });
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    await rec.client.connect();
    await rec.client.startSession({ cwd: h.dir, chat: { channel: 'telegram', account: 'demo', conversation: 'c42' } });
    const started = await rec.client.startTurn('start background work');
    assert.equal(started.kind, 'started');
    await until(() => rec.events.some((e) => e.type === 'turn.completed'));
    // A short reply timeout: before the fix the status failed to parse and this waited for it.
    const status = await daemonStatus({ socketPath: h.socketPath, clientVersion: 't', replyTimeoutMs: 2_000 });
    assert.equal(status.delegations.active, 1);
    const job = status.delegations.entries[0]!;
    assert.equal(job.turn, 1);
    assert.equal(job.conversation, 'c42');
    assert.equal(job.session, rec.client.sessionId);
  });

  it('an older daemon (legacyStatus) omits components[].channel and delegations; the client defaults them', async () => {
    h = await startDaemon({ legacyStatus: true });
    const rec = recordingClient(h.socketPath);
    clients.push(rec);
    await rec.client.connect();
    const status = await rec.client.control({ action: 'status' });
    const wire = rec.frames.find((f) => f.dir === 'in' && (f.frame as { type?: string }).type === 'daemon.status')!.frame as {
      status: { components: Record<string, unknown>[]; delegations?: unknown };
    };
    assert.equal('channel' in wire.status.components[0]!, false, 'the fixture sent a component without channel');
    assert.equal('delegations' in wire.status, false, 'and no delegations');
    assert.equal(status.components[0]!.id, 'telegram:demo');
    assert.equal(status.components[0]!.channel, '');
    assert.deepEqual(status.delegations, { active: 0, reaped: 0, entries: [] });
  });

  it('restart_when_idle without fields restarts into the running version', async () => {
    h = await startDaemon();
    const status = await daemonControl({ action: 'restart_when_idle' }, { socketPath: h.socketPath, clientVersion: 't' });
    assert.equal(status.restart?.to_version, '0.3.14-ref');
  });

  it('a status that does not parse answers its request at once with a clear error', async () => {
    const dir = tempDir();
    fake = await fakeScvServer(dir, { mode: 'mute', controlStatus: { version: '1', pid: 'not a number', components: [] } });
    const startedAt = Date.now();
    await assert.rejects(daemonStatus({ socketPath: fake.socketPath, clientVersion: 't', replyTimeoutMs: 15_000 }), (e: unknown) => {
      assert.ok(e instanceof ScvUnknownOutcomeError, String(e));
      assert.equal(e.reason, 'malformed_reply');
      assert.match(e.message, /daemon\.control .*could not be read .*status\.pid/);
      return true;
    });
    assert.ok(Date.now() - startedAt < 5_000, 'not left to the reply timeout');
  });

  it('a connection-level error with request_id null is an error report, not an unreadable event', async () => {
    const dir = tempDir();
    fake = await fakeScvServer(dir, {
      mode: 'script',
      script: [JSON.stringify({ type: 'error', request_id: null, code: 'internal_error', message: 'oops', fatal: false })],
    });
    const rec = recordingClient(fake.socketPath);
    clients.push(rec);
    await rec.client.connect();
    await rec.client.startSession({ cwd: dir });
    await until(() => rec.errors.length > 0);
    assert.deepEqual(
      rec.errors.map((e) => [e.source, e.code, e.requestId]),
      [['server', 'internal_error', undefined]],
    );
  });
});
