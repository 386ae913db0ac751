/**
 * The reference daemon's write timing modes (daemonConnection.ts): `sameWrite` puts a response and the events it
 * causes into one socket write, `eventsBeforeResponse` puts those events first. Checked on the raw byte stream:
 * each `data` chunk a client reads is decoded on its own, so "one write" is visible as "one chunk".
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { LengthPrefixedDecoder, encodeJsonFrame } from '../../../extension/transport/lengthPrefixed';
import type { ReferenceAgencyProxyOptions } from '../../fixtures/agencyProxy/daemon';
import { killHard, spawnAgencyProxy } from '../chaos/agencyProxyProcess';
import { until } from '../drivers/driverTestKit';
import { startDaemon, tempDir } from './testSupport';

interface Frame {
  readonly kind?: string;
  readonly request_id?: number;
  readonly type?: string;
  readonly event?: { readonly type: string };
}

/** A raw client that keeps the frames of every chunk it read together. */
class ChunkPeer {
  readonly chunks: Frame[][] = [];
  private readonly decoder = new LengthPrefixedDecoder();
  private waiters: (() => void)[] = [];

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(this.decoder.push(chunk).flatMap((r) => (r.type === 'message' ? [r.value as Frame] : [])));
      this.waiters.splice(0).forEach((w) => w());
    });
    socket.on('error', () => undefined);
  }

  static connect(socketPath: string): Promise<ChunkPeer> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path: socketPath });
      socket.once('connect', () => resolve(new ChunkPeer(socket)));
      socket.once('error', reject);
    });
  }

  send(frame: Record<string, unknown>): void {
    this.socket.write(encodeJsonFrame(frame));
  }

  /** Waits (for a state, not a time) until some chunk holds a frame matching `match`; returns that chunk. */
  async chunkWith(match: (frame: Frame) => boolean, what: string): Promise<Frame[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const chunk = this.chunks.find((c) => c.some(match));
      if (chunk) {
        return chunk;
      }
      if (Date.now() > deadline) {
        throw new Error(`never received ${what}; chunks: ${JSON.stringify(this.chunks.map((c) => c.map(label)))}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const label = (f: Frame): string => (f.kind === 'event' ? f.event!.type : `response:${f.type}#${f.request_id}`);
const isEvent = (type: string) => (f: Frame): boolean => f.kind === 'event' && f.event?.type === type;
const isResponse = (id: number) => (f: Frame): boolean => f.kind === 'response' && f.request_id === id;

/** Runs a one-shot run with an approval up to the approval, decides it, returns the chunk holding the answer. */
async function decideAndRead(options: Partial<ReferenceAgencyProxyOptions>, prompt = 'edit it'): Promise<string[]> {
  const fx = await startDaemon({ chunkDelayMs: undefined, ...options });
  try {
    return await decideOn(fx.socketPath, fx.workspace, prompt);
  } finally {
    await fx.cleanup();
  }
}

async function decideOn(socketPath: string, workspace: string, prompt: string): Promise<string[]> {
  const peer = await ChunkPeer.connect(socketPath);
  try {
    peer.send({ requestId: 1, type: 'hello', client_name: 'chunks', version: { major: 0, minor: 3 } });
    await peer.chunkWith(isResponse(1), 'the hello answer');
    peer.send({
      requestId: 2, type: 'start_run', run_id: 'r', idempotency_key: 'r:start',
      request: {
        provider: 'claude', model: '', prompt, isCommand: false, system: null, permission: 'edit', effort: null,
        extraThinking: null, approvals: true, interactive: false, workspaceRoots: [workspace], resumeSessionId: null,
        binary: null, environment: {}, uncheckedArgs: [], metadata: {},
      },
    });
    await peer.chunkWith(isResponse(2), 'the start_run answer');
    peer.send({ requestId: 3, type: 'attach_run', run_id: 'r', after_sequence: 0 });
    await peer.chunkWith(isEvent('approval_requested'), 'the approval request');
    peer.send({ requestId: 4, type: 'decide_approval', run_id: 'r', approval_id: 'ap-1', decision: 'allow_once', idempotency_key: 'r:approval:ap-1' });
    return (await peer.chunkWith(isResponse(4), 'the decide_approval answer')).map(label);
  } finally {
    peer.destroy();
  }
}

const FOLLOW_UPS = ['tool_call', 'tool_result', 'text', 'usage', 'message_boundary', 'finished'];

describe('reference daemon write timing', () => {
  it('default timing (the control): the follow-up events come in later writes, after the chunk delays', async () => {
    const chunk = await decideAndRead({}, 'edit it slow');
    assert.equal(chunk[0], 'response:accepted#4');
    assert.equal(chunk.includes('finished'), false, chunk.join(' '));
  });

  it('sameWrite: accepted and the rest of the run (through finished) arrive in one write, response first', async () => {
    const chunk = await decideAndRead({ sameWrite: true });
    assert.equal(chunk[0], 'response:accepted#4', chunk.join(' '));
    for (const type of FOLLOW_UPS) {
      assert.ok(chunk.includes(type), `${type} is in the same write: ${chunk.join(' ')}`);
    }
    assert.equal(chunk.at(-1), 'finished');
  });

  it('eventsBeforeResponse: the same write, with every follow-up event before the accepted answer', async () => {
    const chunk = await decideAndRead({ eventsBeforeResponse: true });
    for (const type of FOLLOW_UPS) {
      assert.ok(chunk.includes(type), `${type} is in the same write: ${chunk.join(' ')}`);
    }
    assert.equal(chunk.at(-1), 'response:accepted#4', chunk.join(' '));
    assert.equal(chunk.at(-2), 'finished');
  });

  it('the CLI flags --same-write and --events-first select the same modes in a daemon process', async () => {
    for (const [flag, first] of [['--same-write', true], ['--events-first', false]] as const) {
      const dir = tempDir();
      const workspace = path.join(dir, 'ws');
      fs.mkdirSync(workspace);
      const socketPath = path.join(dir, 'd.sock');
      const daemon = await spawnAgencyProxy(['--socket', socketPath, '--workspace', workspace, flag]);
      try {
        await daemon.listening;
        const chunk = await decideOn(socketPath, workspace, 'edit it');
        assert.ok(chunk.includes('finished'), `${flag}: ${chunk.join(' ')}`);
        assert.equal(chunk.indexOf('response:accepted#4') === 0, first, `${flag}: ${chunk.join(' ')}`);
      } finally {
        await killHard(daemon);
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
      }
    }
  });

  it('eventsBeforeResponse keeps the attach snapshot before its replay (WIRE.md §1.9)', async () => {
    const fx = await startDaemon({ eventsBeforeResponse: true });
    try {
      const client = await fx.connect();
      await client.startRun('snap', {
        provider: 'claude', prompt: 'notools', permission: 'edit', approvals: false, interactive: false, workspaceRoots: [fx.workspace],
      });
      await until('the run completed', () => fx.daemon.snapshots()[0]?.state === 'completed');
      const raw = await ChunkPeer.connect(fx.socketPath);
      try {
        raw.send({ requestId: 1, type: 'hello', client_name: 'chunks', version: { major: 0, minor: 3 } });
        await raw.chunkWith(isResponse(1), 'hello');
        raw.send({ requestId: 2, type: 'attach_run', run_id: 'snap', after_sequence: 0 });
        const chunk = (await raw.chunkWith(isResponse(2), 'the attach answer')).map(label);
        assert.equal(chunk[0], 'response:run#2', chunk.join(' '));
        assert.ok(chunk.length > 5, 'the replay came in the same write');
      } finally {
        raw.destroy();
      }
    } finally {
      await fx.cleanup();
    }
  });
});
