/**
 * Ping/Pong from the daemon (WIRE.md §1.2): the daemon may send them, the client ignores them (the connection stays
 * open, requests and events go on), and the client never sends a Ping or a Pong itself, since the daemon closes a
 * connection on any non-Text frame.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import type { EventFrame } from '../../../../extension/protocol/agencyProxy';
import { FrameKind, LengthPrefixedDecoder, encodeFrame, encodeJsonFrame } from '../../../../extension/transport/lengthPrefixed';
import { helloReply, tempDir } from './agencyProxyKit';

/** Every frame kind the client sent, read from the raw bytes (so a Ping or Pong cannot hide in a decoder). */
function kindsIn(bytes: Buffer): number[] {
  const kinds: number[] = [];
  for (let offset = 0; offset + 5 <= bytes.length; offset += 4 + bytes.readUInt32BE(offset)) {
    kinds.push(bytes[offset + 4]!);
  }
  return kinds;
}

describe('AgencyProxyClient and daemon Ping/Pong', () => {
  it('ignores Ping and Pong around and inside answers; never sends either; stays open', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'p.sock');
    let received = Buffer.alloc(0);
    const ping = encodeFrame(FrameKind.ping, Buffer.from('keepalive'));
    const pong = encodeFrame(FrameKind.pong);
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      const decoder = new LengthPrefixedDecoder(); // strict, as the daemon: a Ping from the client would end it
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        for (const result of decoder.push(chunk)) {
          if (result.type !== 'message') {
            continue; // kindsIn() reports what the client sent
          }
          const frame = result.value as Record<string, unknown>;
          const id = frame['requestId'];
          if (frame['type'] === 'hello') {
            // A Ping before the hello answer, and a Pong split across two writes after it.
            socket.write(Buffer.concat([ping, encodeJsonFrame(helloReply(id)), pong.subarray(0, 3)]));
            setImmediate(() => socket.write(pong.subarray(3)));
          } else if (frame['type'] === 'attach_run') {
            const run = { runId: 'r', state: 'running', provider: 'claude', model: '', providerSessionId: null, latestSequence: 1, acknowledgedSequence: 0, workspaceRoots: [] };
            socket.write(Buffer.concat([encodeJsonFrame({ kind: 'response', request_id: id, type: 'run', run }), ping,
              encodeJsonFrame({ kind: 'event', run_id: 'r', sequence: 1, event: { type: 'text', payload: 'after a ping' } }), pong]));
          } else {
            socket.write(Buffer.concat([ping, ping, encodeJsonFrame({ kind: 'response', request_id: id, type: 'runs', runs: [] })]));
          }
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const client = await AgencyProxyClient.connect({ socketPath, requestTimeoutMs: 3000 });
      const events: EventFrame[] = [];
      const gotEvent = new Promise<void>((resolve) => client.onEvent((e) => {
        events.push(e);
        resolve();
      }));
      assert.deepEqual(await client.listRuns(), []);
      assert.equal((await client.attachRun('r', 0)).runId, 'r');
      await gotEvent;
      assert.deepEqual(events.map((e) => e.event), [{ type: 'text', payload: 'after a ping' }]);
      assert.deepEqual(await client.listRuns(), [], 'still answering after five Pings and two Pongs');
      assert.ok(client.isOpen);
      client.close();
      await new Promise<void>((resolve) => setImmediate(resolve));
      const kinds = kindsIn(received);
      assert.equal(kinds.includes(FrameKind.ping) || kinds.includes(FrameKind.pong), false, `client sent kinds ${kinds.join(',')}`);
      assert.ok(kinds.filter((k) => k === FrameKind.text).length >= 4);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});
