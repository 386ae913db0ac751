import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunEvent } from '../../../extension/model/modelActions';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { PatchEvent } from '../../../extension/model/runStore';
import { RunStore } from '../../../extension/model/runStore';
import { transcriptItemSchema } from '../../../extension/protocol/transcriptTypes';

function setup() {
  const errors: unknown[] = [];
  const store = new RunStore(() => 1000, (e) => errors.push(e));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { title: 'Fix it', state: 'running' } });
  const key = runKeyOf('c', 'r1');
  const patches: PatchEvent[] = [];
  store.onDidPatch((p) => patches.push(p));
  let seq = 0;
  const ev = (event: RunEvent, sequence = ++seq) => store.dispatch({ type: 'runEvent', runKey: key, sequence, event });
  return { store, key, patches, ev, errors };
}

test('streamed text becomes one item grown by append patches', () => {
  const { store, key, patches, ev } = setup();
  ev({ kind: 'textDelta', text: 'Hel' });
  ev({ kind: 'textDelta', text: 'lo ' });
  ev({ kind: 'textDelta', text: 'world' });
  ev({ kind: 'messageBoundary' });
  const t = store.transcript(key)!;
  assert.equal(t.length, 1);
  assert.deepEqual(t.at(0), { id: 'x0', kind: 'text', text: 'Hello world', streaming: false });
  assert.deepEqual(
    patches.map((p) => p.patch.op),
    ['add', 'append', 'append', 'update'],
  );
  assert.deepEqual(patches.map((p) => p.seq), [1, 2, 3, 4]);
});

test('events at or below the last sequence are dropped; a jump records a gap', () => {
  const { store, key, ev } = setup();
  ev({ kind: 'textDelta', text: 'a' }, 1);
  ev({ kind: 'textDelta', text: 'a' }, 1);
  ev({ kind: 'textDelta', text: 'b' }, 2);
  ev({ kind: 'textDelta', text: 'c' }, 5);
  const t = store.transcript(key)!.snapshot();
  assert.equal(store.state.runs.get(key)!.lastSequence, 5);
  assert.deepEqual(t.map((i) => i.kind), ['text', 'gap', 'text']);
  assert.equal((t[0] as { text: string }).text, 'ab');
  assert.deepEqual(t[1], { id: 'g1', kind: 'gap', from: 3, to: 4, reason: 'not in the daemon journal any more' });
});

test('tool calls pair with results by id, and anonymous ones by order', () => {
  const { store, key, ev } = setup();
  ev({ kind: 'toolCall', callId: 'c1', name: 'Read', input: { file_path: 'a.ts' } });
  ev({ kind: 'toolCall', callId: null, name: 'Bash', input: { command: 'ls' } });
  ev({ kind: 'toolResult', callId: null, ok: false, output: 'denied' });
  ev({ kind: 'toolResult', callId: 'c1', ok: true, output: 'contents' });
  ev({ kind: 'toolResult', callId: 'ghost', ok: null, output: 'orphan' });
  const items = store.transcript(key)!.snapshot();
  assert.deepEqual(
    items.map((i) => (i.kind === 'tool' ? [i.name, i.status, i.output] : i.kind)),
    [
      ['Read', 'succeeded', 'contents'],
      ['Bash', 'failed', 'denied'],
      ['tool', 'unknown', 'orphan'],
    ],
  );
  assert.equal(store.state.runs.get(key)!.openTools.size, 0);
});

test('approvals are tracked, replays do not duplicate them, and they settle once', () => {
  const { store, key, ev } = setup();
  const request: RunEvent = { kind: 'approvalRequested', approvalId: 'ap1', title: 'Edit', detail: { file_path: 'a' }, options: ['allow_once', 'allow_similar', 'deny'] };
  ev(request, 1);
  ev(request, 2); // e.g. a replay after reconnect under a new sequence
  assert.deepEqual(store.state.runs.get(key)!.pendingApprovals, ['ap1']);
  assert.equal(store.transcript(key)!.length, 1);
  ev({ kind: 'approvalSettled', approvalId: 'ap1', decision: 'deny' }, 3);
  ev({ kind: 'approvalSettled', approvalId: 'ap1', decision: 'allow_once' }, 4);
  const approval = [...store.state.approvals.values()][0]!;
  assert.equal(approval.status, 'decided');
  assert.equal(approval.decision, 'deny');
  assert.deepEqual(store.state.runs.get(key)!.pendingApprovals, []);
  const card = store.transcript(key)!.at(0)!;
  assert.equal(card.kind === 'approval' && card.decision, 'deny');
});

test('every item produced is valid against the shared schema', () => {
  const { store, key, ev } = setup();
  const events: RunEvent[] = [
    { kind: 'userPrompt', text: 'do it' },
    { kind: 'reasoningDelta', text: 'thinking' },
    { kind: 'textDelta', text: 'ok' },
    { kind: 'textCompleted', text: 'OK!' },
    { kind: 'toolStarted', callId: 'z', name: 'bash' },
    { kind: 'toolProgress', callId: 'z', text: '50%' },
    { kind: 'toolOutputDelta', callId: 'z', delta: 'out' },
    { kind: 'toolResult', callId: 'z', ok: false, output: 'x', errorKind: 'denied', truncated: true },
    { kind: 'data', dataKind: 'usage', data: { input_tokens: 3 }, summary: '3 in' },
    { kind: 'error', message: 'boom', code: 'internal' },
    { kind: 'notice', text: 'reconnected', level: 'info' },
    { kind: 'stateChanged', state: 'completed', announce: true },
    { kind: 'turn', turnId: 't1', phase: 'failed', code: 'step_limit', message: 'too many' },
    { kind: 'message', from: 'ruth', body: 'hi', messageId: '4', inReplyTo: '3' },
    { kind: 'raw', label: 'future_event', data: { x: 1 } },
  ];
  for (const e of events) {
    ev(e);
  }
  const items = store.transcript(key)!.snapshot();
  for (const item of items) {
    assert.ok(transcriptItemSchema.safeParse(item).success, JSON.stringify(item));
  }
  const tool = items.find((i) => i.kind === 'tool');
  assert.ok(tool && tool.kind === 'tool' && tool.progress === undefined && tool.errorKind === 'denied' && tool.output === 'x');
  assert.equal(store.state.runs.get(key)!.state, 'completed');
});

/**
 * The work one dispatch does, without a clock: every element that built-in Array/Map operations visit while `fn`
 * runs (copies, spreads, scans, iteration). An O(n) copy or scan of the transcript shows up as ≥ n here.
 */
function collectionWork(fn: () => void): number {
  let visited = 0;
  const restore: (() => void)[] = [];
  const meter = (proto: object, name: string | symbol, size: (self: unknown) => number): void => {
    const target = proto as Record<string | symbol, unknown>;
    const original = target[name] as (...args: unknown[]) => unknown;
    target[name] = function (this: unknown, ...args: unknown[]) {
      visited += size(this);
      return original.apply(this, args);
    };
    restore.push(() => (target[name] = original));
  };
  const arrayLength = (self: unknown) => (self as unknown[]).length;
  const mapSize = (self: unknown) => (self as Map<unknown, unknown>).size;
  for (const name of ['slice', 'map', 'filter', 'forEach', 'concat', 'indexOf', 'includes', 'find', 'findIndex', 'some', 'every', 'reduce', 'join', 'flatMap', 'values', 'entries']) {
    meter(Array.prototype, name, arrayLength);
  }
  meter(Array.prototype, Symbol.iterator, arrayLength);
  for (const name of [Symbol.iterator, 'forEach', 'entries', 'values', 'keys']) {
    meter(Map.prototype, name, mapSize);
  }
  try {
    fn();
  } finally {
    restore.reverse().forEach((r) => r());
  }
  return visited;
}

/** Collection work and patches of one streamed chunk appended to an open text item after `length` items. */
function oneDelta(length: number): { work: number; patches: unknown[]; itemsReplaced: number } {
  const { store, key } = setup();
  for (let i = 0; i < length; i++) {
    store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'raw', label: 'filler', data: i } });
  }
  store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'textDelta', text: 'a' } });
  const before = store.transcript(key)!.snapshot();
  const patches: unknown[] = [];
  store.onDidPatch((p) => patches.push(p.patch));
  const work = collectionWork(() => store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'textDelta', text: 'b' } }));
  const after = store.transcript(key)!.snapshot();
  assert.equal(after.length, length + 1);
  const itemsReplaced = after.filter((item, i) => item !== before[i]).length;
  return { work, patches, itemsReplaced };
}

test('streaming cost does not depend on transcript length', () => {
  // The meter does see O(n) work: a snapshot of a 1000-item transcript visits every item.
  const { store, key } = setup();
  for (let i = 0; i < 1000; i++) {
    store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'raw', label: 'filler', data: i } });
  }
  assert.ok(collectionWork(() => store.transcript(key)!.snapshot()) >= 1000, 'the meter counts a copy of the items');
  const items = store.transcript(key)!.snapshot();
  assert.ok(collectionWork(() => void [...items]) >= 1000, 'the meter counts a spread');
  const byId = new Map(items.map((i) => [i.id, i]));
  assert.ok(collectionWork(() => void new Map(byId)) >= 1000, 'the meter counts a Map copy');

  const short = oneDelta(10);
  const long = oneDelta(100_000);
  assert.equal(long.work, short.work, `collection work per delta: ${short.work} at 10 items, ${long.work} at 100k`);
  assert.ok(short.work < 50, `a delta does a small constant amount of work (${short.work})`);
  // The patch carries the chunk, not the text so far (its size does not grow either).
  assert.deepEqual(short.patches, [{ op: 'append', id: 'x10', field: 'text', chunk: 'b' }]);
  assert.deepEqual(long.patches, [{ op: 'append', id: 'x100000', field: 'text', chunk: 'b' }]);
  assert.deepEqual([short.itemsReplaced, long.itemsReplaced], [1, 1], 'only the open text item changes');
});

test('holdChanges: one onDidChange with the final state when the last hold is released; patches meanwhile as usual', () => {
  const store = new RunStore();
  const changes: number[] = [];
  let patches = 0;
  store.onDidChange((state) => changes.push(state.connections.size));
  store.onDidPatch(() => patches++);
  const outer = store.holdChanges();
  const inner = store.holdChanges();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c1', name: 'one', protocol: 'scv' } });
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c2', name: 'two', protocol: 'scv' } });
  inner();
  inner(); // a second call of the same release counts once
  assert.deepEqual(changes, []);
  outer();
  assert.deepEqual(changes, [2]);
  const idle = store.holdChanges();
  idle();
  assert.deepEqual(changes, [2], 'nothing changed under that hold: no event');
  assert.equal(patches, 0);
});
