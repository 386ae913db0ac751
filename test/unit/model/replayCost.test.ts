/**
 * Issue #25 §2: replaying a run must cost the same whatever number of other runs is loaded. Counted, not timed:
 * every entry a Map takes (`Map.prototype.set`, which `new Map(old)` calls once per entry it copies) and every entry
 * read out of a Map iterator — the two ways a table copy or scan shows up.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunEvent } from '../../../extension/model/modelActions';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';

const mapIteratorPrototype = Object.getPrototypeOf(new Map().entries()) as { next: (...args: unknown[]) => unknown };

/** How many Map entries were written or iterated while `work` ran. */
function mapOperations(work: () => void): number {
  const realSet = Map.prototype.set;
  const realNext = mapIteratorPrototype.next;
  let count = 0;
  Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    count += 1;
    return realSet.call(this, key, value);
  };
  mapIteratorPrototype.next = function (this: unknown, ...args: unknown[]) {
    count += 1;
    return realNext.apply(this, args);
  };
  try {
    work();
  } finally {
    Map.prototype.set = realSet;
    mapIteratorPrototype.next = realNext;
  }
  return count;
}

/** A store holding `others` finished runs, and a replay of 300 records into one more run. */
function replayBeside(others: number): number {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'agency-proxy' } });
  for (let i = 0; i < others; i++) {
    store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: `old-${i}`, fields: { title: `Old ${i}`, state: 'completed', createdAt: i } });
  }
  const key = runKeyOf('c', 'replayed');
  const events: RunEvent[] = [];
  for (let i = 0; i < 50; i++) {
    events.push(
      { kind: 'userPrompt', text: `ask ${i}` },
      { kind: 'textDelta', text: 'thinking ' },
      { kind: 'toolCall', callId: `t${i}`, name: 'read', input: { path: 'a' } },
      { kind: 'toolResult', callId: `t${i}`, ok: true, output: 'done' },
      { kind: 'approvalRequested', approvalId: `a${i}`, title: 'Edit', detail: null, options: ['allow_once', 'deny'] },
      { kind: 'approvalSettled', approvalId: `a${i}`, decision: 'allow_once', by: 'daemon' },
    );
  }
  const release = store.holdChanges();
  const count = mapOperations(() => {
    store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'replayed', fields: { title: 'Replayed', state: 'completed', createdAt: 5 } });
    events.forEach((event, i) => store.dispatch({ type: 'runEvent', runKey: key, sequence: i + 1, event, restored: true }));
  });
  release();
  assert.equal(store.transcript(key)?.length, 200, 'the replay produced its items');
  return count;
}

test('replaying a run beside 1,000 loaded runs does the same map work as beside 10', () => {
  const small = replayBeside(10);
  const large = replayBeside(1000);
  assert.ok(small > 0, 'the counter sees the replay');
  assert.equal(large, small, `map entries written or iterated: ${large} beside 1,000 runs, ${small} beside 10`);
});
