/** TranscriptStore: sequencing, validation of patches and the change record the renderer consumes (pure; Node). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { TranscriptStore } from '../../webview/transcriptStore';
import { sampleRun } from './fixtures';

const items = (): TranscriptItem[] => [
  { id: 'a', kind: 'text', text: 'A', streaming: true },
  { id: 't', kind: 'tool', callId: null, name: 'sh', input: {}, status: 'running', output: '', truncated: false },
  { id: 'm', kind: 'message', from: 'x', body: 'b', messageId: 'mid' },
];

function textOf(store: TranscriptStore, id: string): string | undefined {
  const item = store.get(id);
  return item?.kind === 'text' ? item.text : undefined;
}

function fresh(seq = 5): TranscriptStore {
  const store = new TranscriptStore();
  store.reset(sampleRun(), { items: items(), seq });
  store.takeChanges();
  return store;
}

test('snapshot then patches in sequence', () => {
  const store = fresh();
  assert.deepEqual(store.applyPatches(6, [{ op: 'append', id: 'a', field: 'text', chunk: 'B' }]), { ok: true });
  assert.deepEqual(store.applyPatches(7, [{ op: 'append', id: 't', field: 'output', chunk: 'out' }, { op: 'update', id: 't', changes: { status: 'succeeded' } }]), { ok: true });
  assert.equal(store.seq, 8);
  assert.equal(textOf(store, 'a'), 'AB');
  const tool = store.get('t');
  assert.ok(tool?.kind === 'tool');
  assert.equal(tool.output, 'out');
  assert.equal(tool.status, 'succeeded');
  assert.equal(store.indexOf('m'), 2);
});

test('gaps and replays are refused without changing anything', () => {
  const store = fresh();
  assert.equal(store.applyPatches(7, [{ op: 'append', id: 'a', field: 'text', chunk: 'x' }]).ok, false);
  assert.equal(store.applyPatches(5, [{ op: 'append', id: 'a', field: 'text', chunk: 'x' }]).ok, false);
  assert.equal(textOf(store, 'a'), 'A');
  assert.equal(store.seq, 5);
});

test('a bad patch stops the batch; the valid prefix stays applied', () => {
  const store = fresh();
  const result = store.applyPatches(6, [
    { op: 'append', id: 'a', field: 'text', chunk: '1' },
    { op: 'append', id: 'zzz', field: 'text', chunk: '2' },
    { op: 'append', id: 'a', field: 'text', chunk: '3' },
  ]);
  assert.equal(result.ok, false);
  assert.equal(store.seq, 6);
  assert.equal(textOf(store, 'a'), 'A1');
});

test('changes record: appends to existing items are kept as chunks; new items only counted', () => {
  const store = fresh();
  store.applyPatches(6, [
    { op: 'append', id: 'a', field: 'text', chunk: 'x' },
    { op: 'append', id: 'a', field: 'text', chunk: 'y' },
    { op: 'add', item: { id: 'n', kind: 'text', text: '', streaming: true } },
    { op: 'append', id: 'n', field: 'text', chunk: 'new' },
    { op: 'append', id: 't', field: 'output', chunk: 'o' },
    { op: 'update', id: 't', changes: { status: 'failed' } },
  ]);
  const changes = store.takeChanges();
  assert.equal(changes.reset, false);
  assert.equal(changes.added, 1);
  assert.deepEqual([...(changes.items.get('a')?.appends.get('text') ?? [])], ['x', 'y']);
  assert.equal(changes.items.get('a')?.full, false);
  assert.equal(changes.items.has('n'), false);
  assert.equal(changes.items.get('t')?.full, true);
  assert.equal(store.takeChanges().items.size, 0);
});

test('run header updates only for the shown run', () => {
  const store = fresh();
  assert.equal(store.setRun(sampleRun({ key: 'other' })), false);
  assert.equal(store.setRun(sampleRun({ state: 'completed' })), true);
  assert.equal(store.run?.state, 'completed');
});
