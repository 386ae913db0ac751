/**
 * The kit's `StreamedChunks`: consecutive chunks of one run and stream fold into one record whose chunk is their
 * concatenation and whose range is their sequences; anything else (another stream, run or call, a sequence jump)
 * breaks the fold; and the folded record, dispatched, leaves the model exactly where the chunks one by one would.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunInput } from '../../../../extension/drivers/kit/journalRecords';
import { journalRecordSchema } from '../../../../extension/drivers/kit/journalRecords';
import { modelActionOf } from '../../../../extension/drivers/kit/runRecorder';
import { StreamedChunks, isStreamedChunk } from '../../../../extension/drivers/kit/streamedChunks';
import type { ChunkRecord } from '../../../../extension/drivers/kit/streamedChunks';
import type { RunEvent } from '../../../../extension/model/modelActions';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptPatch } from '../../../../extension/protocol/transcriptTypes';
import * as z from 'zod/mini';

function collector(): { chunks: StreamedChunks; out: { runId: string; record: ChunkRecord; count: number }[] } {
  const out: { runId: string; record: ChunkRecord; count: number }[] = [];
  return { chunks: new StreamedChunks((runId, record, count) => out.push({ runId, record, count })), out };
}

test('consecutive text chunks with consecutive sequences fold into one record for the whole range', () => {
  const { chunks, out } = collector();
  chunks.add('r', { kind: 'textDelta', text: 'Hel' }, 5);
  chunks.add('r', { kind: 'textDelta', text: 'lo, ' }, 6);
  chunks.add('r', { kind: 'textDelta', text: 'world' }, 7);
  assert.equal(out.length, 0, 'held until flushed');
  assert.equal(chunks.heldSequence('r'), 7);
  assert.equal(chunks.heldSequence('other'), undefined);
  chunks.flush();
  assert.deepEqual(out, [{ runId: 'r', record: { firstSequence: 5, sequence: 7, event: { kind: 'textDelta', text: 'Hello, world' } }, count: 3 }]);
  assert.equal(chunks.folded, 2);
  assert.equal(chunks.holding, false);
  chunks.flush();
  assert.equal(out.length, 1, 'a second flush records nothing');
});

test('a single chunk is a plain record; a sequence jump, another stream, run or call breaks the fold', () => {
  const { chunks, out } = collector();
  chunks.add('r', { kind: 'textDelta', text: 'a' }, 1);
  chunks.add('r', { kind: 'textDelta', text: 'b' }, 3); // 2 never came: the reducer must see the jump
  chunks.add('r', { kind: 'reasoningDelta', text: 'c' }, 4);
  chunks.add('s', { kind: 'reasoningDelta', text: 'd' }, 5);
  chunks.add('s', { kind: 'toolOutputDelta', callId: 'x', delta: 'e' }, 6);
  chunks.add('s', { kind: 'toolOutputDelta', callId: 'y', delta: 'f' }, 7);
  chunks.add('s', { kind: 'toolOutputDelta', callId: 'y', delta: 'g' }, 8);
  chunks.flush();
  assert.deepEqual(out.map((o) => [o.runId, o.record]), [
    ['r', { sequence: 1, event: { kind: 'textDelta', text: 'a' } }],
    ['r', { sequence: 3, event: { kind: 'textDelta', text: 'b' } }],
    ['r', { sequence: 4, event: { kind: 'reasoningDelta', text: 'c' } }],
    ['s', { sequence: 5, event: { kind: 'reasoningDelta', text: 'd' } }],
    ['s', { sequence: 6, event: { kind: 'toolOutputDelta', callId: 'x', delta: 'e' } }],
    ['s', { firstSequence: 7, sequence: 8, event: { kind: 'toolOutputDelta', callId: 'y', delta: 'fg' } }],
  ]);
});

test('chunks without sequences fold with each other, never with sequenced ones; progress keeps the latest', () => {
  const { chunks, out } = collector();
  chunks.add('r', { kind: 'textDelta', text: 'a' });
  chunks.add('r', { kind: 'textDelta', text: 'b' });
  chunks.add('r', { kind: 'textDelta', text: 'c' }, 9);
  chunks.add('r', { kind: 'toolProgress', callId: 't', text: '10%' });
  chunks.add('r', { kind: 'toolProgress', callId: 't', text: '50%' });
  chunks.add('r', { kind: 'toolProgress', callId: 'u', text: '1%' });
  chunks.flush();
  assert.deepEqual(out.map((o) => o.record), [
    { event: { kind: 'textDelta', text: 'ab' } },
    { sequence: 9, event: { kind: 'textDelta', text: 'c' } },
    { event: { kind: 'toolProgress', callId: 't', text: '50%' } },
    { event: { kind: 'toolProgress', callId: 'u', text: '1%' } },
  ]);
});

test('only streamed chunks fold', () => {
  const chunk = (e: RunEvent): boolean => isStreamedChunk(e);
  assert.equal(chunk({ kind: 'textDelta', text: '' }), true);
  assert.equal(chunk({ kind: 'reasoningDelta', text: '' }), true);
  assert.equal(chunk({ kind: 'toolOutputDelta', callId: 'c', delta: '' }), true);
  assert.equal(chunk({ kind: 'toolProgress', callId: 'c', text: '' }), true);
  assert.equal(chunk({ kind: 'textCompleted', text: '' }), false);
  assert.equal(chunk({ kind: 'toolInputDelta', callId: 'c', delta: '' }), false, 'streamed input replaces, it is not folded');
  assert.equal(chunk({ kind: 'messageBoundary' }), false);
});

/** Dispatches `records` into a store holding run `r` (from `lastSequence` 0); returns its transcript and bookkeeping. */
function foldInto(records: readonly RunInput[], restored = false) {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'c', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { state: 'running' } });
  const patches: TranscriptPatch[] = [];
  store.onDidPatch((p) => patches.push(p.patch));
  for (const record of records) {
    const action = modelActionOf('c', 'r', record, restored);
    if (action) {
      store.dispatch(action);
    }
  }
  const key = runKeyOf('c', 'r');
  return { items: store.transcript(key)?.snapshot() ?? [], lastSequence: store.state.runs.get(key)!.lastSequence, patches };
}

test('a folded range lands where its chunks one by one would: same items, last sequence, gap — in fewer patches', () => {
  // Sequences 1–2 arrive, 3–4 are lost, 5–9 are text chunks, 10 closes the message.
  const one = (q: number, e: RunEvent): RunInput => ({ sequence: q, event: e });
  const text = (q: number): RunInput => one(q, { kind: 'textDelta', text: `t${q} ` });
  const thoughts = [{ kind: 'reasoningDelta', text: 'think ' }, { kind: 'reasoningDelta', text: 'more' }] as const;
  const head = thoughts.map((e, i) => one(i + 1, e));
  const tail = one(10, { kind: 'messageBoundary' });
  const eventByEvent = foldInto([...head, ...[5, 6, 7, 8, 9].map(text), tail]);

  const { chunks, out } = collector();
  thoughts.forEach((e, i) => chunks.add('r', e, i + 1));
  for (const q of [5, 6, 7, 8, 9]) {
    chunks.add('r', { kind: 'textDelta', text: `t${q} ` }, q);
  }
  chunks.flush();
  const folded = foldInto([...out.map((o) => o.record), tail]);

  assert.deepEqual(out.map((o) => [o.record.firstSequence, o.record.sequence]), [[1, 2], [5, 9]]);
  assert.deepEqual(folded.items, eventByEvent.items);
  assert.equal(folded.lastSequence, 10);
  assert.deepEqual(folded.items.filter((i) => i.kind === 'gap').map((g) => g.kind === 'gap' && [g.from, g.to]), [[3, 4]], 'the gap is 3–4, found from the range start');
  assert.ok(folded.patches.length < eventByEvent.patches.length, `${folded.patches.length} patches instead of ${eventByEvent.patches.length}`);
  const appends = folded.patches.filter((p) => p.op === 'append' || p.op === 'add');
  assert.ok(appends.some((p) => p.op === 'add' && p.item.kind === 'text' && p.item.text === 't5 t6 t7 t8 t9 '), 'one patch carries the joined chunk');

  // Replayed from the journal (restored), the folded record is folded the same way; a repeat is dropped whole.
  assert.deepEqual(foldInto([...out.map((o) => o.record), tail], true).items, eventByEvent.items);
  assert.deepEqual(foldInto([...out.map((o) => o.record), ...out.map((o) => o.record), tail]).items, eventByEvent.items);
});

test('the journal reads a folded record back (its range included) and still reads plain ones', () => {
  const schema = journalRecordSchema(z.never());
  const folded = { v: 2, s: 3, q: 7, e: { kind: 'textDelta', text: 'abc' } };
  assert.deepEqual(schema.parse(JSON.parse(JSON.stringify(folded))), folded);
  assert.deepEqual(schema.parse({ v: 2, q: 7, e: { kind: 'textDelta', text: 'x' } }), { v: 2, q: 7, e: { kind: 'textDelta', text: 'x' } });
  assert.equal(schema.safeParse({ v: 2, s: 0, q: 7, e: { kind: 'textDelta', text: 'x' } }).success, false, 'sequences are positive');
});
