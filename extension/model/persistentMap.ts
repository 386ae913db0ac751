/**
 * An immutable map with cheap updates, for the model's tables (issue #25 §2: replaying a run copied the map of every
 * run already loaded for each record, so opening N stored runs cost O(N²)). `set` and `delete` return a new map that
 * shares all but one path of a 32-way hash trie with the old one: O(log₃₂ n) slots copied, about 64 for 1,000 runs
 * where a `new Map(old)` copies 1,000 entries. The old map stays valid and unchanged — the reducer stays pure.
 *
 * It reads like a `ReadonlyMap` (the views iterate it as before) and iterates in insertion order like a `Map` (an
 * update keeps a key's place, a delete and re-add moves it to the end): the ordered view is built on the first
 * iteration of each map and kept with it, so a reducer that only reads and writes single keys never pays for it.
 */

import type { Branch, Entry, MapChange, Slot } from './hashTrie';
import { diffSlots, emptyBranch, entriesUnder, hashOf, indexAt, isLeaf, split } from './hashTrie';

export type { MapChange };

export class PersistentMap<K, V> implements ReadonlyMap<K, V> {
  private orderedView: Map<K, V> | undefined;

  private constructor(
    private readonly root: Branch<K, V>,
    readonly size: number,
    /** The next insertion's place (only grows). */
    private readonly nextOrder: number,
  ) {}

  static empty<K, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(emptyBranch<K, V>(), 0, 0);
  }

  /** The map as a PersistentMap: itself when it is one, else a copy (once: later updates of the copy are cheap). */
  static from<K, V>(map: ReadonlyMap<K, V>): PersistentMap<K, V> {
    if (map instanceof PersistentMap) {
      return map as PersistentMap<K, V>;
    }
    let out = PersistentMap.empty<K, V>();
    for (const [key, value] of map) {
      out = out.set(key, value);
    }
    return out;
  }

  get(key: K): V | undefined {
    return this.entryOf(key)?.value;
  }

  has(key: K): boolean {
    return this.entryOf(key) !== undefined;
  }

  /** A map with `key` set to `value` (this one when it already holds exactly that value). */
  set(key: K, value: V): PersistentMap<K, V> {
    const hash = hashOf(key);
    const existing = this.entryOf(key, hash);
    if (existing !== undefined && existing.value === value) {
      return this;
    }
    const entry: Entry<K, V> = { key, value, order: existing?.order ?? this.nextOrder };
    const root = this.put(this.root, entry, hash, 0) as Branch<K, V>;
    return new PersistentMap(root, this.size + (existing ? 0 : 1), existing ? this.nextOrder : this.nextOrder + 1);
  }

  /** A map without `key` (this one when it has none). */
  delete(key: K): PersistentMap<K, V> {
    const hash = hashOf(key);
    if (this.entryOf(key, hash) === undefined) {
      return this;
    }
    const root = this.remove(this.root, key, hash, 0) ?? emptyBranch<K, V>();
    return new PersistentMap(root as Branch<K, V>, this.size - 1, this.nextOrder);
  }

  /**
   * What differs between `older` and this map: each key added, changed (another value) or deleted, with its value
   * here (undefined: deleted) and there (undefined: added). The two tries are walked only where they are not shared,
   * so a map made from `older` by a few updates is compared in O(updates × depth), not O(size): a view that keeps
   * the map it last saw does work for what changed, never for every run (issue #25 §2).
   */
  changesSince(older: PersistentMap<K, V>): MapChange<K, V>[] {
    const out: MapChange<K, V>[] = [];
    diffSlots(this.root, older.root, out);
    return out;
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.ordered()) {
      callback.call(thisArg, value, key, this);
    }
  }

  entries(): MapIterator<[K, V]> {
    return this.ordered().entries();
  }

  keys(): MapIterator<K> {
    return this.ordered().keys();
  }

  values(): MapIterator<V> {
    return this.ordered().values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.ordered().entries();
  }

  private entryOf(key: K, hash = hashOf(key)): Entry<K, V> | undefined {
    let slot: Slot<K, V> | undefined = this.root;
    for (let depth = 0; slot !== undefined; depth++) {
      if (isLeaf(slot)) {
        return slot.hash === hash ? slot.entries.find((e) => e.key === key) : undefined;
      }
      slot = slot[indexAt(hash, depth)];
    }
    return undefined;
  }

  /** The slot with `entry` put in (path copied, everything else shared). */
  private put(slot: Slot<K, V> | undefined, entry: Entry<K, V>, hash: number, depth: number): Slot<K, V> {
    if (slot === undefined) {
      return { leaf: true, hash, entries: [entry] };
    }
    if (isLeaf(slot)) {
      if (slot.hash === hash) {
        const entries = slot.entries.filter((e) => e.key !== entry.key);
        entries.push(entry);
        return { leaf: true, hash, entries };
      }
      return split(slot, { leaf: true, hash, entries: [entry] }, depth);
    }
    const index = indexAt(hash, depth);
    const branch = slot.slice();
    branch[index] = this.put(slot[index], entry, hash, depth + 1);
    return branch;
  }

  /** The slot without `key` (undefined: nothing left in it). Empty branches are dropped on the way up. */
  private remove(slot: Slot<K, V> | undefined, key: K, hash: number, depth: number): Slot<K, V> | undefined {
    if (slot === undefined) {
      return undefined;
    }
    if (isLeaf(slot)) {
      const entries = slot.entries.filter((e) => e.key !== key);
      return entries.length === 0 ? undefined : { leaf: true, hash: slot.hash, entries };
    }
    const index = indexAt(hash, depth);
    const branch = slot.slice();
    branch[index] = this.remove(slot[index], key, hash, depth + 1);
    return depth > 0 && branch.every((s) => s === undefined) ? undefined : branch;
  }

  /** Insertion order, built once per map (it never changes). */
  private ordered(): Map<K, V> {
    if (this.orderedView === undefined) {
      const all = entriesUnder(this.root, []);
      all.sort((a, b) => a.order - b.order);
      this.orderedView = new Map(all.map((e) => [e.key, e.value]));
    }
    return this.orderedView;
  }
}

/**
 * What differs from `before` to `after` (`PersistentMap.changesSince` when both are persistent maps — the model's
 * tables always are — else a whole comparison).
 */
export function mapChanges<K, V>(after: ReadonlyMap<K, V>, before: ReadonlyMap<K, V>): MapChange<K, V>[] {
  if (after === before) {
    return [];
  }
  if (after instanceof PersistentMap && before instanceof PersistentMap) {
    return (after as PersistentMap<K, V>).changesSince(before as PersistentMap<K, V>);
  }
  const out: MapChange<K, V>[] = [];
  for (const [key, value] of after) {
    if (!before.has(key) || before.get(key) !== value) {
      out.push({ key, value, previous: before.get(key) });
    }
  }
  for (const [key, previous] of before) {
    if (!after.has(key)) {
      out.push({ key, value: undefined, previous });
    }
  }
  return out;
}
