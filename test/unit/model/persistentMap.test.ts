import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapChanges, PersistentMap } from '../../../extension/model/persistentMap';

/** A small deterministic generator: the same sequence of operations on every run of the test. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

test('reads, writes and iterates like a Map, in insertion order, over thousands of random operations', () => {
  const next = random(7);
  const reference = new Map<string, number>();
  let map = PersistentMap.empty<string, number>();
  for (let i = 0; i < 5000; i++) {
    const key = `c::run-${Math.floor(next() * 600)}`;
    if (next() < 0.3) {
      reference.delete(key);
      map = map.delete(key);
    } else {
      reference.set(key, i);
      map = map.set(key, i);
    }
    if (i % 500 === 0) {
      assert.deepEqual([...map], [...reference], `entries after ${i} operations`);
    }
  }
  assert.equal(map.size, reference.size);
  assert.deepEqual([...map.keys()], [...reference.keys()]);
  assert.deepEqual([...map.values()], [...reference.values()]);
  for (const key of reference.keys()) {
    assert.equal(map.get(key), reference.get(key));
    assert.ok(map.has(key));
  }
  assert.equal(map.has('c::run-none'), false);
  const seen: string[] = [];
  map.forEach((_, key) => seen.push(key));
  assert.deepEqual(seen, [...reference.keys()]);
});

test('an update returns a new map and leaves the old one as it was', () => {
  const a = PersistentMap.empty<string, string>().set('x', '1').set('y', '2');
  const b = a.set('x', '3');
  const c = b.delete('y');
  assert.deepEqual([...a], [['x', '1'], ['y', '2']]);
  assert.deepEqual([...b], [['x', '3'], ['y', '2']], 'an update keeps the key in its place');
  assert.deepEqual([...c], [['x', '3']]);
  assert.equal(a.set('x', '1'), a, 'setting the value it holds returns the same map');
  assert.equal(a.delete('z'), a, 'deleting a key it does not hold returns the same map');
  assert.deepEqual([...c.set('y', '4')], [['x', '3'], ['y', '4']], 'a deleted key added again goes last');
});

test('keys whose hashes collide are all kept', () => {
  // FNV-1a over UTF-16 units: 32-bit collisions are found by brute force on short keys; any pair will do.
  const byHash = new Map<number, string>();
  let pair: [string, string] | undefined;
  const hash = (text: string): number => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  };
  for (let i = 0; pair === undefined && i < 300_000; i++) {
    const key = `k${i}`;
    const h = hash(key) & 0xfffff; // agree on the first 4 levels: still exercises the deep split
    const other = byHash.get(h);
    if (other !== undefined) {
      pair = [other, key];
    }
    byHash.set(h, key);
  }
  assert.ok(pair, 'a pair sharing 20 bits of hash');
  const map = PersistentMap.empty<string, number>().set(pair[0], 1).set(pair[1], 2);
  assert.equal(map.get(pair[0]), 1);
  assert.equal(map.get(pair[1]), 2);
  assert.deepEqual([...map.delete(pair[0])], [[pair[1], 2]]);
});

test('from() takes a Map once and keeps its order; a PersistentMap is taken as it is', () => {
  const source = new Map([['b', 1], ['a', 2]]);
  const map = PersistentMap.from(source);
  assert.deepEqual([...map], [['b', 1], ['a', 2]]);
  assert.equal(PersistentMap.from(map), map);
});

test('changesSince finds exactly the keys added, changed and deleted, against a whole comparison, over random updates', () => {
  const next = random(11);
  let map = PersistentMap.empty<string, number>();
  for (let i = 0; i < 1000; i++) {
    map = map.set(`c::run-${i}`, i);
  }
  for (let round = 0; round < 200; round++) {
    const before = map;
    const reference = new Map(before);
    const updates = 1 + Math.floor(next() * 8);
    for (let u = 0; u < updates; u++) {
      const key = `c::run-${Math.floor(next() * 1200)}`;
      if (next() < 0.3) {
        map = map.delete(key);
        reference.delete(key);
      } else {
        const value = Math.floor(next() * 5); // often the same value again: no change
        map = map.set(key, value);
        reference.set(key, value);
      }
    }
    const expected = mapChanges(reference, new Map(before)).map((c) => JSON.stringify(c)).sort();
    const found = map.changesSince(before).map((c) => JSON.stringify(c)).sort();
    assert.deepEqual(found, expected, `round ${round}`);
    assert.ok(found.length <= updates);
  }
  assert.deepEqual(map.changesSince(map), []);
});
