import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyClient } from '../../../extension/drivers/agencyProxy/client';
import { FrameKind, encodeCloseFrame, encodeFrame } from '../../../extension/transport/lengthPrefixed';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { RawPeer, assertContiguous, collectUntil, isTerminalEvent, startDaemon, tempDir } from './testSupport';

const request = (ws: string, prompt = 'notools') => ({
  provider: 'claude', prompt, permission: 'edit', approvals: false, interactive: false, workspaceRoots: [ws],
});

describe('reference daemon: connection rules (WIRE.md §1.2–1.3)', () => {
  it('first frame not hello → protocol_violation, then close', async () => {
    const fx = await startDaemon();
    try {
      const peer = await RawPeer.connect(fx.socketPath);
      peer.send({ requestId: 5, type: 'list_runs' });
      assert.deepEqual(await peer.next(), {
        kind: 'response', request_id: 5, type: 'error', code: 'protocol_violation', message: 'the first frame must be hello',
      });
      await peer.closed;
    } finally {
      await fx.cleanup();
    }
  });

  it('a second hello → protocol_violation and the connection stays open', async () => {
    const fx = await startDaemon();
    try {
      const peer = await RawPeer.connect(fx.socketPath);
      assert.equal((await peer.hello(1) as { version: { minor: number } }).version.minor, 1, 'negotiates the smaller minor');
      peer.send({ requestId: 2, type: 'hello', client_name: 'raw', version: { major: 0, minor: 3 } });
      assert.deepEqual(await peer.next(), {
        kind: 'response', request_id: 2, type: 'error', code: 'protocol_violation', message: 'hello may only be sent once',
      });
      peer.send({ requestId: 3, type: 'list_runs' });
      assert.deepEqual(await peer.next(), { kind: 'response', request_id: 3, type: 'runs', runs: [] });
      peer.destroy();
    } finally {
      await fx.cleanup();
    }
  });

  it('major mismatch → incompatible_version, then close', async () => {
    const fx = await startDaemon();
    try {
      const peer = await RawPeer.connect(fx.socketPath);
      const reply = await peer.hello(0, 1) as Record<string, unknown>;
      assert.equal(reply['code'], 'incompatible_version');
      await peer.closed;
    } finally {
      await fx.cleanup();
    }
  });

  it('closes silently on Ping, invalid JSON, unknown type, snake_case requestId, huge integers', async () => {
    const fx = await startDaemon({ minor: 2 });
    try {
      const cases: [string, (peer: RawPeer) => void][] = [
        ['ping', (p) => p.sendBytes(encodeFrame(FrameKind.ping))],
        ['binary', (p) => p.sendBytes(encodeFrame(FrameKind.binary, Buffer.from('{}')))],
        ['invalid JSON', (p) => p.sendBytes(encodeFrame(FrameKind.text, Buffer.from('{"requestId":')))],
        ['unknown type', (p) => p.send({ requestId: 2, type: 'reboot' })],
        ['request_id', (p) => p.send({ request_id: 2, type: 'list_runs' })],
        ['missing key', (p) => p.send({ requestId: 2, type: 'attach_run', run_id: 'x' })],
        ['u64::MAX', (p) => p.sendBytes(encodeFrame(FrameKind.text, Buffer.from('{"requestId":18446744073709552000,"type":"list_runs"}')))],
        ['shutdown on a 0.2 daemon', (p) => p.send({ requestId: 2, type: 'shutdown', mode: 'drain' })],
        ['oversized length', (p) => p.sendBytes(Buffer.from([0, 0x10, 0, 2]))],
      ];
      for (const [name, send] of cases) {
        const peer = await RawPeer.connect(fx.socketPath);
        await peer.hello(2);
        send(peer);
        assert.equal(await peer.closesSilently(), true, name);
      }
    } finally {
      await fx.cleanup();
    }
  });

  it('Close frame and EOF end a connection cleanly without affecting others', async () => {
    const fx = await startDaemon();
    try {
      const peer = await RawPeer.connect(fx.socketPath);
      await peer.hello();
      peer.sendBytes(encodeCloseFrame(1000, 'done'));
      assert.equal(await peer.closesSilently(), true);
      const client = await fx.connect();
      assert.deepEqual(await client.listRuns(), []);
    } finally {
      await fx.cleanup();
    }
  });
});

describe('reference daemon: bind rules (WIRE.md §1.1)', () => {
  it('creates the parent directory 0700 and the socket 0600, unlinks on stop', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'sub', 'd.sock');
    const daemon = new ReferenceAgencyProxy({ socketPath });
    try {
      await daemon.start();
      assert.equal(fs.statSync(path.dirname(socketPath)).mode & 0o777, 0o700);
      assert.equal(fs.statSync(socketPath).mode & 0o777, 0o600);
      assert.ok(fs.statSync(socketPath).isSocket());
      await daemon.stop();
      assert.equal(fs.existsSync(socketPath), false);
    } finally {
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('refuses a non-socket path and an already running daemon; replaces a stale socket', async () => {
    const dir = tempDir();
    try {
      const file = path.join(dir, 'file.sock');
      fs.writeFileSync(file, 'not a socket');
      await assert.rejects(new ReferenceAgencyProxy({ socketPath: file }).start(), /not a socket/);
      assert.equal(fs.readFileSync(file, 'utf8'), 'not a socket');

      const socketPath = path.join(dir, 'd.sock');
      const first = new ReferenceAgencyProxy({ socketPath });
      await first.start();
      await assert.rejects(new ReferenceAgencyProxy({ socketPath }).start(), /already running/);
      await first.stop();

      // A stale socket: bound once, then the listener went away without unlinking.
      const stalePath = path.join(dir, 's.sock');
      const stale = net.createServer();
      await new Promise<void>((resolve) => stale.listen(stalePath, resolve));
      // Node unlinks a socket when its server closes, so keep the file aside to simulate a crashed daemon.
      fs.renameSync(stalePath, `${stalePath}.keep`);
      await new Promise((resolve) => stale.close(resolve));
      fs.renameSync(`${stalePath}.keep`, stalePath); // the socket file survives its listener
      assert.ok(fs.lstatSync(stalePath).isSocket());
      const fresh = new ReferenceAgencyProxy({ socketPath: stalePath });
      await fresh.start();
      const client = await AgencyProxyClient.connect({ socketPath: stalePath });
      client.close();
      await fresh.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('a restart forgets every run, with or without a record dir (runs live in memory only)', async () => {
    const dir = tempDir();
    const fx = await startDaemon({ recordDir: dir });
    try {
      const client = await fx.connect();
      await client.startRun('forget-me', request(fx.workspace));
      await fx.daemon.stop();
      const again = new ReferenceAgencyProxy({ socketPath: fx.socketPath, recordDir: dir });
      await again.start();
      const next = await AgencyProxyClient.connect({ socketPath: fx.socketPath });
      assert.deepEqual(await next.listRuns(), []);
      next.close();
      await again.stop();
    } finally {
      await fx.cleanup();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});

describe('reference daemon: replay and acknowledgement (WIRE.md §1.9)', () => {
  it('replays after after_sequence, prunes on ack (clamped, global), never evicts runs', async () => {
    const fx = await startDaemon();
    try {
      const a = await fx.connect();
      const all = collectUntil(a, 'rp', isTerminalEvent);
      await a.startRun('rp', request(fx.workspace));
      assert.equal((await a.attachRun('rp', 0)).runId, 'rp');
      const events = await all;
      const n = events.length;
      assertContiguous(events, 1);
      assert.ok(n > 12);

      const b = await fx.connect();
      const tail = collectUntil(b, 'rp', isTerminalEvent);
      const snap = await b.attachRun('rp', 5);
      assert.equal(snap.latestSequence, n);
      const replayed = await tail;
      assertContiguous(replayed, 6);
      assert.deepEqual(replayed.map((e) => e.event), events.slice(5).map((e) => e.event));

      await a.ackEvents('rp', 10);
      await a.ackEvents('rp', 3); // never moves backwards
      const c = await fx.connect();
      const afterAck = collectUntil(c, 'rp', isTerminalEvent);
      const snapC = await c.attachRun('rp', 0);
      assert.equal(snapC.acknowledgedSequence, 10, 'the ack belongs to the run, not the connection');
      assertContiguous(await afterAck, 11);

      await b.ackEvents('rp', Number.MAX_SAFE_INTEGER);
      const d = await fx.connect();
      const seen: number[] = [];
      d.onEvent((e) => seen.push(e.sequence));
      const snapD = await d.attachRun('rp', 0);
      assert.equal(snapD.acknowledgedSequence, n, 'clamped to latestSequence');
      await d.listRuns(); // a round trip: any replayed event would have arrived before this answer
      assert.deepEqual(seen, []);
      assert.deepEqual((await d.listRuns()).map((r) => r.runId), ['rp']);
    } finally {
      await fx.cleanup();
    }
  });

  it('a second attach replaces the first; detach stops forwarding', async () => {
    const fx = await startDaemon();
    try {
      const client = await fx.connect();
      const seen: number[] = [];
      client.onEvent((e) => seen.push(e.sequence));
      const done = collectUntil(client, 'ra', isTerminalEvent, 8000);
      await client.startRun('ra', request(fx.workspace, 'long:60 notools'));
      await client.attachRun('ra', 0);
      await client.attachRun('ra', Number.MAX_SAFE_INTEGER);
      await done;
      const live = seen.filter((s, i) => seen.indexOf(s) !== i);
      // Re-attaching with a high after_sequence replays nothing, and live events are not doubled.
      assert.deepEqual(live, []);

      const other = await fx.connect();
      const got: number[] = [];
      other.onEvent((e) => got.push(e.sequence));
      await other.startRun('rd', request(fx.workspace, 'long:200 slow notools'));
      await other.attachRun('rd', 0);
      await other.detachRun('rd');
      const atDetach = got.length;
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.equal(got.length, atDetach);
      await other.cancelRun('rd');
    } finally {
      await fx.cleanup();
    }
  });
});
