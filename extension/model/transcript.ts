/**
 * One run's transcript: items in order plus an id index, changed only by patches. Applying a patch is O(1) (plus
 * the chunk for appends), so streaming cost does not grow with the transcript. What a patch does is defined once, in
 * extension/protocol/transcriptPatch.ts (shared with the webview's store); this class keeps the index and the
 * sequence. Every applied patch gets the next sequence number, which the webview uses to detect gaps.
 */
import { applyPatch } from '../protocol/transcriptPatch';
import type { PatchTarget } from '../protocol/transcriptPatch';
import type { TranscriptItem, TranscriptPatch } from '../protocol/transcriptTypes';

export class PatchError extends Error {}

export class Transcript {
  private readonly items: TranscriptItem[] = [];
  private readonly index = new Map<string, number>();
  private patchSeq = 0;
  private readonly target: PatchTarget = { indexOf: (id) => this.index.get(id), at: (i) => this.items[i] };

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

  /** Applies one patch (semantics: extension/protocol/transcriptPatch.ts) and returns its sequence number. */
  apply(patch: TranscriptPatch): number {
    const step = applyPatch(this.target, patch);
    if (!step.ok) {
      throw new PatchError(step.reason);
    }
    if (step.op === 'add') {
      this.index.set(step.item.id, this.items.length);
      this.items.push(step.item);
    } else {
      this.items[step.index] = step.item;
    }
    this.patchSeq += 1;
    return this.patchSeq;
  }
}
