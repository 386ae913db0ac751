import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DraftStore, MAX_DRAFT_CHARS, MAX_RUNS } from '../../../extension/ui/draftStore';

/** A Memento that keeps values in a Map and counts writes. */
class FakeMemento {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

test('drafts persist across instances; an empty text forgets the draft', async () => {
  const memento = new FakeMemento();
  const drafts = new DraftStore(memento);
  drafts.set('a::1', 'hello');
  drafts.set('a::2', 'world');
  drafts.set('a::2', '');
  await drafts.flush();
  const again = new DraftStore(memento);
  assert.equal(again.get('a::1'), 'hello');
  assert.equal(again.get('a::2'), '');
});

test('writes are debounced: a burst of changes is one write', async () => {
  const memento = new FakeMemento();
  const drafts = new DraftStore(memento);
  for (let i = 0; i < 20; i++) {
    drafts.set('a::1', `text ${i}`);
  }
  await drafts.flush();
  assert.equal(memento.writes, 1);
  await drafts.flush();
  assert.equal(memento.writes, 1, 'nothing pending, nothing written');
  assert.equal(new DraftStore(memento).get('a::1'), 'text 19');
});

test('bounded: the least recently typed drafts go first, and a draft is clipped', async () => {
  const memento = new FakeMemento();
  let now = 0;
  const drafts = new DraftStore(memento, () => ++now);
  for (let i = 0; i < MAX_RUNS + 5; i++) {
    drafts.set(`a::${i}`, `draft ${i}`);
  }
  drafts.set('a::0', 'typed again, kept'); // evicted above, now the newest
  drafts.set('a::big', 'x'.repeat(MAX_DRAFT_CHARS + 10));
  await drafts.flush();
  const again = new DraftStore(memento);
  assert.equal(again.get('a::0'), 'typed again, kept');
  assert.equal(again.get('a::1'), '');
  assert.equal(again.get('a::6'), '', 'made room for the two newer drafts');
  assert.equal(again.get('a::7'), 'draft 7');
  assert.equal(again.get(`a::${MAX_RUNS + 4}`), `draft ${MAX_RUNS + 4}`);
  assert.equal(again.get('a::big').length, MAX_DRAFT_CHARS);
  const stored = memento.get<{ drafts: Record<string, unknown> }>('agentSwitchboard.drafts');
  assert.equal(Object.keys(stored?.drafts ?? {}).length, MAX_RUNS);
});

test('malformed stored state is dropped, not thrown', () => {
  const memento = new FakeMemento();
  memento.values.set('agentSwitchboard.drafts', { v: 1, drafts: { 'a::1': { text: 3 }, 'a::2': 'str', 'a::3': { text: 'ok', touched: 'x' } } });
  const drafts = new DraftStore(memento);
  assert.equal(drafts.get('a::1'), '');
  assert.equal(drafts.get('a::2'), '');
  assert.equal(drafts.get('a::3'), 'ok');
  memento.values.set('agentSwitchboard.drafts', 'garbage');
  assert.equal(new DraftStore(memento).get('a::3'), '');
});

test('a change is announced with who made it; an unchanged text is not', () => {
  const drafts = new DraftStore(new FakeMemento());
  const seen: { runKey: string; text: string; origin: unknown }[] = [];
  drafts.onDidChange((change) => seen.push(change));
  const surface = {};
  drafts.set('a::1', 'hi', surface);
  drafts.set('a::1', 'hi', surface);
  drafts.set('a::1', '');
  assert.deepEqual(seen, [
    { runKey: 'a::1', text: 'hi', origin: surface },
    { runKey: 'a::1', text: '', origin: undefined },
  ]);
  drafts.dispose();
});
