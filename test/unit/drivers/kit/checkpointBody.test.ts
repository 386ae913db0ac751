/**
 * A checkpoint's body in lines (kit/checkpointBody.ts): what is written reads back equal, a thousand items a line,
 * parsed with the event loop given back between lines; a line that is not what the writer makes refuses the body.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkpointBodyLines, CheckpointBodyError, ITEMS_PER_LINE, readCheckpointBody } from '../../../../extension/drivers/kit/checkpointBody';
import { TimeSlices } from '../../../../extension/base/timeSlices';
import type { RunCheckpointModel } from '../../../../extension/model/runCheckpoint';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';

function itemAt(i: number): TranscriptItem {
  switch (i % 3) {
    case 0:
      return { id: `t${i}`, kind: 'text', text: `answer ${i} — é\u2028`, streaming: false };
    case 1:
      return { id: `u${i}`, kind: 'tool', name: 'Bash', callId: `c${i}`, status: 'succeeded', input: { command: `ls ${i}` }, output: 'ok', truncated: false } as TranscriptItem;
    default:
      return { id: `n${i}`, kind: 'notice', text: `notice ${i}` } as TranscriptItem;
  }
}

function modelOf(count: number): RunCheckpointModel {
  return {
    run: { title: 'r', state: 'idle', createdAt: 5, lastSequence: count, pendingApprovals: ['a1'], openTools: [['c1', 'u1']], itemCount: count },
    approvals: [{ approvalId: 'a1', itemId: 'p1', title: 'Edit', detail: { path: 'x' }, options: ['allow_once', 'deny'], requestedAt: 9, status: 'pending', live: false }],
    seq: count + 4,
    items: Array.from({ length: count }, (_, i) => itemAt(i)),
  } as RunCheckpointModel;
}

test('a body reads back equal to the model written, its items a thousand a line', async () => {
  for (const count of [0, 1, ITEMS_PER_LINE, 2 * ITEMS_PER_LINE + 500]) {
    const model = modelOf(count);
    const lines = [...checkpointBodyLines(model)];
    assert.equal(lines.length, 1 + Math.ceil(count / ITEMS_PER_LINE));
    const read = await readCheckpointBody(lines);
    assert.deepEqual(read.model, model);
    assert.deepEqual([read.transcript.snapshot(), read.transcript.seq], [model.items, model.seq]);
    assert.equal(read.transcript.kinds.length, count);
  }
});

test('reading gives the event loop back between lines', async () => {
  const lines = [...checkpointBodyLines(modelOf(3 * ITEMS_PER_LINE))];
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const slices = new TimeSlices(0); // a budget of nothing: every step gives the loop back
  await readCheckpointBody(lines, slices);
  assert.equal(slices.pauses, 3);
  assert.ok(turned, 'a macrotask queued before the read ran before it ended');
});

test('a damaged line refuses the whole body', async () => {
  const good = [...checkpointBodyLines(modelOf(2 * ITEMS_PER_LINE + 3))];
  const damaged: { name: string; lines: string[]; why: RegExp }[] = [
    { name: 'a line cut short', lines: good.map((l, i) => (i === 2 ? l.slice(0, -5) : l)), why: /line 3 is not JSON/ },
    { name: 'an item without a kind', lines: good.map((l, i) => (i === 1 ? l.replace('"kind":"text"', '"kind":"nothing"') : l)), why: /line 2 is not a line of items/ },
    { name: 'a line that is not a list', lines: good.map((l, i) => (i === 3 ? '{"id":"t1","kind":"text"}' : l)), why: /line 4 is not a line of items/ },
    { name: 'a line left out', lines: good.filter((_, i) => i !== 2), why: /1003 items, not as many as its run counts/ },
    { name: 'a head of another shape', lines: good.map((l, i) => (i === 0 ? l.replace('"seq":', '"sequence":') : l)), why: /malformed head/ },
    { name: 'nothing', lines: [], why: /empty body/ },
  ];
  for (const { name, lines, why } of damaged) {
    await assert.rejects(readCheckpointBody(lines), (error: unknown) => error instanceof CheckpointBodyError && why.test(error.message), name);
  }
});
