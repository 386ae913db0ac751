/** ScvClient against the reference daemon: daemon status and control, attachments, what it refuses, drops; protocol edge cases. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { daemonControl, daemonStatus } from '../../../../extension/drivers/scv/daemonStatus';
import {
  ScvNotSentError,
  ScvRequestError,
  ScvUnknownOutcomeError,
  ScvVersionMismatchError,
} from '../../../../extension/drivers/scv/scvErrors';
import { DAEMON_ACTIONS } from '../../../../extension/protocol/scvDaemonControl';
import type { DaemonCommand, DaemonStatus } from '../../../../extension/protocol/scvDaemonControl';
import { recordingClient, sessionClient, startDaemon, turnEnd, useReferenceDaemon } from './scvDaemonKit';


describe('ScvClient against the reference daemon: management and limits', () => {
  const daemon = useReferenceDaemon({ backgroundDelayMs: 800, slowTurnMs: 2_000 });
  const session = daemon.session;
  it('reports daemon status and daemon.control actions on a management connection', async () => {
    const status = await daemonStatus({ socketPath: daemon.h.socketPath, clientVersion: 't' });
    assert.equal(status.version, '0.3.14-ref');
    assert.equal(status.pid, process.pid);
    assert.equal(status.components[0]?.id, 'telegram:demo');
    assert.deepEqual(status.delegations, { active: 0, reaped: 0, entries: [] });
    const set = await daemonControl(
      { action: 'channel_set', channel: 'telegram', account: 'x', enabled: true, workspace: null },
      { socketPath: daemon.h.socketPath, clientVersion: 't' },
    );
    assert.ok(set.components.some((c) => c.id === 'telegram:x' && c.state === 'connected'));
    await assert.rejects(
      daemonControl({ action: 'confirm_status', id: 'nope' }, { socketPath: daemon.h.socketPath, clientVersion: 't' }),
      (e: unknown) => e instanceof ScvRequestError && e.code === 'confirm_error',
    );
  });

  it('answers every daemon.control action with daemon.status on one connection', async () => {
    const rec = recordingClient(daemon.h.socketPath);
    daemon.adopt(rec);
    await rec.client.connect();
    const commands: DaemonCommand[] = [
      { action: 'status' },
      { action: 'reload' },
      { action: 'channel_set', channel: 'mail', account: 'me', enabled: false, workspace: daemon.h.dir, remote_tools: 'owner' },
      { action: 'channel_logout', channel: 'mail', account: 'me' },
      { action: 'delegations', all: true },
      { action: 'delegation_kill', orphans: true },
      { action: 'restart_when_idle', version: '0.3.15', commit: 'abc', max_wait_seconds: 60 },
      { action: 'confirm_ask', question: 'Ship it?', timeout_seconds: 60 },
    ];
    assert.deepEqual(
      commands.map((c) => c.action),
      DAEMON_ACTIONS.filter((a) => a !== 'confirm_status'),
    );
    let last: DaemonStatus | undefined;
    for (const command of commands) {
      last = await rec.client.control(command);
      assert.equal(last.version, '0.3.14-ref', command.action);
    }
    assert.equal(last?.restart?.to_version, '0.3.15');
    assert.equal(last?.confirm?.state, 'pending');
    const polled = await rec.client.control({ action: 'confirm_status', id: last!.confirm!.id });
    assert.equal(polled.confirm?.id, last!.confirm!.id);
    assert.ok(!polled.components.some((c) => c.id === 'mail:me'), 'channel_logout removed it');
    assert.equal(rec.client.sessionId, undefined, 'management needs no session');
    assert.deepEqual(rec.errors, []);
  });

  it('sends attachments (name/mime omitted when empty) and the daemon checks their paths', async () => {
    const rec = await session();
    const file = path.join(daemon.h.dir, 'note.txt');
    fs.writeFileSync(file, 'hi');
    const answer = await rec.client.startTurn('', [{ kind: 'file', path: file, name: '', mime: '', size: 2 }]);
    assert.equal(answer.kind, 'started');
    const out = rec.frames.filter((f) => f.dir === 'out').at(-1)!.frame as { attachments: unknown[] };
    assert.deepEqual(out.attachments, [{ kind: 'file', path: file, size: 2 }]);
    await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    await assert.rejects(
      rec.client.startTurn('see file', [{ kind: 'file', path: path.join(daemon.h.dir, 'gone.txt'), name: 'gone', mime: '', size: 1 }]),
      (e: unknown) => e instanceof ScvRequestError && e.code === 'invalid_request',
    );
  });

  it('no_tools sessions never call tools', async () => {
    const rec = recordingClient(daemon.h.socketPath);
    daemon.adopt(rec);
    await rec.client.connect();
    await rec.client.startSession({ cwd: daemon.h.dir, no_tools: true, system_prompt: 'Be brief.' });
    const answer = await rec.client.startTurn('tool background');
    await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
    assert.equal(rec.events.filter((e) => e.type.startsWith('tool.')).length, 0);
  });

  it('refuses relative cwd locally and a missing directory via invalid_request', async () => {
    const rec = recordingClient(daemon.h.socketPath);
    daemon.adopt(rec);
    await rec.client.connect();
    await assert.rejects(rec.client.startSession({ cwd: 'relative/dir' }), ScvNotSentError);
    await assert.rejects(
      rec.client.startSession({ cwd: path.join(daemon.h.dir, 'missing') }),
      (e: unknown) => e instanceof ScvRequestError && e.code === 'invalid_request',
    );
    await assert.rejects(rec.client.startTurn('no session yet'), ScvNotSentError);
  });

  it('refuses to send a client line over 1 MiB and stays usable', async () => {
    const rec = await session();
    const before = rec.frames.length;
    await assert.rejects(
      rec.client.control({ action: 'confirm_ask', question: 'x'.repeat(1_100_000) }),
      (e: unknown) => e instanceof ScvNotSentError && /over the SCV client line limit of 1048576 bytes/.test(e.message),
    );
    await assert.rejects(rec.client.startTurn('p'.repeat(262_145)), /prompts up to 262144 bytes/);
    assert.equal(rec.frames.length, before, 'nothing was sent or tapped');
    const answer = await rec.client.startTurn('still works');
    assert.equal(answer.kind, 'started');
  });

  it('rejects pending requests with an unknown outcome when the connection drops', async () => {
    const rec = await session();
    const pending = rec.client.updateQueue('q-never', 1, 'x');
    rec.client.close();
    await assert.rejects(pending, (e: unknown) => e instanceof ScvUnknownOutcomeError || e instanceof ScvRequestError);
    await assert.rejects(rec.client.startTurn('after close'), ScvNotSentError);
  });

  it('fails clearly when no daemon listens', async () => {
    const rec = recordingClient(path.join(daemon.h.dir, 'nobody.sock'));
    await assert.rejects(rec.client.connect(), (e: unknown) => e instanceof ScvNotSentError && /cannot connect/.test(e.message));
    assert.equal(rec.closes[0]?.kind, 'connect_failed');
  });
});

describe('ScvClient protocol edge cases', () => {
  it('names both versions on version_mismatch and closes', async () => {
    const h = await startDaemon({ protocolVersion: 4 });
    try {
      const rec = recordingClient(h.socketPath);
      await assert.rejects(rec.client.connect(), (e: unknown) => {
        assert.ok(e instanceof ScvVersionMismatchError);
        assert.equal(e.clientVersion, 3);
        assert.equal(e.serverVersion, 4);
        assert.match(e.message, /client speaks protocol 3, the daemon speaks protocol 4/);
        return true;
      });
      assert.equal(rec.errors[0]?.code, 'version_mismatch');
      assert.equal(rec.errors[0]?.fatal, true);
      assert.equal(rec.closes[0]?.kind, 'fatal');
      assert.equal(rec.client.state, 'closed');
    } finally {
      await h.cleanup();
    }
  });

  it('drops a server line over max_server_frame_bytes and reports the lost seq', async () => {
    const h = await startDaemon({ maxServerFrameBytes: 4096 });
    try {
      const rec = await sessionClient(h);
      assert.equal(rec.client.maxServerLineBytes, 4098);
      const answer = await rec.client.startTurn('send an oversize delta');
      const end = await turnEnd(rec, answer.kind === 'started' ? answer.event.turn_id : '');
      assert.equal(end.type, 'turn.completed');
      const tooLarge = rec.errors.find((e) => e.code === 'frame_too_large');
      assert.ok(tooLarge, 'oversized line reported');
      assert.match(tooLarge.message, /over the limit of 4098 bytes/);
      assert.equal(rec.gaps.length, 1);
      assert.equal(rec.gaps[0]!.from, rec.gaps[0]!.to, 'exactly one event lost');
      assert.ok(!rec.frames.some((f) => JSON.stringify(f.frame).length > 5000), 'the long line was never decoded');
      rec.client.dispose();
    } finally {
      await h.cleanup();
    }
  });
});
