import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import type { AgencyProxyCloseInfo, AgencyProxyWarning } from '../../../../extension/drivers/agencyProxy/client';
import { AgencyProxyError } from '../../../../extension/drivers/agencyProxy/agencyProxyError';
import { encodeCloseFrame } from '../../../../extension/transport/lengthPrefixed';
import { delay, fakeServer, helloReply, startDaemon, tempDir } from './agencyProxyKit';

async function connectError(promise: Promise<unknown>): Promise<AgencyProxyError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AgencyProxyError, String(error));
    return error;
  }
  throw new assert.AssertionError({ message: 'expected the connect to fail' });
}

describe('AgencyProxyClient handshake and failure paths', () => {
  it('a daemon with another major rejects hello: clear, actionable error', async () => {
    const fx = await startDaemon({ major: 1 });
    try {
      const error = await connectError(AgencyProxyClient.connect({ socketPath: fx.socketPath }));
      assert.equal(error.code, 'incompatible_version');
      assert.match(error.message, /supports AgencyProxy 0\.x/);
      assert.match(error.message, /rejected 0\.3/);
    } finally {
      await fx.cleanup();
    }
  });

  it('a hello reply with another major is refused by the client', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'f.sock');
    const server = await fakeServer(socketPath, (msg, send) => send(helloReply(msg['requestId'], 1, 2)));
    try {
      const error = await connectError(AgencyProxyClient.connect({ socketPath }));
      assert.equal(error.code, 'incompatible_version');
      assert.match(error.message, /speaks 1\.x; Agent Switchboard supports 0\.x/);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('a daemon that closes during hello gives a handshake error', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'f.sock');
    const server = await fakeServer(socketPath, (_msg, _send, socket) => socket.destroy());
    try {
      const error = await connectError(AgencyProxyClient.connect({ socketPath }));
      assert.equal(error.code, 'handshake_failed');
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('requests time out with a clear error; the late response is dropped', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'f.sock');
    let late: (() => void) | undefined;
    const server = await fakeServer(socketPath, (msg, send) => {
      if (msg['type'] === 'hello') {
        send(helloReply(msg['requestId']));
      } else {
        late = () => send({ kind: 'response', request_id: msg['requestId'], type: 'runs', runs: [] });
      }
    });
    try {
      const client = await AgencyProxyClient.connect({ socketPath, requestTimeoutMs: 150 });
      const warnings: AgencyProxyWarning[] = [];
      client.onWarning((w) => warnings.push(w));
      const started = Date.now();
      const error = await connectError(client.listRuns());
      assert.equal(error.code, 'timeout');
      assert.match(error.message, /did not answer list_runs \(request 2\) within 150 ms/);
      assert.ok(Date.now() - started >= 140);
      late!();
      await delay(50);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!.message, /request 2/);
      assert.ok(client.isOpen);
      client.close();
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('request ids wrap to 1, never 0, never above 2^53 − 1', async () => {
    const fx = await startDaemon();
    try {
      const ids: number[] = [];
      const client = await fx.connect({
        firstRequestId: Number.MAX_SAFE_INTEGER - 1,
        frameTap: (dir, frame) => dir === 'out' && ids.push((frame as { requestId: number }).requestId),
      });
      await client.listRuns();
      await client.listRuns();
      assert.deepEqual(ids, [Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, 1]);
    } finally {
      await fx.cleanup();
    }
  });

  it('a bad frame from the daemon closes the connection with a reason and fails pending requests', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'f.sock');
    const server = await fakeServer(socketPath, (msg, send, socket) => {
      if (msg['type'] === 'hello') {
        send(helloReply(msg['requestId']));
      } else {
        socket.write(Buffer.from([0x00, 0x20, 0x00, 0x00, 0x00])); // length 2 MiB
      }
    });
    try {
      const client = await AgencyProxyClient.connect({ socketPath });
      const closed = new Promise<AgencyProxyCloseInfo>((resolve) => client.onClose(resolve));
      const error = await connectError(client.listRuns());
      assert.equal(error.code, 'connection_closed');
      const info = await closed;
      assert.match(info.reason, /bad frame: frame length 2097152 exceeds/);
      assert.equal(info.error?.code, 'bad_length');
      assert.equal(client.isOpen, false);
      assert.equal((await connectError(client.listRuns())).code, 'connection_closed');
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('a Close frame and a plain EOF end the connection with a reason', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'f.sock');
    const server = await fakeServer(socketPath, (msg, send, socket) => {
      if (msg['type'] === 'hello') {
        send(helloReply(msg['requestId']));
      } else if (msg['type'] === 'list_runs') {
        socket.write(encodeCloseFrame(1000, 'bye'));
      } else {
        socket.end();
      }
    });
    try {
      const a = await AgencyProxyClient.connect({ socketPath });
      const closedA = new Promise<AgencyProxyCloseInfo>((resolve) => a.onClose(resolve));
      await connectError(a.listRuns());
      assert.match((await closedA).reason, /Close \(code 1000: bye\)/);
      const b = await AgencyProxyClient.connect({ socketPath });
      const closedB = new Promise<AgencyProxyCloseInfo>((resolve) => b.onClose(resolve));
      await connectError(b.probeProviders());
      const info = await closedB;
      assert.match(info.reason, /daemon closed the connection/);
      assert.equal(info.byClient, false);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });

  it('negotiated minor < 3: shutdown is emulated (cancel, then shutdown_if_idle polling), never sent', async () => {
    const fx = await startDaemon({ minor: 2 });
    try {
      const types: string[] = [];
      const client = await fx.connect({
        shutdownPollMs: 20,
        frameTap: (dir, frame) => dir === 'out' && types.push((frame as { type: string }).type),
      });
      assert.deepEqual(client.version, { major: 0, minor: 2 });
      await client.startRun('r-old', {
        provider: 'claude', prompt: 'long:400 slow', permission: 'edit', approvals: false, interactive: false,
        workspaceRoots: [fx.workspace],
      });
      const result = await client.shutdown('terminate');
      assert.deepEqual(result, { emulated: true });
      await fx.daemon.exited;
      assert.equal(types.includes('shutdown'), false);
      assert.ok(types.includes('cancel_run'));
      assert.equal(types.at(-1), 'shutdown_if_idle');
      assert.equal(fx.daemon.snapshots()[0]!.state, 'canceled');
    } finally {
      await fx.cleanup();
    }
  });

  it('emulated shutdown gives up after its bound with a timeout error', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'f.sock');
    const server = await fakeServer(socketPath, (msg, send) => {
      if (msg['type'] === 'hello') {
        send(helloReply(msg['requestId'], 0, 2));
      } else if (msg['type'] === 'list_runs') {
        send({ kind: 'response', request_id: msg['requestId'], type: 'runs', runs: [] });
      } else {
        send({ kind: 'response', request_id: msg['requestId'], type: 'error', code: 'conflict', message: 'AgencyProxy has 1 active run(s)' });
      }
    });
    try {
      const client = await AgencyProxyClient.connect({ socketPath, shutdownPollMs: 20, shutdownEmulationTimeoutMs: 150 });
      const error = await connectError(client.shutdown('drain'));
      assert.equal(error.code, 'timeout');
      assert.match(error.message, /active run/);
      client.close();
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});
