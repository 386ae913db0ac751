/**
 * How a transcript patch changes a transcript: the one definition, used by the host's `Transcript`
 * (extension/model/transcript.ts) and the webview's `TranscriptStore` (webview/transcriptStore.ts). Pure: it reads
 * the list through `PatchTarget` and returns the item to store and where; each side keeps its own bookkeeping
 * (indices, sequence numbers, validation, change records) around it.
 *
 * - `add` appends a new item at the end; its id must not be in the list.
 * - `append` grows the string field `text` or `output` of an existing item by `chunk`.
 * - `update` merges `changes` into an existing item: a `null` or `undefined` value removes the field. `id` and
 *   `kind` never change: the same value is ignored, a different one (or a removal) refuses the patch.
 *
 * No imports beyond types: shared with the webview bundle.
 */
import type { TranscriptItem, TranscriptPatch } from './transcriptTypes';

/** Read access to a transcript's items: position of an id, item at a position. */
export interface PatchTarget {
  indexOf(id: string): number | undefined;
  at(index: number): TranscriptItem | undefined;
}

/** What applying one patch means: a new item at the end, a replacement at `index`, or why it does not apply. */
export type PatchStep =
  | { readonly ok: true; readonly op: 'add'; readonly item: TranscriptItem }
  | { readonly ok: true; readonly op: 'append' | 'update'; readonly index: number; readonly item: TranscriptItem }
  | { readonly ok: false; readonly reason: string };

/** `item` with `chunk` appended to its string field `field`, or the reason it has no such field. */
export function appendToItem(
  item: TranscriptItem,
  field: 'text' | 'output',
  chunk: string,
): { readonly ok: true; readonly item: TranscriptItem } | { readonly ok: false; readonly reason: string } {
  const record = item as Record<string, unknown>;
  const current = record[field];
  if (typeof current !== 'string') {
    return { ok: false, reason: `item ${item.id} has no ${field} text` };
  }
  // Strings are immutable; engines represent repeated concatenation as a rope, so this stays O(chunk). (A literal
  // key per field keeps the copy on V8's fast object-clone path; a computed key does not.)
  const grown = current + chunk;
  return { ok: true, item: (field === 'text' ? { ...record, text: grown } : { ...record, output: grown }) as TranscriptItem };
}

/** `item` with `changes` merged in: `null`/`undefined` remove a field; `id` and `kind` stay (see `applyPatch`). */
export function mergeIntoItem(item: TranscriptItem, changes: Readonly<Record<string, unknown>>): TranscriptItem {
  const merged: Record<string, unknown> = { ...item };
  for (const [k, v] of Object.entries(changes)) {
    if (k === 'id' || k === 'kind') {
      continue;
    }
    if (v === undefined || v === null) {
      delete merged[k];
    } else {
      merged[k] = v;
    }
  }
  return merged as TranscriptItem;
}

/** What `patch` does to the list behind `target` (the list itself is not touched). */
export function applyPatch(target: PatchTarget, patch: TranscriptPatch): PatchStep {
  switch (patch.op) {
    case 'add': {
      if (target.indexOf(patch.item.id) !== undefined) {
        return { ok: false, reason: `duplicate item id ${patch.item.id}` };
      }
      return { ok: true, op: 'add', item: patch.item };
    }
    case 'append': {
      const found = find(target, patch.id);
      if (!found) {
        return { ok: false, reason: `append to unknown item ${patch.id}` };
      }
      const grown = appendToItem(found.item, patch.field, patch.chunk);
      return grown.ok ? { ok: true, op: 'append', index: found.index, item: grown.item } : grown;
    }
    case 'update': {
      const found = find(target, patch.id);
      if (!found) {
        return { ok: false, reason: `update of unknown item ${patch.id}` };
      }
      for (const fixed of ['id', 'kind'] as const) {
        if (fixed in patch.changes && patch.changes[fixed] !== found.item[fixed]) {
          return { ok: false, reason: `update changes the ${fixed} of ${patch.id}` };
        }
      }
      return { ok: true, op: 'update', index: found.index, item: mergeIntoItem(found.item, patch.changes) };
    }
    default: {
      const _exhaustive: never = patch;
      return _exhaustive;
    }
  }
}

function find(target: PatchTarget, id: string): { readonly index: number; readonly item: TranscriptItem } | undefined {
  const index = target.indexOf(id);
  const item = index === undefined ? undefined : target.at(index);
  return index === undefined || !item ? undefined : { index, item };
}

/**
 * A plain list with patches applied in order (a new array; the input is not changed), stopping at the first patch
 * that does not apply. The reference fold for tests and tools; the stores do the same in O(1) per patch.
 */
export function applyPatchesToList(
  items: readonly TranscriptItem[],
  patches: Iterable<TranscriptPatch>,
): { readonly items: TranscriptItem[]; readonly applied: number; readonly rejected?: string } {
  const list = items.slice();
  const index = new Map(list.map((item, i) => [item.id, i]));
  const target: PatchTarget = { indexOf: (id) => index.get(id), at: (i) => list[i] };
  let applied = 0;
  for (const patch of patches) {
    const step = applyPatch(target, patch);
    if (!step.ok) {
      return { items: list, applied, rejected: step.reason };
    }
    if (step.op === 'add') {
      index.set(step.item.id, list.length);
      list.push(step.item);
    } else {
      list[step.index] = step.item;
    }
    applied++;
  }
  return { items: list, applied };
}
