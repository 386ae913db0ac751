/**
 * The 32-way hash trie under PersistentMap (persistentMap.ts): its nodes, the hash of a key, and the walk that lists
 * what differs between two tries — skipping every subtree the two share, which is what makes a change list cost
 * what changed, not the size of the map.
 */

/** One key, its value and its place in insertion order. */
export interface Entry<K, V> {
  readonly key: K;
  readonly value: V;
  readonly order: number;
}

/** Keys whose hashes agree on every level (or fully): a short list. */
interface Leaf<K, V> {
  readonly leaf: true;
  readonly hash: number;
  readonly entries: readonly Entry<K, V>[];
}

/** 32 slots indexed by 5 bits of the hash at this depth. */
export type Branch<K, V> = readonly (Slot<K, V> | undefined)[];
export type Slot<K, V> = Leaf<K, V> | Branch<K, V>;

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
/** Past this depth every 32-bit hash is used up: colliding keys share one leaf. */
const MAX_DEPTH = Math.ceil(32 / BITS);

export function isLeaf<K, V>(slot: Slot<K, V>): slot is Leaf<K, V> {
  return (slot as Leaf<K, V>).leaf === true;
}

/** FNV-1a over UTF-16 units for strings; other keys by their string form (the model keys by strings). */
export function hashOf(key: unknown): number {
  const text = typeof key === 'string' ? key : String(key);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function indexAt(hash: number, depth: number): number {
  return (hash >>> (depth * BITS)) & MASK;
}

export function emptyBranch<K, V>(): (Slot<K, V> | undefined)[] {
  return new Array<Slot<K, V> | undefined>(WIDTH).fill(undefined);
}

/** A branch holding two leaves whose hashes differ (split down until their indexes part). */
export function split<K, V>(a: Leaf<K, V>, b: Leaf<K, V>, depth: number): Slot<K, V> {
  if (depth >= MAX_DEPTH) {
    return { leaf: true, hash: a.hash, entries: [...a.entries, ...b.entries] };
  }
  const branch = emptyBranch<K, V>();
  const ia = indexAt(a.hash, depth);
  const ib = indexAt(b.hash, depth);
  if (ia === ib) {
    branch[ia] = split(a, b, depth + 1);
  } else {
    branch[ia] = a;
    branch[ib] = b;
  }
  return branch;
}

/** One key that differs between two maps (`PersistentMap.changesSince`). */
export interface MapChange<K, V> {
  readonly key: K;
  /** Its value in the newer map; undefined: deleted. */
  readonly value: V | undefined;
  /** Its value in the older map; undefined: added. */
  readonly previous: V | undefined;
}

/** Every entry under a slot. */
export function entriesUnder<K, V>(slot: Slot<K, V> | undefined, out: Entry<K, V>[]): Entry<K, V>[] {
  if (slot === undefined) {
    return out;
  }
  if (isLeaf(slot)) {
    out.push(...slot.entries);
  } else {
    slot.forEach((child) => entriesUnder(child, out));
  }
  return out;
}

/** The differences between two slots at the same place of two tries; a slot both share is skipped whole. */
export function diffSlots<K, V>(now: Slot<K, V> | undefined, before: Slot<K, V> | undefined, out: MapChange<K, V>[]): void {
  if (now === before) {
    return;
  }
  if (now !== undefined && before !== undefined && !isLeaf(now) && !isLeaf(before)) {
    for (let i = 0; i < WIDTH; i++) {
      diffSlots(now[i], before[i], out);
    }
    return;
  }
  if (before === undefined) {
    entriesUnder(now, []).forEach(({ key, value }) => out.push({ key, value, previous: undefined }));
    return;
  }
  if (now === undefined) {
    entriesUnder(before, []).forEach(({ key, value }) => out.push({ key, value: undefined, previous: value }));
    return;
  }
  // A leaf on either side: few entries, compared by key.
  const older = new Map(entriesUnder(before, []).map((e) => [e.key, e.value]));
  for (const { key, value } of entriesUnder(now, [])) {
    const previous = older.get(key);
    if (!older.has(key) || previous !== value) {
      out.push({ key, value, previous });
    }
    older.delete(key);
  }
  older.forEach((previous, key) => out.push({ key, value: undefined, previous }));
}
