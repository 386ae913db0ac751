/**
 * The AgencyProxy client under a flood (issue #25 §3): a zero-latency daemon writes 50,000 event frames and then a
 * response in one write. Every event reaches `onEvent` once and in order, the response resolves after all of them,
 * and no task of the main thread delivers more than one turn's budget of frames (transport/readPacing.ts): the
 * event loop gets its turns while the flood is read (before, a socket read of 64 KiB was one task; libuv hands
 * several reads over in one go).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import { encodeJsonFrame } from '../../../../extension/transport/lengthPrefixed';
import { fakeServer, helloReply, tempDir } from './agencyProxyKit';

const FRAMES = 50_000;
/** readPacing.ts's default frames per turn. */
const FRAMES_PER_TURN = 1024;

describe('AgencyProxy client: a flood of events in one write', () => {
  let dir: string;
  let server: net.Server;
  let client: AgencyProxyClient;

  before(async () => {
    dir = tempDir();
    const socketPath = path.join(dir, 'd.sock');
    server = await fakeServer(socketPath, (message, send, socket) => {
      if (message.type === 'hello') {
        send(helloReply(message['requestId']));
      } else if (message.type === 'list_runs') {
        const frames = Array.from({ length: FRAMES }, (_, i) =>
          encodeJsonFrame({ kind: 'event', run_id: 'r1', sequence: i + 1, event: { type: 'text', payload: `w${i} ` } }));
        frames.push(encodeJsonFrame({ kind: 'response', request_id: message['requestId'], type: 'runs', runs: [] }));
        socket.write(Buffer.concat(frames));
      }
    });
    client = await AgencyProxyClient.connect({ socketPath, requestTimeoutMs: 60_000 });
  });

  after(async () => {
    client.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  });

  it('delivers every event in order before the response, a turn at a time', async () => {
    const sequences: number[] = [];
    let inTask = false;
    let framesThisTask = 0;
    let mostInOneTask = 0;
    let readEnds = 0;
    let immediates = 0;
    let counting = true;
    const tick = (): void => {
      if (counting) {
        immediates += 1;
        setImmediate(tick);
      }
    };
    setImmediate(tick);
    client.onEvent((frame) => {
      if (!inTask) {
        inTask = true;
        framesThisTask = 0;
        queueMicrotask(() => (inTask = false));
      }
      framesThisTask += 1;
      mostInOneTask = Math.max(mostInOneTask, framesThisTask);
      sequences.push(frame.sequence);
    });
    client.onReadEnd(() => (readEnds += 1));
    const startTurns = immediates;
    const runs = await client.listRuns();
    counting = false;
    assert.deepEqual(runs, []);
    assert.equal(sequences.length, FRAMES, 'every event arrived before the response resolved');
    assert.ok(sequences.every((s, i) => s === i + 1), 'in order, once each');
    assert.ok(mostInOneTask <= FRAMES_PER_TURN, `at most ${FRAMES_PER_TURN} frames in one task (was ${mostInOneTask})`);
    assert.ok(immediates - startTurns >= FRAMES / FRAMES_PER_TURN - 1, `the loop turned ${immediates - startTurns} times meanwhile`);
    assert.ok(readEnds >= FRAMES / FRAMES_PER_TURN, `each turn ends a read (${readEnds})`);
  });
});
