/**
 * applyPatch (extension/protocol/transcriptPatch.ts): the one definition of what add / append / update do to a
 * transcript, used by the host's Transcript and the webview's TranscriptStore. Both are checked here to follow it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Transcript } from '../../../extension/model/transcript';
import { appendToItem, applyPatch, applyPatchesToList, mergeIntoItem } from '../../../extension/protocol/transcriptPatch';
import type { PatchTarget } from '../../../extension/protocol/transcriptPatch';
import type { TranscriptItem, TranscriptPatch } from '../../../extension/protocol/transcriptTypes';
import type { RunSummary } from '../../../extension/protocol/webviewMessages';
import { TranscriptStore } from '../../../webview/transcriptStore';

const tool: TranscriptItem = { id: 't', kind: 'tool', callId: 'c1', name: 'sh', input: {}, status: 'running', output: 'a', truncated: false, progress: '50%' };
const text: TranscriptItem = { id: 'x', kind: 'text', text: 'Hel', streaming: true };

function targetOf(items: readonly TranscriptItem[]): PatchTarget {
  return { indexOf: (id) => { const i = items.findIndex((it) => it.id === id); return i < 0 ? undefined : i; }, at: (i) => items[i] };
}

test('add: a new item goes at the end; a duplicate id is refused', () => {
  const list = [text];
  assert.deepEqual(applyPatch(targetOf(list), { op: 'add', item: tool }), { ok: true, op: 'add', item: tool });
  const dup = applyPatch(targetOf(list), { op: 'add', item: { ...text, text: 'other' } });
  assert.equal(dup.ok, false);
});

test('append: grows text or output of the item at its index, without touching the original', () => {
  const list = [text, tool];
  const step = applyPatch(targetOf(list), { op: 'append', id: 'x', field: 'text', chunk: 'lo' });
  assert.deepEqual(step, { ok: true, op: 'append', index: 0, item: { ...text, text: 'Hello' } });
  assert.equal(text.text, 'Hel', 'the input item is not mutated');
  const out = applyPatch(targetOf(list), { op: 'append', id: 't', field: 'output', chunk: 'b' });
  assert.ok(out.ok && out.op !== 'add');
  assert.equal(out.index, 1);
  assert.deepEqual(out.item, { ...tool, output: 'ab' });
});

test('append: an unknown id or a field that is not a string is refused', () => {
  assert.equal(applyPatch(targetOf([text]), { op: 'append', id: 'nope', field: 'text', chunk: 'x' }).ok, false);
  assert.equal(applyPatch(targetOf([text]), { op: 'append', id: 'x', field: 'output', chunk: 'x' }).ok, false);
  assert.equal(appendToItem(tool, 'text', 'x').ok, false);
});

test('update: merges fields; null and undefined remove a field; id and kind never change', () => {
  const merged = mergeIntoItem(tool, { status: 'succeeded', progress: null, errorKind: undefined, output: 'done', id: 't', kind: 'tool' });
  assert.deepEqual(merged, { id: 't', kind: 'tool', callId: 'c1', name: 'sh', input: {}, status: 'succeeded', output: 'done', truncated: false });
  assert.equal('progress' in merged, false, 'a null removes the key, it does not store null');
  assert.equal(tool.progress, '50%', 'the input item is not mutated');
  assert.equal(applyPatch(targetOf([tool]), { op: 'update', id: 'zzz', changes: {} }).ok, false);
  assert.deepEqual(applyPatch(targetOf([tool]), { op: 'update', id: 't', changes: { kind: 'tool', id: 't', status: 'failed' } }), {
    ok: true, op: 'update', index: 0, item: { ...tool, status: 'failed' },
  }, 'the same id and kind are no change');
  for (const changes of [{ kind: 'text' }, { kind: null }, { id: 'other' }, { id: undefined }]) {
    assert.equal(applyPatch(targetOf([tool]), { op: 'update', id: 't', changes }).ok, false, `refused: ${JSON.stringify(changes)}`);
  }
});

test('applyPatchesToList: folds in order into a new list and stops at the first patch that does not apply', () => {
  const patches: TranscriptPatch[] = [
    { op: 'append', id: 'x', field: 'text', chunk: 'lo' },
    { op: 'update', id: 'x', changes: { streaming: false } },
    { op: 'add', item: tool },
    { op: 'append', id: 'missing', field: 'text', chunk: '!' },
    { op: 'append', id: 'x', field: 'text', chunk: ' again' },
  ];
  const input = [text];
  const result = applyPatchesToList(input, patches);
  assert.equal(result.applied, 3);
  assert.match(result.rejected ?? '', /missing/);
  assert.deepEqual(result.items, [{ id: 'x', kind: 'text', text: 'Hello', streaming: false }, tool]);
  assert.deepEqual(input, [text], 'the input list is not changed');
});

const run: RunSummary = {
  key: 'c/r', connectionName: 'c', protocol: 'scv', runId: 'r', title: 't', state: 'running', pendingApprovals: 0,
  actions: { send: false, queues: false, stop: false, end: false, changeSet: false },
};

test('the host Transcript and the webview TranscriptStore both fold a stream exactly as applyPatchesToList does', () => {
  const stream: TranscriptPatch[] = [
    { op: 'add', item: text },
    { op: 'append', id: 'x', field: 'text', chunk: 'lo' },
    { op: 'add', item: tool },
    { op: 'append', id: 't', field: 'output', chunk: 'b' },
    // The tool result every driver sends: progress cleared with a null (the webview once resynced on this).
    { op: 'update', id: 't', changes: { status: 'succeeded', progress: null, errorKind: undefined } },
    { op: 'update', id: 'x', changes: { streaming: false, kind: 'text' } },
    { op: 'add', item: { id: 'ap', kind: 'approval', approvalId: 'a1', title: 'Edit', detail: {}, options: ['allow_once', 'deny'], status: 'failed', reason: 'socket closed', hasDiff: false } },
    { op: 'update', id: 'ap', changes: { status: 'decided', decision: 'deny', decidedBy: 'palette', reason: null } },
  ];
  const expected = applyPatchesToList([], stream);
  assert.equal(expected.rejected, undefined);

  const host = new Transcript();
  stream.forEach((p) => host.apply(p));
  assert.deepEqual(host.snapshot(), expected.items);

  const webview = new TranscriptStore();
  webview.reset(run, { items: [], seq: 0 });
  assert.deepEqual(webview.applyPatches(1, JSON.parse(JSON.stringify(stream)) as TranscriptPatch[]), { ok: true });
  assert.deepEqual(webview.loadedItems, expected.items);
});

test('both sides refuse the same bad patches', () => {
  const bad: TranscriptPatch[] = [
    { op: 'add', item: text },
    { op: 'append', id: 'nope', field: 'text', chunk: 'x' },
    { op: 'append', id: 'x', field: 'output', chunk: 'x' },
    { op: 'update', id: 'nope', changes: {} },
    { op: 'update', id: 'x', changes: { kind: 'user' } },
  ];
  for (const patch of bad) {
    const host = new Transcript();
    host.apply({ op: 'add', item: text });
    assert.throws(() => host.apply(patch), `host refuses ${JSON.stringify(patch)}`);
    const webview = new TranscriptStore();
    webview.reset(run, { items: [text], seq: 1 });
    assert.equal(webview.applyPatches(2, [patch]).ok, false, `webview refuses ${JSON.stringify(patch)}`);
  }
});
