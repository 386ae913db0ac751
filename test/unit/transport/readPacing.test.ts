/**
 * Paced reads (transport/readPacing.ts, issue #25 §3): a peer that writes tens of thousands of frames at once gets
 * them all delivered, in order, while the event loop keeps getting turns in between, the socket waits (instead of
 * the reader buffering everything), and an EOF right after the flood closes only after the last frame.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Framing } from '../../../extension/transport/framing';
import { encodeJsonFrame } from '../../../extension/transport/lengthPrefixed';
import { lengthPrefixedFraming } from '../../../extension/transport/lengthPrefixedFraming';
import { ndjsonFraming } from '../../../extension/transport/ndjsonFraming';
import type { ReadPacing } from '../../../extension/transport/readPacing';
import { ReadTurn } from '../../../extension/transport/readPacing';
import { StreamConnection } from '../../../extension/transport/streamConnection';
import type { StreamCloseInfo } from '../../../extension/transport/streamConnection';

const FRAMES = 50_000;

/** Counts turns of the event loop: a chain of immediates, one per turn, for as long as it runs. */
class LoopTurns {
  count = 0;
  private running = true;

  constructor() {
    const tick = (): void => {
      if (this.running) {
        this.count += 1;
        setImmediate(tick);
      }
    };
    setImmediate(tick);
  }

  stop(): void {
    this.running = false;
  }
}

interface Flood {
  readonly values: number[];
  /** The most frames delivered in one task (one synchronous stretch of the main thread). */
  readonly mostFramesInOneTurn: number;
  readonly turnsWhileDelivering: number;
  readonly readEnds: number;
  /** The most bytes the connection held undelivered at any frame. */
  readonly mostBuffered: number;
  readonly closes: StreamCloseInfo[];
}

describe('paced reads (StreamConnection)', () => {
  let dir: string;
  let socketPath: string;
  let server: net.Server;
  let peer: Promise<net.Socket>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-'));
    socketPath = path.join(dir, 's.sock');
    let accepted!: (socket: net.Socket) => void;
    peer = new Promise((resolve) => (accepted = resolve));
    server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      accepted(socket);
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });

  afterEach(async () => {
    (await peer).destroy();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
  });

  /** Connects, has the peer write `bytes` in one write (then EOF when `end`), and records what is delivered. */
  async function flood(framing: Framing, bytes: Buffer, options: { readonly pacing?: ReadPacing; readonly end?: boolean; readonly workPerFrame?: () => void } = {}): Promise<Flood> {
    const connection = await StreamConnection.connect(socketPath, { framing, ...(options.pacing ? { pacing: options.pacing } : {}) });
    const socket = await peer;
    const values: number[] = [];
    const closes: StreamCloseInfo[] = [];
    let readEnds = 0;
    let mostBuffered = 0;
    let mostFramesInOneTurn = 0;
    let framesThisTurn = 0;
    let inTask = false;
    let firstTurn = -1;
    const turns = new LoopTurns();
    const done = new Promise<void>((resolve) => {
      connection.onFrame((value) => {
        firstTurn = firstTurn < 0 ? turns.count : firstTurn;
        if (!inTask) {
          // The first frame of a task: microtasks run once the task is through, so this marks its end.
          inTask = true;
          framesThisTurn = 0;
          queueMicrotask(() => (inTask = false));
        }
        framesThisTurn += 1;
        mostFramesInOneTurn = Math.max(mostFramesInOneTurn, framesThisTurn);
        mostBuffered = Math.max(mostBuffered, connection.bufferedBytes);
        values.push(value as number);
        options.workPerFrame?.();
        if (values.length === FRAMES && options.end !== true) {
          resolve();
        }
      });
      connection.onReadEnd(() => (readEnds += 1));
      connection.onClose((info) => {
        closes.push(info);
        resolve();
      });
    });
    socket.write(bytes);
    if (options.end === true) {
      socket.end();
    }
    await done;
    turns.stop();
    connection.destroy();
    return { values, mostFramesInOneTurn, turnsWhileDelivering: turns.count - firstTurn, readEnds, mostBuffered, closes };
  }

  const inOrder = (values: readonly number[]): boolean => values.length === FRAMES && values.every((v, i) => v === i);

  it('length-prefixed: 50,000 frames written at once arrive in order, with the loop getting turns in between', async () => {
    const bytes = Buffer.concat(Array.from({ length: FRAMES }, (_, i) => encodeJsonFrame(i)));
    const got = await flood(lengthPrefixedFraming(), bytes, { pacing: { maxFramesPerTurn: 100 } });
    assert.ok(inOrder(got.values), 'every frame, in order');
    assert.ok(got.mostFramesInOneTurn <= 100, `at most 100 frames per task (was ${got.mostFramesInOneTurn})`);
    assert.ok(got.turnsWhileDelivering >= FRAMES / 100 - 1, `the loop turned ${got.turnsWhileDelivering} times while they were delivered`);
    assert.ok(got.readEnds >= FRAMES / 100, 'each turn ends its read');
  });

  it('NDJSON (SCV, hyperhive): the same', async () => {
    const bytes = Buffer.from(Array.from({ length: FRAMES }, (_, i) => `${i}\n`).join(''));
    const got = await flood(ndjsonFraming({ maxFrameBytes: 1024 }), bytes, { pacing: { maxFramesPerTurn: 100 } });
    assert.ok(inOrder(got.values), 'every line, in order');
    assert.ok(got.mostFramesInOneTurn <= 100, `at most 100 lines per task (was ${got.mostFramesInOneTurn})`);
    assert.ok(got.turnsWhileDelivering >= FRAMES / 100 - 1);
  });

  it('a turn ends after its time budget, whatever the frame count', async () => {
    let clock = 0;
    // Each frame "takes" 1 ms on the test's clock: a 5 ms budget is 5 frames per turn.
    const bytes = Buffer.concat(Array.from({ length: FRAMES }, (_, i) => encodeJsonFrame(i)));
    const got = await flood(lengthPrefixedFraming(), bytes, { pacing: { maxFramesPerTurn: 1_000_000, minFramesPerTurn: 1, maxMsPerTurn: 5, now: () => clock }, workPerFrame: () => (clock += 1) });
    assert.ok(inOrder(got.values));
    assert.equal(got.mostFramesInOneTurn, 5);
  });

  it('the socket waits while a backlog is delivered: the reader never holds the whole flood', async () => {
    // 200,000 frames (~1.6 MiB) behind a slow listener: read all at once, they would all sit in the decoder.
    const count = 200_000;
    const bytes = Buffer.concat(Array.from({ length: count }, (_, i) => encodeJsonFrame(i)));
    const connection = await StreamConnection.connect(socketPath, { framing: lengthPrefixedFraming(), pacing: { maxFramesPerTurn: 50 } });
    const socket = await peer;
    let mostBuffered = 0;
    let n = 0;
    await new Promise<void>((resolve) => {
      connection.onFrame(() => {
        mostBuffered = Math.max(mostBuffered, connection.bufferedBytes);
        n += 1;
        if (n === count) {
          resolve();
        }
      });
      socket.write(bytes);
    });
    connection.destroy();
    assert.ok(mostBuffered < bytes.length / 4, `held at most ${mostBuffered} of ${bytes.length} bytes`);
  });

  it("the peer's EOF right after the flood: every frame first, then one close", async () => {
    const bytes = Buffer.concat(Array.from({ length: FRAMES }, (_, i) => encodeJsonFrame(i)));
    const got = await flood(lengthPrefixedFraming(), bytes, { pacing: { maxFramesPerTurn: 100 }, end: true });
    assert.ok(inOrder(got.values), 'every frame before the close');
    assert.deepEqual(got.closes, [{ cause: 'eof' }]);
  });

  it('a fatal framing error inside a backlog ends delivery there', async () => {
    const good = Array.from({ length: 1000 }, (_, i) => encodeJsonFrame(i));
    const bad = Buffer.from([0xff, 0xff, 0xff, 0xff, 0]); // a length over the limit
    const connection = await StreamConnection.connect(socketPath, { framing: lengthPrefixedFraming(), pacing: { maxFramesPerTurn: 10 } });
    const socket = await peer;
    const values: unknown[] = [];
    const closed = new Promise<StreamCloseInfo>((resolve) => connection.onClose(resolve));
    connection.onFrame((value) => values.push(value));
    socket.write(Buffer.concat([...good, bad, ...good]));
    const info = await closed;
    assert.equal(values.length, 1000);
    assert.equal(info.cause, 'framing_error');
    assert.equal(info.framingError?.code, 'bad_length');
  });
});

describe('ReadTurn', () => {
  it('ends at the frame count or the time budget, whichever comes first', () => {
    let clock = 0;
    const byCount = new ReadTurn({ maxFramesPerTurn: 3, maxMsPerTurn: 100, now: () => clock });
    assert.deepEqual([byCount.spend(), byCount.spend(), byCount.spend()], [false, false, true]);
    const byTime = new ReadTurn({ maxFramesPerTurn: 100, minFramesPerTurn: 1, maxMsPerTurn: 10, now: () => clock });
    clock = 9;
    assert.equal(byTime.spend(), false);
    clock = 10;
    assert.equal(byTime.spend(), true);
  });

  it('the time budget counts only after the first frames of a turn', () => {
    let clock = 0;
    const turn = new ReadTurn({ minFramesPerTurn: 3, maxMsPerTurn: 1, now: () => clock });
    clock = 50;
    assert.deepEqual([turn.spend(), turn.spend(), turn.spend()], [false, false, true]);
  });
});
