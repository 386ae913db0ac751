/**
 * The AgencyProxy driver folds the streamed chunks of one socket read into one model step: a fake daemon writes a
 * run's frames in one write, and the transcript gets one patch per run of chunks (their concatenation), while the
 * sequences stay exact — the run's last sequence, the gap for a frame that could not be read, the acks, and the
 * journal a reload replays. A fatal framing error in the middle of a read keeps what came before it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { TranscriptPatch } from '../../../../extension/protocol/transcriptTypes';
import { FrameKind, encodeFrame, encodeJsonFrame } from '../../../../extension/transport/lengthPrefixed';
import { fakeServer, helloReply } from './agencyProxyKit';
import { driverSetup, quietLog, until } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'apf-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

const RUN = 'r';

function snapshot(latestSequence: number): Record<string, unknown> {
  return {
    runId: RUN, state: 'running', provider: 'claude', model: 'sonnet', providerSessionId: null, latestSequence,
    acknowledgedSequence: 0, workspaceRoots: [], metadata: {},
  };
}

const event = (sequence: number, type: string, payload?: unknown): Record<string, unknown> =>
  ({ kind: 'event', run_id: RUN, sequence, event: payload === undefined ? { type } : { type, payload } });

interface Daemon {
  readonly server: net.Server;
  readonly acks: number[];
}

/**
 * A daemon holding run `r`: `attach_run` is answered with the snapshot, then `replay(after)` — all in ONE write
 * (the frames of one socket read). `ack_events` are recorded.
 */
async function daemon(socketPath: string, latest: number, replay: (after: number) => Buffer): Promise<Daemon> {
  const acks: number[] = [];
  const server = await fakeServer(socketPath, (msg, send, socket) => {
    const id = msg.requestId;
    const reply = (fields: Record<string, unknown>): Buffer => encodeJsonFrame({ kind: 'response', request_id: id, ...fields });
    switch (msg.type) {
      case 'hello':
        send(helloReply(id));
        break;
      case 'list_runs':
        send({ kind: 'response', request_id: id, type: 'runs', runs: [snapshot(latest)] });
        break;
      case 'attach_run':
        socket.write(Buffer.concat([reply({ type: 'run', run: snapshot(latest) }), replay(Number(msg.after_sequence))]));
        break;
      case 'ack_events':
        acks.push(Number(msg.through_sequence));
        send({ kind: 'response', request_id: id, type: 'accepted' });
        break;
      default:
        send({ kind: 'response', request_id: id, type: 'accepted' });
    }
  });
  return { server, acks };
}

function connectDriver(socketPath: string, storage: string) {
  const { store, connectionId, ctx } = driverSetup({ name: 'fold', protocol: 'agency-proxy', socketPath }, storage, { log: quietLog });
  const key = runKeyOf(connectionId, RUN);
  const patches: TranscriptPatch[] = [];
  store.onDidPatch((p) => {
    if (p.runKey === key) {
      patches.push(p.patch);
    }
  });
  return { store, key, patches, driver: new AgencyProxyDriver(ctx) };
}

/** The text each patch adds to a text item (a new item's text, or an append), in order. */
function textChunks(patches: readonly TranscriptPatch[]): string[] {
  return patches.flatMap((p) => (p.op === 'add' && p.item.kind === 'text' ? [p.item.text] : p.op === 'append' ? [p.chunk] : []));
}

test('one read of text chunks is one patch; seq, acks and the journal stay exact; a reload replays the same', async () => {
  const dir = mkdtempSync(join(base, 'a'));
  const socketPath = join(dir, 'd.sock');
  const storage = join(dir, 'storage');
  const frames = [
    event(1, 'text', 'a'), event(2, 'text', 'b'), event(3, 'text', 'c'),
    event(4, 'tool_call', { id: 't1', name: 'Read', input: { file_path: '/x' } }),
    event(5, 'tool_result', { id: 't1', ok: true, output: 'out' }),
    event(6, 'text', 'd'), event(7, 'text', 'e'), event(8, 'text', 'f'),
    event(9, 'message_boundary'),
  ];
  const all = Buffer.concat(frames.map((f) => encodeJsonFrame(f)));
  const fake = await daemon(socketPath, 9, (afterSequence) => (afterSequence === 0 ? all : Buffer.alloc(0)));
  const first = connectDriver(socketPath, storage);
  let second: ReturnType<typeof connectDriver> | undefined;
  try {
    await first.driver.connect();
    await until('all nine folded', () => first.store.state.runs.get(first.key)?.lastSequence === 9);
    // The first chunk changes the run's state (it starts answering), so it is a step of its own; the rest fold.
    assert.deepEqual(textChunks(first.patches), ['a', 'bc', 'def']);
    const items = first.store.transcript(first.key)!.snapshot();
    assert.deepEqual(items.filter((i) => i.kind === 'text').map((i) => i.kind === 'text' && i.text), ['abc', 'def']);
    assert.equal(items.filter((i) => i.kind === 'tool').length, 1);
    assert.equal(items.filter((i) => i.kind === 'gap').length, 0, 'a folded range is no gap');

    await first.driver.adoptRun(RUN); // observed runs are never acked
    await until('acked through the last sequence', () => fake.acks.at(-1) === 9);
    assert.ok(fake.acks.every((a) => a <= 9));

    await first.driver.flushStorage();
    await first.driver.dispose();
    // A window reload: the journal (with its folded records) is replayed, and nothing is attached again.
    second = connectDriver(socketPath, storage);
    await second.driver.connect();
    await until('restored', () => second!.store.state.runs.get(second!.key)?.lastSequence === 9);
    assert.deepEqual(second.store.transcript(second.key)!.snapshot().filter((i) => i.kind !== 'notice'),
      first.store.transcript(first.key)!.snapshot().filter((i) => i.kind !== 'notice'));
  } finally {
    await first.driver.dispose();
    await second?.driver.dispose();
    fake.server.close();
  }
});

test('a frame that cannot be read breaks the fold as before (a gap), and a fatal one keeps what came before it', async () => {
  const dir = mkdtempSync(join(base, 'b'));
  const socketPath = join(dir, 'd.sock');
  const frames = [
    encodeJsonFrame(event(1, 'reasoning', 'think')),
    encodeJsonFrame(event(2, 'text', 'a')), encodeJsonFrame(event(3, 'text', 'b')),
    // Not an event frame the schema accepts: ignored with a warning, the connection stays open.
    encodeJsonFrame({ kind: 'event', run_id: RUN, sequence: 'four', event: { type: 'text', payload: 'lost' } }),
    encodeJsonFrame(event(5, 'text', 'c')), encodeJsonFrame(event(6, 'text', 'd')),
    encodeJsonFrame(event(7, 'usage', { input_tokens: 1234, output_tokens: 5 })),
    encodeJsonFrame(event(8, 'text', 'e')), encodeJsonFrame(event(9, 'text', 'f')),
    // Not JSON at all: the stream cannot be read on, the connection is dropped right here.
    encodeFrame(FrameKind.text, Buffer.from('{"kind":"event", broken')),
    encodeJsonFrame(event(10, 'text', 'never read')),
  ];
  let attaches = 0;
  const fake = await daemon(socketPath, 10, () => (++attaches === 1 ? Buffer.concat(frames) : Buffer.alloc(0)));
  const { store, key, patches, driver } = connectDriver(socketPath, join(dir, 'storage'));
  try {
    await driver.connect();
    await until('folded through 9', () => store.state.runs.get(key)?.lastSequence === 9);
    // The fatal frame dropped the connection; the driver reconnects and attaches again (nothing more to replay).
    await until('reconnected after the bad frame', () => attaches >= 2);
    assert.equal(store.state.runs.get(key)!.lastSequence, 9, 'nothing after the bad frame was folded');
    const items = store.transcript(key)!.snapshot();
    assert.deepEqual(items.filter((i) => i.kind === 'gap').map((g) => g.kind === 'gap' && [g.from, g.to]), [[4, 4]], 'the unreadable frame is a gap of one');
    // Text is cut by the gap (a new item after it). The usage report settles the answer (idle), so the chunk after
    // it starts answering again — a step of its own, as is any chunk that changes more than the transcript.
    assert.deepEqual(items.filter((i) => i.kind === 'text').map((i) => i.kind === 'text' && i.text), ['ab', 'cdef']);
    assert.deepEqual(textChunks(patches), ['ab', 'cd', 'e', 'f']);
    assert.equal(items.some((i) => i.kind === 'text' && i.text.includes('never')), false);
  } finally {
    await driver.dispose();
    fake.server.close();
  }
});
