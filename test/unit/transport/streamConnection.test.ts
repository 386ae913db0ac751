/** `StreamConnection` against a raw Unix socket server: the tap, close exactly once, framing errors, deadlines. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { FrameDirection } from '../../../extension/transport/frameTap';
import type { FramingError } from '../../../extension/transport/framing';
import { encodeCloseFrame } from '../../../extension/transport/lengthPrefixed';
import { lengthPrefixedFraming } from '../../../extension/transport/lengthPrefixedFraming';
import { ndjsonFraming } from '../../../extension/transport/ndjsonFraming';
import { SocketConnectError } from '../../../extension/transport/socketConnection';
import { StreamConnection } from '../../../extension/transport/streamConnection';
import type { StreamCloseInfo } from '../../../extension/transport/streamConnection';

interface Peer {
  readonly socket: net.Socket;
  received(): Buffer;
}

interface Recorded {
  readonly connection: StreamConnection;
  readonly peer: Peer;
  readonly tapped: { dir: FrameDirection; frame: unknown }[];
  readonly frames: unknown[];
  readonly errors: FramingError[];
  readonly closes: StreamCloseInfo[];
}

const until = async (what: string, check: () => boolean, timeoutMs = 3_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('StreamConnection', () => {
  let dir: string;
  let socketPath: string;
  let server: net.Server;
  let peers: Peer[];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-'));
    socketPath = path.join(dir, 's.sock');
    peers = [];
    server = net.createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined);
      peers.push({ socket, received: () => Buffer.concat(chunks) });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });

  afterEach(async () => {
    for (const peer of peers) {
      peer.socket.destroy();
    }
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  });

  async function open(framing = ndjsonFraming({ maxFrameBytes: 1024 }), tapThrows = false): Promise<Recorded> {
    const tapped: Recorded['tapped'] = [];
    const known = peers.length;
    const connection = await StreamConnection.connect(socketPath, {
      framing,
      tap: (dir, frame) => {
        tapped.push({ dir, frame });
        if (tapThrows) {
          throw new Error('a broken trace');
        }
      },
    });
    const frames: unknown[] = [];
    const errors: FramingError[] = [];
    const closes: StreamCloseInfo[] = [];
    connection.onFrame((value) => frames.push(value));
    connection.onFramingError((error) => errors.push(error));
    connection.onClose((info) => closes.push(info));
    await until('the server side', () => peers.length > known);
    return { connection, peer: peers.at(-1)!, tapped, frames, errors, closes };
  }

  it('taps every value sent (out) and received (in) exactly, in order', async () => {
    const rec = await open();
    const sent = { type: 'turn.start', prompt: 'héllo', n: [1, 2] };
    assert.deepEqual(await rec.connection.write(rec.connection.encode(sent)), { kind: 'written' });
    rec.peer.socket.write('{"type":"a","seq":1}\n{"type":"b","seq":2}\n');
    await until('two frames', () => rec.frames.length === 2);
    assert.deepEqual(rec.tapped, [
      { dir: 'out', frame: sent },
      { dir: 'in', frame: { type: 'a', seq: 1 } },
      { dir: 'in', frame: { type: 'b', seq: 2 } },
    ]);
    assert.deepEqual(rec.frames, [{ type: 'a', seq: 1 }, { type: 'b', seq: 2 }]);
    await until('the peer got the line', () => rec.peer.received().toString() === `${JSON.stringify(sent)}\n`);
    rec.connection.destroy();
  });

  it('a throwing tap changes nothing', async () => {
    const rec = await open(undefined, true);
    assert.deepEqual(await rec.connection.write(rec.connection.encode({ a: 1 })), { kind: 'written' });
    rec.peer.socket.write('{"b":2}\n');
    await until('the frame', () => rec.frames.length === 1);
    assert.equal(rec.tapped.length, 2);
    assert.ok(rec.connection.isOpen);
    rec.connection.destroy();
  });

  it('closes exactly once, whoever closes and however often', async () => {
    const rec = await open();
    rec.connection.end();
    rec.connection.end();
    rec.connection.destroy();
    await until('the peer sees EOF', () => rec.peer.socket.readableEnded);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(rec.closes, [{ cause: 'local' }]);
    assert.equal(rec.connection.isOpen, false);
    assert.deepEqual(await rec.connection.write(rec.connection.encode({ late: 1 })), { kind: 'closed' });
    assert.equal(rec.tapped.length, 0, 'nothing is tapped after the close');

    const eof = await open();
    eof.peer.socket.end();
    await until('the close', () => eof.closes.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    eof.connection.destroy();
    assert.deepEqual(eof.closes, [{ cause: 'eof' }]);
  });

  it('a graceful end sends the framing\'s Close frame after what was written', async () => {
    const rec = await open(lengthPrefixedFraming());
    void rec.connection.write(rec.connection.encode({ type: 'hello' }));
    rec.connection.end();
    await until('the peer sees EOF', () => rec.peer.socket.readableEnded);
    const expected = Buffer.concat([Buffer.from(lengthPrefixedFraming().encode({ type: 'hello' })), encodeCloseFrame()]);
    assert.deepEqual(rec.peer.received(), expected);
  });

  it('a fatal framing error is reported, closes the connection and nothing after it is delivered', async () => {
    const rec = await open(lengthPrefixedFraming());
    const good = Buffer.from(lengthPrefixedFraming().encode({ ok: 1 }));
    rec.peer.socket.write(Buffer.concat([good, Buffer.from([0x00, 0x20, 0x00, 0x00, 0x00]), good]));
    await until('the close', () => rec.closes.length > 0);
    assert.deepEqual(rec.frames, [{ ok: 1 }]);
    assert.deepEqual(rec.errors.map((e) => [e.code, e.fatal]), [['bad_length', true]]);
    assert.equal(rec.closes[0]?.cause, 'framing_error');
    assert.equal(rec.closes[0]?.framingError?.code, 'bad_length');
    await until('the peer sees the close', () => rec.peer.socket.readableEnded || rec.peer.socket.destroyed);
    assert.equal(rec.closes.length, 1);
  });

  it('a non-fatal framing error keeps the connection reading', async () => {
    const rec = await open(ndjsonFraming({ maxFrameBytes: 16 }));
    rec.peer.socket.write(`not json\n{"x":"${'y'.repeat(40)}"}\n{"ok":1}\n`);
    await until('the frame', () => rec.frames.length === 1);
    assert.deepEqual(rec.errors.map((e) => e.code), ['invalid_json', 'too_large']);
    assert.deepEqual(rec.frames, [{ ok: 1 }]);
    assert.ok(rec.connection.isOpen);
    rec.connection.destroy();
  });

  it('the peer\'s Close frame ends the connection with its code and reason', async () => {
    const rec = await open(lengthPrefixedFraming());
    rec.peer.socket.write(Buffer.concat([encodeCloseFrame(4000, 'going away'), Buffer.from(lengthPrefixedFraming().encode({ after: 1 }))]));
    await until('the close', () => rec.closes.length > 0);
    assert.deepEqual(rec.closes, [{ cause: 'close_frame', closeCode: 4000, closeReason: 'going away' }]);
    assert.deepEqual(rec.frames, []);
    await until('our side is finished', () => rec.peer.socket.readableEnded);
  });

  it('EOF inside a frame: a truncated error, then close (eof) naming it', async () => {
    const rec = await open();
    rec.peer.socket.end('{"type":"cut');
    await until('the close', () => rec.closes.length > 0);
    assert.deepEqual(rec.errors.map((e) => [e.code, e.bytes]), [['truncated', 12]]);
    assert.equal(rec.closes[0]?.cause, 'eof');
    assert.equal(rec.closes[0]?.framingError?.code, 'truncated');
  });

  it('a write the peer does not read times out instead of hanging, and is reported once', async () => {
    const rec = await open(ndjsonFraming({ maxFrameBytes: 1024 }));
    rec.peer.socket.pause();
    const started = Date.now();
    const outcome = await rec.connection.write(rec.connection.encode({ blob: 'z'.repeat(4 * 1024 * 1024) }), 150);
    assert.deepEqual(outcome, { kind: 'timeout' });
    assert.ok(Date.now() - started < 2_000);
    assert.ok(rec.connection.isOpen, 'the caller decides whether to drop the connection');
    rec.connection.destroy();
    assert.deepEqual(rec.closes, [{ cause: 'local' }]);
  });

  it('the frame limit can change while connected', async () => {
    const rec = await open(ndjsonFraming({ maxFrameBytes: 8 }));
    rec.connection.setMaxFrameBytes(64);
    assert.equal(rec.connection.maxFrameBytes, 64);
    rec.peer.socket.write('{"text":"longer than eight"}\n');
    await until('the frame', () => rec.frames.length === 1);
    assert.deepEqual(rec.errors, []);
    rec.connection.destroy();
  });

  it('connecting to nothing rejects with the Node error code and cause', async () => {
    await assert.rejects(
      StreamConnection.connect(path.join(dir, 'none.sock'), { framing: ndjsonFraming({ maxFrameBytes: 8 }) }),
      (e: unknown) => e instanceof SocketConnectError && e.code === 'ENOENT' && e.cause instanceof Error && /ENOENT/.test(e.cause.message),
    );
  });
});
