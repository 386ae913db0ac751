/**
 * One run's transcript: items in order plus an id index, changed only by patches. Applying a patch is O(1) (plus
 * the chunk for appends), so streaming cost does not grow with the transcript. What a patch does is defined once, in
 * extension/protocol/transcriptPatch.ts (shared with the webview's store); this class keeps the index and the
 * sequence. Every applied patch gets the next sequence number, which the webview uses to detect gaps.
 *
 * Compact on purpose (three runs of 100k items are a normal day): the model names items by a letter and their
 * position (`RunEditor.nextId`), so such an id needs no map entry — its index is in the id; only other ids are
 * mapped. The kinds are a byte per item (protocol/kindCodes.ts).
 */
import { applyPatch } from '../protocol/transcriptPatch';
import type { PatchTarget } from '../protocol/transcriptPatch';
import { KindCodes } from '../protocol/kindCodes';
import type { TranscriptItem, TranscriptPatch } from '../protocol/transcriptTypes';

export class PatchError extends Error {}

export class Transcript {
  private readonly items: TranscriptItem[] = [];
  /** Ids that do not carry their own index (see above). */
  private readonly index = new Map<string, number>();
  private patchSeq = 0;
  /** One kind code per item (see `kindCode`): what a windowed snapshot sends instead of the items it leaves out. */
  private readonly kindCodes = new KindCodes();
  /** Approval id → index and hyperhive message id → index, for revealing an item the webview has not loaded. */
  private readonly approvalIndex = new Map<string, number>();
  private readonly messageIndex = new Map<string, number>();
  private readonly target: PatchTarget = { indexOf: (id) => this.indexOf(id), at: (i) => this.items[i] };

  /** A transcript of `items` as they are (a checkpoint's, model/runCheckpoint.ts), its last patch numbered `seq`. */
  static restore(items: readonly TranscriptItem[], seq: number): Transcript {
    const transcript = Transcript.restoring(seq);
    transcript.restoreItems(items);
    return transcript;
  }

  /** The same in steps (a checkpoint read a line at a time): `restoreItems` each step's items in order, then use it. */
  static restoring(seq: number): Transcript {
    const transcript = new Transcript();
    transcript.patchSeq = seq;
    return transcript;
  }

  /** Appends a checkpoint's items as they are: no patch, no sequence (only while restoring, before any patch). */
  restoreItems(items: readonly TranscriptItem[]): void {
    for (const item of items) {
      this.push(item);
    }
  }

  get length(): number {
    return this.items.length;
  }

  /** Sequence number of the last applied patch (0 = none). */
  get seq(): number {
    return this.patchSeq;
  }

  get(id: string): TranscriptItem | undefined {
    const i = this.indexOf(id);
    return i === undefined ? undefined : this.items[i];
  }

  at(i: number): TranscriptItem | undefined {
    return this.items[i];
  }

  indexOf(id: string): number | undefined {
    const mapped = this.index.get(id);
    if (mapped !== undefined) {
      return mapped;
    }
    const at = positionIn(id);
    return at !== undefined && this.items[at]?.id === id ? at : undefined;
  }

  /** The kind codes of all items, in order (one character each). */
  get kinds(): string {
    return this.kindCodes.text;
  }

  /** A copy of the items `[start, end)` (clamped). */
  slice(start: number, end: number): TranscriptItem[] {
    return this.items.slice(Math.max(0, start), Math.min(this.items.length, end));
  }

  /** A copy of all items (O(n): for tools and tests; views get windows, see transcriptWindow.ts). */
  snapshot(): TranscriptItem[] {
    return this.items.slice();
  }

  indexOfApproval(approvalId: string): number | undefined {
    return this.approvalIndex.get(approvalId);
  }

  indexOfMessage(messageId: string): number | undefined {
    return this.messageIndex.get(messageId);
  }

  /** Indices of the approval cards, in order (a few per run: scanning them is cheap). */
  approvalIndices(): IterableIterator<number> {
    return this.approvalIndex.values();
  }

  /** Applies one patch (semantics: extension/protocol/transcriptPatch.ts) and returns its sequence number. */
  apply(patch: TranscriptPatch): number {
    const step = applyPatch(this.target, patch);
    if (!step.ok) {
      throw new PatchError(step.reason);
    }
    if (step.op === 'add') {
      this.push(step.item);
    } else {
      this.items[step.index] = step.item;
      if (step.op === 'update') {
        this.noteIds(step.item, step.index);
      }
    }
    this.patchSeq += 1;
    return this.patchSeq;
  }

  private push(item: TranscriptItem): void {
    const at = this.items.length;
    if (positionIn(item.id) !== at) {
      this.index.set(item.id, at);
    }
    this.items.push(item);
    this.kindCodes.push(item.kind);
    this.noteIds(item, at);
  }

  private noteIds(item: TranscriptItem, index: number): void {
    if (item.kind === 'approval' && !this.approvalIndex.has(item.approvalId)) {
      this.approvalIndex.set(item.approvalId, index);
    } else if (item.kind === 'message' && item.messageId !== undefined && !this.messageIndex.has(item.messageId)) {
      this.messageIndex.set(item.messageId, index);
    }
  }
}

/** The index a model-made id carries (`x42` → 42), if it has that shape. */
function positionIn(id: string): number | undefined {
  const digits = id.length > 1 && id.length < 12 ? id.slice(1) : '';
  const n = digits.length > 0 && digits.charCodeAt(0) >= 48 && digits.charCodeAt(0) <= 57 ? Number(digits) : Number.NaN;
  return Number.isSafeInteger(n) && String(n) === digits ? n : undefined;
}
