/**
 * What a transcript view is sent of a run (model/transcriptWindow.ts, model/transcriptSearch.ts) and how the host
 * answers the view's questions (ui/transcript/viewRequests.ts): a tail window whatever the length, clamped ranges
 * "as of" the sequence, located approvals and messages, and find over the whole run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Transcript } from '../../../extension/model/transcript';
import { findInTranscript, findInTranscriptSliced, searchableText } from '../../../extension/model/transcriptSearch';
import { TimeSlices } from '../../../extension/base/timeSlices';
import { locate, locateApproval, rangeOf, tailWindow } from '../../../extension/model/transcriptWindow';
import { kindCode, kindOfCode, TRANSCRIPT_KINDS } from '../../../extension/protocol/kindCodes';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';
import { TRANSCRIPT_WINDOW } from '../../../extension/protocol/webviewMessages';
import { answerViewRequest } from '../../../extension/ui/transcript/viewRequests';

const text = (i: number): TranscriptItem => ({ id: `t${i}`, kind: 'text', text: `paragraph ${i}`, streaming: false });
const approval = (id: string, status: 'pending' | 'decided' | 'failed'): TranscriptItem => ({
  id: `card-${id}`,
  kind: 'approval',
  approvalId: id,
  title: `Run ${id}`,
  detail: {},
  options: ['allow_once', 'deny'],
  status,
  hasDiff: false,
});

function transcriptOf(items: readonly TranscriptItem[]): Transcript {
  const transcript = new Transcript();
  for (const item of items) {
    transcript.apply({ op: 'add', item });
  }
  return transcript;
}

test('kind codes: one distinct character per kind, round-tripping', () => {
  const codes = TRANSCRIPT_KINDS.map((kind) => kindCode(kind));
  assert.equal(new Set(codes).size, TRANSCRIPT_KINDS.length);
  for (const kind of TRANSCRIPT_KINDS) {
    assert.equal(kindOfCode(kindCode(kind).charCodeAt(0)), kind);
  }
  assert.equal(kindOfCode(Number.NaN), 'text', 'past the end of the string reads as text');
});

test('the tail window: the last snapshotItems items, the count and every kind, whatever the length', () => {
  const items = Array.from({ length: 10_000 }, (_, i) => (i === 3 ? approval('a', 'pending') : text(i)));
  const transcript = transcriptOf(items);
  const window = tailWindow(transcript);
  assert.equal(window.items.length, TRANSCRIPT_WINDOW.snapshotItems);
  assert.equal(window.start, 10_000 - TRANSCRIPT_WINDOW.snapshotItems);
  assert.equal(window.items[0]?.id, `t${window.start}`);
  assert.equal(window.total, 10_000);
  assert.equal(window.seq, 10_000);
  assert.equal(window.kinds.length, 10_000);
  assert.equal(kindOfCode(window.kinds.charCodeAt(3)), 'approval');
  const short = tailWindow(transcriptOf([text(0), text(1)]));
  assert.deepEqual([short.start, short.items.length, short.total], [0, 2, 2]);
  assert.deepEqual(tailWindow(undefined), { start: 0, items: [], total: 0, kinds: '', seq: 0 });
});

test('ranges are clamped to the transcript and to rangeMax; nonsense gets no answer', () => {
  const transcript = transcriptOf(Array.from({ length: 1_000 }, (_, i) => text(i)));
  assert.deepEqual(rangeOf(transcript, 10, 13)?.items.map((i) => i.id), ['t10', 't11', 't12']);
  assert.equal(rangeOf(transcript, 0, 1_000)?.items.length, TRANSCRIPT_WINDOW.rangeMax);
  assert.deepEqual(rangeOf(transcript, 990, 2_000)?.items.length, 10);
  assert.equal(rangeOf(transcript, 5_000, 5_010)?.items.length, 0);
  assert.equal(rangeOf(transcript, 5, 5), undefined);
  assert.equal(rangeOf(transcript, -1, 5), undefined);
  assert.equal(rangeOf(transcript, 0.5, 5), undefined);
});

test('locate: the first approval still waiting (pending or failed), a hyperhive message, an approval by id', () => {
  const transcript = transcriptOf([
    approval('done', 'decided'),
    text(1),
    approval('retry', 'pending'),
    { id: 'msg', kind: 'message', from: 'operator', body: 'hi', messageId: 'm-7' },
  ]);
  assert.deepEqual(locate(transcript, { kind: 'pendingApproval' }), { index: 2, id: 'card-retry' });
  transcript.apply({ op: 'update', id: 'card-retry', changes: { status: 'decided' } });
  assert.equal(locate(transcript, { kind: 'pendingApproval' }), undefined);
  transcript.apply({ op: 'update', id: 'card-done', changes: { status: 'failed' } });
  assert.deepEqual(locate(transcript, { kind: 'pendingApproval' }), { index: 0, id: 'card-done' });
  assert.deepEqual(locate(transcript, { kind: 'message', messageId: 'm-7' }), { index: 3, id: 'msg' });
  assert.equal(locate(transcript, { kind: 'message', messageId: 'nope' }), undefined);
  assert.deepEqual(locateApproval(transcript, 'retry'), { index: 2, id: 'card-retry' });
  assert.equal(locateApproval(transcript, 'nope'), undefined);
});

test('find searches what items show, case-insensitively unless asked, and caps the hits', () => {
  const transcript = transcriptOf([
    { id: 'u', kind: 'user', text: 'Fix the Parser' },
    { id: 'tool', kind: 'tool', callId: null, name: 'bash', input: { command: 'grep parser src' }, status: 'succeeded', output: 'ok', truncated: false },
    text(2),
    { id: 'raw', kind: 'raw', label: 'x', data: { deep: { value: 'PARSER' } } },
    approval('p', 'pending'),
  ]);
  assert.deepEqual(findInTranscript(transcript, 'parser', false).hits, [0, 1, 3]);
  assert.deepEqual(findInTranscript(transcript, 'Parser', true).hits, [0]);
  assert.deepEqual(findInTranscript(transcript, 'Run p', false).hits, [4]);
  assert.deepEqual(findInTranscript(transcript, '', false), { hits: [], truncated: false });
  assert.deepEqual(findInTranscript(transcript, 'parser', false, 2), { hits: [0, 1], truncated: true });
  assert.match(searchableText({ id: 'e', kind: 'error', message: 'boom', code: 'E42' }), /boom\nE42/);
});

test('find in slices gives the loop back between steps and finds what the one-go find finds, items added meanwhile too', async () => {
  const transcript = transcriptOf(Array.from({ length: 3_000 }, (_, i) => text(i)));
  let turns = 0;
  const tick = setInterval(() => turns++, 0);
  try {
    const slices = new TimeSlices(0); // every step gives the loop back
    const searching = findInTranscriptSliced(transcript, 'paragraph 7', false, 10_000, slices);
    transcript.apply({ op: 'add', item: text(3_000) }); // the run streams on while it searches
    transcript.apply({ op: 'add', item: { id: 'late', kind: 'notice', text: 'Paragraph 7 again' } as TranscriptItem });
    const found = await searching;
    assert.deepEqual(found, findInTranscript(transcript, 'paragraph 7', false, 10_000));
    assert.ok(found.hits.includes(3_001), 'the item added during the search is found');
    assert.ok(slices.pauses >= 11, `${slices.pauses} pauses over 3,002 items`);
    assert.ok(turns > 0, 'timers ran while it searched');
    assert.deepEqual(await findInTranscriptSliced(transcript, 'paragraph', false, 5), findInTranscript(transcript, 'paragraph', false, 5));
    assert.deepEqual(await findInTranscriptSliced(transcript, '', false), { hits: [], truncated: false });
  } finally {
    clearInterval(tick);
  }
});

test('the view requests: answered for the shown run only; a missing target is said, not ignored', async () => {
  const transcript = transcriptOf([text(0), text(1), text(2)]);
  const runKey = 'scv:local:r';
  assert.deepEqual(await answerViewRequest({ type: 'range', runKey, start: 1, end: 3 }, runKey, transcript), {
    type: 'items',
    runKey,
    start: 1,
    items: [text(1), text(2)],
    seq: 3,
  });
  assert.equal(await answerViewRequest({ type: 'range', runKey: 'other', start: 1, end: 3 }, runKey, transcript), undefined);
  assert.equal(await answerViewRequest({ type: 'range', runKey, start: 3, end: 1 }, runKey, transcript), undefined);
  const found = await answerViewRequest({ type: 'find', runKey, query: 'paragraph 2', matchCase: false }, runKey, transcript);
  assert.deepEqual(found, { type: 'findResult', runKey, query: 'paragraph 2', matchCase: false, hits: [2], truncated: false });
  const missing = await answerViewRequest({ type: 'locate', runKey, target: { kind: 'message', messageId: 'x' } }, runKey, transcript);
  assert.equal(missing?.type, 'toast');
  const none = await answerViewRequest({ type: 'locate', runKey, target: { kind: 'pendingApproval' } }, runKey, transcript);
  assert.equal(none?.type, 'toast');
});

test('the compact index: positional ids, any other ids, duplicates of either refused; kinds past the first block', () => {
  const transcript = new Transcript();
  const ids = ['x0', 'weird', 'x2', 'x7', 'x04', 'x5'];
  ids.forEach((id, i) => transcript.apply({ op: 'add', item: { ...text(i), id } }));
  ids.forEach((id, i) => assert.equal(transcript.indexOf(id), i, id));
  assert.equal(transcript.indexOf('x3'), undefined);
  assert.equal(transcript.indexOf('x1'), undefined, 'index 1 holds another id');
  for (const id of ['x2', 'weird', 'x7', 'x04']) {
    assert.throws(() => transcript.apply({ op: 'add', item: { ...text(9), id } }), /duplicate/, id);
  }
  const long = transcriptOf(Array.from({ length: 1_000 }, (_, i) => (i % 3 === 0 ? approval(String(i), 'pending') : text(i))));
  assert.equal(long.kinds.length, 1_000);
  assert.equal(kindOfCode(long.kinds.charCodeAt(999)), 'approval');
  assert.equal(kindOfCode(long.kinds.charCodeAt(998)), 'text');
  long.apply({ op: 'add', item: text(1_000) });
  assert.equal(long.kinds.length, 1_001, 'the cached string follows an add');
});
