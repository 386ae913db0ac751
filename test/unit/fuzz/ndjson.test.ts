/**
 * Fuzz: NDJSON framing and the SCV read path. 100k random and mutated lines, fed in random chunks, through
 * `NdjsonDecoder` (lines come back byte-exact, in order) and the SCV read path (NDJSON framing → JSON → zod → seq):
 * nothing throws, every bad line is a clear client error, the connection keeps reading (SCV resyncs on the next
 * line). The hand-written fast path for `assistant.delta` must agree with the schema on every input. A line that
 * never ends is refused as soon as it is too long and its bytes are dropped as they arrive (memory stays flat).
 * Replay a failure with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseScvServerEvent, scvEventSchemas } from '../../../extension/protocol/scv';
import type { ScvServerEvent } from '../../../extension/protocol/scv';
import { NdjsonDecoder } from '../../../extension/transport/ndjsonDecoder';
import type { NdjsonResult } from '../../../extension/transport/ndjsonDecoder';
import type { Random } from './fuzzKit';
import { forEachCase, mutateText, randomChunks, suiteSeed } from './fuzzKit';
import { scvReadPath } from '../drivers/scv/scvReadPath';

const SEED = suiteSeed(0x1d750);
const LINES = Number(process.env.FUZZ_FRAMES ?? 100_000);

const turn = { request_id: 'r1', session_id: 's1', turn_id: 't1' };
const CORPUS: readonly Record<string, unknown>[] = [
  { type: 'assistant.delta', ...turn, seq: 5, content: 'Hello **world**' },
  { type: 'assistant.completed', ...turn, seq: 6, content: 'Hello **world**' },
  { type: 'turn.started', ...turn, seq: 4 },
  { type: 'tool.proposed', ...turn, seq: 7, call_id: 'c1', name: 'bash', arguments: { command: 'ls' } },
  { type: 'approval.requested', ...turn, seq: 8, approval_id: 'a1', call_id: 'c1', name: 'bash', risk: 'process', cwd: '/w', summary: 'Run ls' },
  { type: 'tool.completed', ...turn, seq: 9, call_id: 'c1', name: 'bash', success: true, output: 'x', truncated: false },
  { type: 'turn.completed', ...turn, seq: 10, steps: 1, usage: { input_tokens: 1, output_tokens: 2 } },
  { type: 'queue.snapshot', request_id: null, session_id: 's1', seq: 3, entries: [], paused: false },
  { type: 'error', request_id: 'r9', code: 'invalid_request', message: 'no', fatal: false },
  { type: 'assistant.reasoning', session_id: 's1', seq: 11, content: 'a future event type' },
];

/** One line's content (no CR/LF inside: those are the framing, tested by the optional CR added before LF). */
function randomLine(random: Random): string {
  return randomContent(random).replace(/[\r\n]/g, '');
}

function randomContent(random: Random): string {
  const roll = random.int(0, 9);
  if (roll <= 3) {
    return JSON.stringify(random.pick(CORPUS));
  }
  if (roll <= 6) {
    return mutateText(random, JSON.stringify(random.pick(CORPUS)));
  }
  if (roll === 7) {
    return JSON.stringify(random.json(4)) ?? 'null';
  }
  return random.string(40);
}

function checkParse(value: unknown): void {
  const parsed = parseScvServerEvent(value);
  if (!parsed.ok) {
    assert.ok(parsed.message.length > 0);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { type?: unknown }).type === 'assistant.delta') {
    const schema = scvEventSchemas['assistant.delta'].safeParse(value);
    assert.equal(parsed.ok, schema.success, `fast path and schema disagree on ${JSON.stringify(value)}`);
    if (parsed.ok && schema.success) {
      assert.deepStrictEqual(parsed.event, schema.data);
    }
  }
}

test(`${LINES.toLocaleString('en-US')} random and mutated lines in random chunks: byte-exact lines, clear errors, no throw (seed ${SEED})`, () => {
  let lines = 0;
  let events = 0;
  let problems = 0;
  forEachCase('ndjson', SEED, Number.MAX_SAFE_INTEGER, (random) => {
    if (lines >= LINES) {
      return false;
    }
    const batch = Array.from({ length: random.int(1, 20) }, () => randomLine(random));
    lines += batch.length;
    const stream = Buffer.from(batch.map((l) => `${l}${random.chance(0.1) ? '\r' : ''}\n`).join(''), 'utf8');
    const decoder = new NdjsonDecoder(1024);
    const got: NdjsonResult[] = [];
    const seen: ScvServerEvent[] = [];
    const reader = scvReadPath({
      event: (event) => seen.push(event),
      serverError: () => events++,
      gap: () => undefined,
      clientError: (code, message) => {
        assert.ok(['frame_too_large', 'malformed_frame', 'malformed_event', 'seq_out_of_order'].includes(code), code);
        assert.ok(message.length > 0);
        problems++;
      },
      isOpen: () => true,
    });
    for (const chunk of randomChunks(random, stream, 300)) {
      got.push(...decoder.push(chunk));
      reader.push(chunk);
      assert.ok(decoder.bufferedBytes <= 1025, `holds ${decoder.bufferedBytes} bytes`);
    }
    assert.deepEqual(decoder.end(), { danglingBytes: 0 });
    assert.equal(got.length, batch.length, 'one result per line');
    got.forEach((result, i) => {
      const expected = Buffer.from(batch[i]!, 'utf8');
      if (result.kind === 'line') {
        assert.equal(result.text, expected.toString('utf8'));
        let value: unknown;
        try {
          value = JSON.parse(result.text);
        } catch {
          return;
        }
        checkParse(value);
      } else {
        assert.ok(expected.length > 1024, `line ${i} of ${expected.length} bytes reported oversized`);
      }
    });
    events += seen.length;
    return true;
  });
  assert.ok(events > LINES / 4 && problems > LINES / 10, `${events} events, ${problems} problems: the corpus exercises both`);
});

test(`random JSON values through parseScvServerEvent: never throws, fast path = schema (seed ${SEED})`, () => {
  forEachCase('parseScvServerEvent', SEED + 1, 20_000, (random) => {
    checkParse(random.json(4));
    checkParse({ ...(CORPUS[0] as object), ...(random.json(2) as object) });
    checkParse({ type: 'assistant.delta', request_id: random.pick(['r', 1, null]), session_id: 's', turn_id: 't', seq: random.pick([0, -1, 1.5, 2 ** 53, '1']), content: random.json(1) });
  });
});

test('a line that never ends: refused once too long, its bytes dropped as they arrive, then decoding resyncs', () => {
  const limit = 8 * 1024 * 1024 + 2; // the SCV reader's size before session.started
  const decoder = new NdjsonDecoder(limit);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  let peak = 0;
  for (let i = 0; i < 1024; i++) { // 64 MiB, no newline
    assert.deepEqual(decoder.push(chunk), []);
    peak = Math.max(peak, decoder.bufferedBytes);
    assert.ok(decoder.bufferedBytes <= limit + 1, `holds ${decoder.bufferedBytes}`);
  }
  assert.equal(decoder.bufferedBytes, 0, 'over the limit: nothing is kept');
  assert.ok(peak <= limit + 1);
  const grown = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;
  assert.ok(grown < 3 * limit, `memory grew by ${grown} bytes over 64 MiB of input`);
  const results = decoder.push(Buffer.from('\n{"ok":1}\n'));
  assert.deepEqual(results[0], { kind: 'oversized', bytes: 1024 * chunk.length });
  assert.deepEqual(results[1], { kind: 'line', text: '{"ok":1}' });
});

test('the SCV reader reports a never-ending line once, keeps reading, and drops nothing after it', () => {
  const problems: string[] = [];
  const events: ScvServerEvent[] = [];
  const reader = scvReadPath({
    event: (event) => events.push(event),
    serverError: () => undefined,
    gap: () => undefined,
    clientError: (code) => problems.push(code),
    isOpen: () => true,
  });
  reader.push(Buffer.from(`${JSON.stringify({ type: 'session.started', request_id: 'r', session_id: 's1', cwd: '/w', model: 'm', context_max_tokens: 1, max_server_frame_bytes: 65_536, max_transcript_bytes: 1, max_transcript_items: 1, max_prompt_history_bytes: 1, max_prompt_history_items: 1 })}\n`));
  assert.equal(reader.maxLineBytes, 65_538);
  const chunk = Buffer.alloc(16 * 1024, 0x7b);
  for (let i = 0; i < 512; i++) { // 8 MiB in one line
    reader.push(chunk);
  }
  reader.push(Buffer.from(`\n${JSON.stringify({ type: 'assistant.delta', request_id: 'r', session_id: 's1', turn_id: 't', seq: 1, content: 'after' })}\n`));
  assert.deepEqual(problems, ['frame_too_large']);
  assert.equal(events.at(-1)?.type, 'assistant.delta');
  assert.equal(reader.end(), 0);
});
