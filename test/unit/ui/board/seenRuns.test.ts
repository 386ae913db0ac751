/** When the user last looked at each run: kept in the global state, read back after a reload, hostile values ignored. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcknowledgementMemento } from '../../../../extension/ui/board/boardAcknowledgements';
import { MAX_SEEN_FILES, MAX_SEEN_RUNS, SeenRuns } from '../../../../extension/ui/board/seenRuns';

const KEY = 'agentSwitchboard.board.seen';

function memento(initial: Record<string, unknown> = {}): AcknowledgementMemento & { readonly data: Record<string, unknown>; writes: number } {
  const data = { ...initial };
  const m = {
    data,
    writes: 0,
    get: <T>(key: string) => data[key] as T | undefined,
    update: (key: string, value: unknown) => {
      data[key] = JSON.parse(JSON.stringify(value)) as unknown; // what storage keeps is JSON
      m.writes += 1;
      return Promise.resolve();
    },
  };
  return m;
}

test('a run marked seen is known with its time and files by the next window (a reload)', () => {
  const m = memento();
  const seen = new SeenRuns(m, 100);
  let fired = 0;
  seen.onDidChange(() => fired++);
  assert.equal(seen.mark('c::r', new Map([['a.ts', 'aaaa0001']]), 500), true);
  assert.equal(fired, 1);
  const reloaded = new SeenRuns(m, 9999);
  assert.deepEqual(reloaded.get('c::r'), { at: 500, signatures: { 'a.ts': 'aaaa0001' } });
  assert.equal(reloaded.since, 100, 'when seen state began is kept, not reset by the reload');
});

test('marking again with nothing new writes nothing; a later look or other files do', () => {
  const m = memento();
  const seen = new SeenRuns(m, 0);
  seen.mark('c::r', new Map([['a.ts', '1']]), 500);
  const writes = m.writes;
  assert.equal(seen.mark('c::r', new Map([['a.ts', '1']]), 500), false);
  assert.equal(m.writes, writes);
  assert.equal(seen.mark('c::r', new Map([['a.ts', '2']]), 500), true);
  assert.equal(seen.mark('c::r', new Map([['a.ts', '2']]), 600), true);
  assert.equal(seen.get('c::r')?.at, 600);
});

test('a removed run is forgotten, and only the most recently seen runs and files are kept', () => {
  const m = memento();
  const seen = new SeenRuns(m, 0);
  seen.mark('c::gone', new Map(), 1);
  seen.forget('c::gone');
  assert.equal(new SeenRuns(m, 0).get('c::gone'), undefined);
  for (let i = 0; i <= MAX_SEEN_RUNS; i++) {
    seen.mark(`c::${i}`, new Map(), 10 + i);
  }
  assert.equal(seen.get('c::0'), undefined, 'the least recently seen went first');
  assert.notEqual(seen.get(`c::${MAX_SEEN_RUNS}`), undefined);
  const many = new Map(Array.from({ length: MAX_SEEN_FILES + 5 }, (_, i) => [`f${i}`, 'x'] as const));
  seen.mark('c::big', many, 5000);
  assert.equal(Object.keys(seen.get('c::big')!.signatures).length, MAX_SEEN_FILES);
});

test('what storage holds is a trust boundary: malformed state counts as nothing seen, a bad entry is dropped', () => {
  assert.equal(new SeenRuns(memento({ [KEY]: 'nonsense' }), 7).since, 7);
  const mixed = new SeenRuns(memento({ [KEY]: { since: 3, runs: { 'c::ok': { at: 4, signatures: { a: 'x', b: 5 } }, 'c::bad': { at: 'then' } } } }), 7);
  assert.equal(mixed.since, 3);
  assert.deepEqual(mixed.get('c::ok'), { at: 4, signatures: { a: 'x' } });
  assert.equal(mixed.get('c::bad'), undefined);
});
