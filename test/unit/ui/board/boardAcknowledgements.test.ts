/** The runs dealt with stay dealt with: kept in the global state, read back after a reload, hostile values ignored. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcknowledgementMemento } from '../../../../extension/ui/board/boardAcknowledgements';
import { BoardAcknowledgements, MAX_ACKNOWLEDGED } from '../../../../extension/ui/board/boardAcknowledgements';

function memento(initial: Record<string, unknown> = {}): AcknowledgementMemento & { readonly data: Record<string, unknown> } {
  const data = { ...initial };
  return {
    data,
    get: <T>(key: string) => data[key] as T | undefined,
    update: (key: string, value: unknown) => {
      data[key] = value;
      return Promise.resolve();
    },
  };
}

test('an acknowledged run is stored and known again by the next window (a reload)', () => {
  const m = memento();
  const first = new BoardAcknowledgements(m);
  assert.equal(first.add('c::lost'), true);
  assert.equal(first.add('c::lost'), false, 'once');
  const afterReload = new BoardAcknowledgements(m);
  assert.equal(afterReload.has('c::lost'), true);
  assert.deepEqual([...afterReload.set], ['c::lost']);
});

test('what storage holds is a trust boundary: only strings count', () => {
  assert.deepEqual([...new BoardAcknowledgements(memento({ 'agentSwitchboard.board.acknowledged': { a: 1 } })).set], []);
  assert.deepEqual([...new BoardAcknowledgements(memento({ 'agentSwitchboard.board.acknowledged': ['a', 2, null, 'b'] })).set], ['a', 'b']);
});

test('the list is bounded: the oldest falls off first', () => {
  const m = memento();
  const acks = new BoardAcknowledgements(m);
  for (let i = 0; i <= MAX_ACKNOWLEDGED; i++) {
    acks.add(`c::r${i}`);
  }
  assert.equal(acks.set.size, MAX_ACKNOWLEDGED);
  assert.equal(acks.has('c::r0'), false);
  assert.equal(acks.has(`c::r${MAX_ACKNOWLEDGED}`), true);
  assert.equal((m.data['agentSwitchboard.board.acknowledged'] as string[]).length, MAX_ACKNOWLEDGED);
});

test('a removed run is forgotten, in the global state too (ui/removedRuns.ts)', () => {
  const m = memento();
  const acks = new BoardAcknowledgements(m);
  acks.add('c::a');
  acks.add('c::b');
  acks.forget('c::a');
  assert.deepEqual([...acks.set], ['c::b']);
  assert.deepEqual(m.data['agentSwitchboard.board.acknowledged'], ['c::b']);
  assert.deepEqual([...new BoardAcknowledgements(m).set], ['c::b'], 'and after a reload');
});
