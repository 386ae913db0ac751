/**
 * Fuzz: AgencyProxy framing and frame parsing. 100k random and mutated frames, fed in random chunks, through
 * `LengthPrefixedDecoder` and `parseServerFrame`: nothing throws, every problem is a clear error result, the decoder
 * stops after the first error or Close (the connection is then closed, WIRE.md §1.2), and what it holds is bounded by
 * one frame. The hand-written fast path for text/reasoning frames must agree with the zod schema on every input.
 * Oversized frames are refused from their 4 length bytes. Over a real socket, garbage closes the client with a reason.
 * Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyClient } from '../../../extension/drivers/agencyProxy/client';
import { EventFrameSchema, parseServerFrame } from '../../../extension/protocol/agencyProxy';
import { FrameKind, LengthPrefixedDecoder, MAX_FRAME_LENGTH, encodeFrame, encodeJsonFrame } from '../../../extension/transport/lengthPrefixed';
import type { DecodeResult } from '../../../extension/transport/lengthPrefixed';
import { Random, forEachCase, mutateText, randomChunks, suiteSeed } from './fuzzKit';

const SEED = suiteSeed(0xf1a3e);
const FRAMES = Number(process.env.FUZZ_FRAMES ?? 100_000);
const ERROR_CODES = new Set(['bad_length', 'unexpected_kind', 'invalid_utf8', 'invalid_json', 'truncated']);

const dir = mkdtempSync(join(tmpdir(), 'fzlp-'));
after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 20 }));

/** Valid frames of every server kind, the seeds the mutations start from. */
const CORPUS: readonly Record<string, unknown>[] = [
  { kind: 'event', run_id: 'r1', sequence: 7, event: { type: 'text', payload: 'Hello **world**' } },
  { kind: 'event', run_id: 'r1', sequence: 8, event: { type: 'reasoning', payload: 'thinking…' } },
  { kind: 'event', run_id: 'r1', sequence: 9, event: { type: 'tool_call', payload: { id: 'toolu_1', name: 'Read', input: { file_path: '/a' } } } },
  { kind: 'event', run_id: 'r1', sequence: 10, event: { type: 'tool_result', payload: { id: 'toolu_1', ok: true, output: 'ok' } } },
  { kind: 'event', run_id: 'r1', sequence: 11, event: { type: 'approval_requested', payload: { approval_id: 'ap-1', title: 'Edit', detail: { file_path: '/a' } } } },
  { kind: 'event', run_id: 'r1', sequence: 12, event: { type: 'usage', payload: { input_tokens: 10 } } },
  { kind: 'event', run_id: 'r1', sequence: 13, event: { type: 'message_boundary' } },
  { kind: 'event', run_id: 'r1', sequence: 14, event: { type: 'finished', payload: { exit_code: 0, ok: true } } },
  { kind: 'response', request_id: 1, type: 'hello', server_name: 'agency-proxy', version: { major: 0, minor: 3 }, capabilities: ['approvals'] },
  { kind: 'response', request_id: 2, type: 'runs', runs: [] },
  { kind: 'response', request_id: 3, type: 'error', code: 'not_found', message: 'no' },
  { kind: 'response', request_id: 4, type: 'accepted' },
];

/** One frame's bytes: valid, mutated JSON, random JSON, random bytes, a foreign kind, or a bad length. */
function randomFrame(random: Random): { bytes: Buffer; valid?: unknown } {
  const roll = random.int(0, 9);
  if (roll <= 2) {
    const value = random.pick(CORPUS);
    return { bytes: encodeJsonFrame(value), valid: value };
  }
  if (roll <= 5) {
    return { bytes: encodeFrame(FrameKind.text, Buffer.from(mutateText(random, JSON.stringify(random.pick(CORPUS))), 'utf8')) };
  }
  if (roll === 6) {
    return { bytes: encodeFrame(FrameKind.text, Buffer.from(JSON.stringify(random.json(4)) ?? 'null', 'utf8')) };
  }
  if (roll === 7) {
    return { bytes: encodeFrame(random.int(0, 255), random.bytes(random.int(0, 64))) };
  }
  if (roll === 8) {
    return { bytes: encodeFrame(FrameKind.text, random.bytes(random.int(0, 64))) };
  }
  // A header claiming a length that is 0, over the limit, or far over it (then some bytes).
  const header = Buffer.alloc(5);
  header.writeUInt32BE(random.pick([0, MAX_FRAME_LENGTH + 1, 0x7fffffff, 0xffffffff, random.int(0, 0xffffffff)]), 0);
  header[4] = FrameKind.text;
  return { bytes: Buffer.concat([header, random.bytes(random.int(0, 32))]) };
}

function checkParse(value: unknown): void {
  const parsed = parseServerFrame(value);
  if (!parsed.ok) {
    assert.equal(typeof parsed.error, 'string');
    assert.ok(parsed.error.length > 0);
  }
  // The fast path for text/reasoning chunks must give exactly what the schema gives.
  if (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'event') {
    const schema = EventFrameSchema.safeParse(value);
    assert.equal(parsed.ok, schema.success, `fast path and schema disagree on ${JSON.stringify(value)}`);
    if (parsed.ok && schema.success) {
      assert.deepStrictEqual(parsed.frame, schema.data);
    }
  }
}

test(`${FRAMES.toLocaleString('en-US')} random and mutated frames in random chunks: clear results, bounded memory, no throw (seed ${SEED})`, () => {
  let messages = 0;
  let errors = 0;
  forEachCase('length-prefixed', SEED, Number.MAX_SAFE_INTEGER, (random) => {
    if (messages + errors >= FRAMES) {
      return false; // FRAMES frames were decoded or refused (those after a stream's first error are never looked at)
    }
    const parts = Array.from({ length: random.int(1, 6) }, () => randomFrame(random));
    const stream = Buffer.concat(parts.map((p) => p.bytes));
    const decoder = new LengthPrefixedDecoder();
    const results: DecodeResult[] = [];
    for (const chunk of randomChunks(random, stream, 512)) {
      results.push(...decoder.push(chunk));
      assert.ok(decoder.bufferedBytes <= MAX_FRAME_LENGTH + 4, `holds ${decoder.bufferedBytes} bytes`);
    }
    results.push(...decoder.end());
    let finished = false;
    results.forEach((result, i) => {
      assert.equal(finished, false, 'nothing after an error or Close');
      if (result.type === 'message') {
        messages++;
        checkParse(result.value);
        const expected = parts[i]?.valid;
        if (expected !== undefined) {
          assert.deepStrictEqual(result.value, expected);
        }
      } else if (result.type === 'error') {
        errors++;
        assert.ok(ERROR_CODES.has(result.code), result.code);
        assert.ok(result.message.length > 0);
        finished = true;
      } else {
        finished = true;
      }
    });
    assert.equal(decoder.bufferedBytes, 0, 'nothing held after end()');
    // Every intact frame before the first broken one was delivered, in order.
    const intact = parts.findIndex((p) => p.valid === undefined);
    const deliveredValid = results.filter((r, i) => r.type === 'message' && parts[i]?.valid !== undefined).length;
    assert.ok(deliveredValid >= (intact === -1 ? parts.length : intact));
    return true;
  });
  assert.ok(messages > FRAMES / 4 && errors > FRAMES / 20, `${messages} messages, ${errors} errors: the corpus exercises both`);
});

test(`random JSON values through parseServerFrame: never throws, fast path = schema (seed ${SEED})`, () => {
  forEachCase('parseServerFrame', SEED + 1, 20_000, (random) => {
    const base = random.pick(CORPUS);
    const value = random.chance(0.5) ? random.json(4) : { ...base, ...(random.json(2) as object) };
    checkParse(value);
    checkParse({ kind: 'event', run_id: random.pick(['r', 1, null]), sequence: random.pick([0, 1, -1, 1.5, 2 ** 53, '3']), event: { type: random.pick(['text', 'reasoning', 'x']), payload: random.json(1) } });
  });
});

test('a 2 GiB declared length is refused from its 4 length bytes; nothing after it is buffered', () => {
  const decoder = new LengthPrefixedDecoder();
  const header = Buffer.from([0x80, 0x00, 0x00, 0x00]);
  const [result] = decoder.push(header);
  assert.ok(result?.type === 'error' && result.code === 'bad_length', JSON.stringify(result));
  assert.match(result.message, /exceeds/);
  const before = process.memoryUsage().arrayBuffers;
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  for (let i = 0; i < 256; i++) {
    assert.deepEqual(decoder.push(chunk), []);
    assert.equal(decoder.bufferedBytes, 0);
  }
  assert.ok(process.memoryUsage().arrayBuffers - before < 16 * 1024 * 1024, 'memory stayed flat over 256 MiB of input');
});

test('the largest allowed frame is held at most once, then decoded', () => {
  const decoder = new LengthPrefixedDecoder();
  const payload = Buffer.from(JSON.stringify({ kind: 'event', run_id: 'r', sequence: 1, event: { type: 'text', payload: 'x'.repeat(MAX_FRAME_LENGTH - 200) } }));
  const frame = encodeFrame(FrameKind.text, payload);
  const results: DecodeResult[] = [];
  for (let offset = 0; offset < frame.length; offset += 65_536) {
    results.push(...decoder.push(frame.subarray(offset, offset + 65_536)));
    assert.ok(decoder.bufferedBytes <= frame.length);
  }
  assert.equal(results.length, 1);
  assert.equal(results[0]!.type, 'message');
  assert.equal(decoder.bufferedBytes, 0);
});

test(`garbage from a daemon after hello closes the client with a reason (seed ${SEED})`, async () => {
  const random = new Random(SEED + 2);
  for (let round = 0; round < 40; round++) {
    const socketPath = join(dir, `g${round}.sock`);
    const garbage = Buffer.concat(Array.from({ length: random.int(1, 4) }, () => randomFrame(random).bytes));
    const server = net.createServer((socket) => {
      const decoder = new LengthPrefixedDecoder();
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        for (const r of decoder.push(chunk)) {
          if (r.type === 'message' && (r.value as { type?: string }).type === 'hello') {
            const id = (r.value as { requestId: number }).requestId;
            socket.write(encodeJsonFrame({ kind: 'response', request_id: id, type: 'hello', server_name: 'fuzz', version: { major: 0, minor: 3 }, capabilities: [] }));
            socket.write(garbage);
            socket.end();
          }
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const client = await AgencyProxyClient.connect({ socketPath, requestTimeoutMs: 2000 });
      const closed = await new Promise<{ reason: string }>((resolve) => {
        if (!client.isOpen) {
          resolve({ reason: 'closed before listening' });
        }
        client.onClose(resolve);
      });
      assert.ok(closed.reason.length > 0, `round ${round} (seed ${SEED}): a reason`);
      assert.equal(client.isOpen, false);
      await assert.rejects(client.listRuns(), /connection closed/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
});
