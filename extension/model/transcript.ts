/**
 * One run's transcript: items in order plus an id index, changed only by patches. Applying a patch is O(1) (plus
 * the chunk for appends), so streaming cost does not grow with the transcript. Every applied patch gets the next
 * sequence number, which the webview uses to detect gaps.
 */
import type { TranscriptItem, TranscriptPatch } from '../protocol/transcriptTypes';

export class PatchError extends Error {}

export class Transcript {
  private readonly items: TranscriptItem[] = [];
  private readonly index = new Map<string, number>();
  private patchSeq = 0;

  get length(): number {
    return this.items.length;
  }

  /** Sequence number of the last applied patch (0 = none). */
  get seq(): number {
    return this.patchSeq;
  }

  get(id: string): TranscriptItem | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.items[i];
  }

  at(i: number): TranscriptItem | undefined {
    return this.items[i];
  }

  /** A copy of the items for a snapshot (the only O(n) operation, done on view open or resync). */
  snapshot(): TranscriptItem[] {
    return this.items.slice();
  }

  apply(patch: TranscriptPatch): number {
    switch (patch.op) {
      case 'add': {
        if (this.index.has(patch.item.id)) {
          throw new PatchError(`duplicate transcript item id ${patch.item.id}`);
        }
        this.index.set(patch.item.id, this.items.length);
        this.items.push(patch.item);
        break;
      }
      case 'append': {
        const i = this.requireIndex(patch.id);
        const item = this.items[i] as Record<string, unknown>;
        const current = item[patch.field];
        if (typeof current !== 'string') {
          throw new PatchError(`item ${patch.id} has no text field ${patch.field}`);
        }
        // Strings are immutable; V8 represents repeated concatenation as a rope, so this stays O(chunk). (A literal
        // key per field keeps the copy on V8's fast object-clone path; a computed key does not.)
        const grown = current + patch.chunk;
        this.items[i] = (patch.field === 'text' ? { ...item, text: grown } : { ...item, output: grown }) as TranscriptItem;
        break;
      }
      case 'update': {
        const i = this.requireIndex(patch.id);
        const merged: Record<string, unknown> = { ...this.items[i] };
        for (const [k, v] of Object.entries(patch.changes)) {
          if (k === 'id' || k === 'kind') {
            continue;
          }
          if (v === undefined || v === null) {
            delete merged[k];
          } else {
            merged[k] = v;
          }
        }
        this.items[i] = merged as TranscriptItem;
        break;
      }
      default: {
        const _exhaustive: never = patch;
        return _exhaustive;
      }
    }
    this.patchSeq += 1;
    return this.patchSeq;
  }

  private requireIndex(id: string): number {
    const i = this.index.get(id);
    if (i === undefined) {
      throw new PatchError(`no transcript item ${id}`);
    }
    return i;
  }
}
