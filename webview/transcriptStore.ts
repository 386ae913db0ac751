/**
 * The webview's copy of one run's transcript: a window of it. The host sends a snapshot of the tail (plus the count
 * and the kind of every item) and, on request, other ranges; patches apply strictly in sequence, with the same
 * semantics as the host (extension/protocol/transcriptPatch.ts). The window is one contiguous run of items,
 * `[windowStart, windowStart + loaded)`, at most WINDOW_CAP long: loading a range far from it replaces it, one next
 * to it extends it and evicts from the far side. Patches to items outside the window are skipped (a later range
 * brings them as the host has them then); that is exact because a range is served "as of" a sequence number and
 * refused here unless it is ours. Pure (no DOM), so it is unit-tested in Node. Applying records what changed
 * (`PendingChanges`) for the next animation frame to render; it never renders itself.
 */
import { applyPatch } from '../extension/protocol/transcriptPatch';
import type { PatchTarget } from '../extension/protocol/transcriptPatch';
import { KindCodes } from '../extension/protocol/kindCodes';
import { transcriptItemSchema } from '../extension/protocol/transcriptTypes';
import type { TranscriptItem, TranscriptItemKind, TranscriptPatch } from '../extension/protocol/transcriptTypes';
import type { RunSummary } from '../extension/protocol/webviewMessages';
import { ItemChanges } from './itemChanges';
import type { PendingChanges } from './itemChanges';

export type { ItemChange, PendingChanges } from './itemChanges';

/** Most items held at once, whatever the run's length (the rendered rows are far fewer: the virtual list's window). */
export const WINDOW_CAP = 1_500;
/** Streaming grows the window past the cap by this much before it is trimmed back, so trimming is rare. */
const TRIM_SLACK = 250;

export type ApplyResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The parts of a snapshot the store keeps. */
export interface SnapshotWindow {
  readonly items: readonly TranscriptItem[];
  readonly seq: number;
  /** Index of `items[0]` (default 0). */
  readonly start?: number;
  /** Items in the whole transcript (default `start + items.length`). */
  readonly total?: number;
  /** One kind code per item of the whole transcript (default: the items' own, unknown ones read as text). */
  readonly kinds?: string;
}

export class TranscriptStore {
  private windowItems: TranscriptItem[] = [];
  private windowStart = 0;
  private totalCount = 0;
  private kindCodes = new KindCodes();
  /** Item id → absolute index, for the items in the window. */
  private indexById = new Map<string, number>();
  private lastSeq = 0;
  private currentRun: RunSummary | null = null;
  private changes = new ItemChanges();
  private readonly target: PatchTarget = { indexOf: (id) => this.indexById.get(id), at: (i) => this.at(i) };
  /**
   * The index the user looks at (the view sets it after each layout): when the window outgrows WINDOW_CAP, the items
   * farthest from it go, never the rows on screen.
   */
  focus = 0;

  get run(): RunSummary | null {
    return this.currentRun;
  }
  get runKey(): string | null {
    return this.currentRun?.key ?? null;
  }
  get seq(): number {
    return this.lastSeq;
  }
  /** Items in the whole transcript (loaded or not). */
  get length(): number {
    return this.totalCount;
  }
  /** The loaded items, `[start, end)`. */
  get loaded(): { readonly start: number; readonly end: number } {
    return { start: this.windowStart, end: this.windowStart + this.windowItems.length };
  }
  /** The loaded items, in order (all of them while the transcript fits the window). */
  get loadedItems(): readonly TranscriptItem[] {
    return this.windowItems;
  }
  /** The item at `index`, if it is loaded. */
  at(index: number): TranscriptItem | undefined {
    return index >= this.windowStart ? this.windowItems[index - this.windowStart] : undefined;
  }
  /** The kind of the item at `index`, loaded or not (for its height estimate). */
  kindAt(index: number): TranscriptItemKind {
    return this.at(index)?.kind ?? this.kindCodes.at(index);
  }
  /** The absolute index of a loaded item, or -1. */
  indexOf(id: string): number {
    return this.indexById.get(id) ?? -1;
  }
  get(id: string): TranscriptItem | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : this.at(index);
  }

  /** Replaces everything (a `snapshot` message). Duplicate ids keep the first occurrence's position. */
  reset(run: RunSummary | null, snapshot: SnapshotWindow): void {
    const start = snapshot.start ?? 0;
    this.currentRun = run;
    this.lastSeq = snapshot.seq;
    this.windowStart = start;
    this.windowItems = [];
    this.indexById = new Map();
    for (const item of snapshot.items) {
      if (!this.indexById.has(item.id)) {
        this.indexById.set(item.id, start + this.windowItems.length);
        this.windowItems.push(item);
      }
    }
    this.totalCount = Math.max(snapshot.total ?? 0, start + this.windowItems.length);
    this.kindCodes = new KindCodes(snapshot.kinds?.length === this.totalCount ? snapshot.kinds : '');
    if (this.kindCodes.length !== this.totalCount) {
      // An older host (or a test) sent no kinds: what is loaded has its own, the rest reads as text.
      for (let i = 0; i < this.totalCount; i++) {
        this.kindCodes.push(this.at(i)?.kind ?? 'text');
      }
    }
    this.changes = new ItemChanges();
    this.changes.record.reset = true;
  }

  /** Replaces the header (a `run` message). Returns false if it is for another run than the one shown. */
  setRun(run: RunSummary): boolean {
    if (!this.currentRun || this.currentRun.key !== run.key) {
      return false;
    }
    this.currentRun = run;
    return true;
  }

  /**
   * Applies a batch that starts at `firstSeq`. Requires `firstSeq === seq + 1`; any inconsistency (gap, unknown id,
   * kind change, wrong field) stops at the offending patch and reports it so the caller can ask for a resync.
   * Patches before the offending one stay applied (their sequence was valid).
   */
  applyPatches(firstSeq: number, patches: readonly TranscriptPatch[]): ApplyResult {
    if (firstSeq !== this.lastSeq + 1) {
      return { ok: false, reason: `expected seq ${this.lastSeq + 1}, got ${firstSeq}` };
    }
    for (const patch of patches) {
      const result = this.applyOne(patch);
      if (!result.ok) {
        return result;
      }
      this.lastSeq++;
    }
    return { ok: true };
  }

  /**
   * The host's items `[start, start + items.length)` as of patch `seq` (a `range` answer). Refused unless `seq` is
   * ours: patches this store skipped or will still apply would otherwise count twice or not at all.
   */
  load(start: number, items: readonly TranscriptItem[], seq: number): boolean {
    if (seq !== this.lastSeq || start < 0 || start + items.length > this.totalCount || items.length === 0) {
      return false;
    }
    const end = start + items.length;
    const loaded = this.loaded;
    if (end < loaded.start || start > loaded.end || loaded.start === loaded.end) {
      this.replaceWindow(start, items);
    } else {
      const from = Math.min(start, loaded.start);
      const to = Math.max(end, loaded.end);
      const merged = new Array<TranscriptItem>(to - from);
      for (let i = from; i < to; i++) {
        // The new range wins where they overlap: it is at the same sequence, and fresher if anything was skipped.
        merged[i - from] = i >= start && i < end ? items[i - start]! : this.at(i)!;
      }
      this.replaceWindow(from, merged);
    }
    this.trim(0);
    this.changes.record.loaded.push({ start, end });
    return true;
  }

  /** Returns the changes recorded since the last call and starts a new record. */
  takeChanges(): PendingChanges {
    const record = this.changes.record;
    this.changes = new ItemChanges();
    return record;
  }

  private replaceWindow(start: number, items: readonly TranscriptItem[]): void {
    this.windowStart = start;
    this.windowItems = items.slice();
    this.indexById = new Map();
    this.windowItems.forEach((item, i) => this.indexById.set(item.id, start + i));
  }

  /** Back to WINDOW_CAP items around `focus` once the window holds more than WINDOW_CAP + `slack`. */
  private trim(slack: number): void {
    if (this.windowItems.length <= WINDOW_CAP + slack) {
      return;
    }
    const focus = this.focus;
    // Keep WINDOW_CAP items centred on the focus as far as the window allows.
    const loaded = this.loaded;
    const keepStart = Math.min(Math.max(loaded.start, focus - Math.floor(WINDOW_CAP / 2)), loaded.end - WINDOW_CAP);
    const dropped = [...this.windowItems.slice(0, keepStart - loaded.start), ...this.windowItems.slice(keepStart - loaded.start + WINDOW_CAP)];
    for (const item of dropped) {
      this.indexById.delete(item.id);
    }
    this.windowItems = this.windowItems.slice(keepStart - loaded.start, keepStart - loaded.start + WINDOW_CAP);
    this.windowStart = keepStart;
  }

  /**
   * One patch: what it does comes from the shared applyPatch (the host's Transcript uses the same); the store adds
   * the window, validation of merged items and the change record.
   */
  private applyOne(patch: TranscriptPatch): ApplyResult {
    if (patch.op === 'add') {
      if (this.indexById.has(patch.item.id)) {
        return { ok: false, reason: `duplicate item id ${patch.item.id}` };
      }
      const atTail = this.loaded.end === this.totalCount;
      const index = this.totalCount++;
      this.kindCodes.push(patch.item.kind);
      if (atTail) {
        this.indexById.set(patch.item.id, index);
        this.windowItems.push(patch.item);
        this.trim(TRIM_SLACK); // streaming at the bottom: the window follows the tail
      }
      this.changes.record.added++;
      return { ok: true };
    }
    if (!this.indexById.has(patch.id) && !this.isComplete) {
      return { ok: true }; // not loaded: a range brings it as it is by then
    }
    const step = applyPatch(this.target, patch);
    if (!step.ok) {
      return step;
    }
    if (step.op === 'add') {
      return { ok: false, reason: 'unexpected add' }; // handled above
    }
    if (step.op === 'append' && patch.op === 'append') {
      this.windowItems[step.index - this.windowStart] = step.item;
      this.changes.noteAppend(patch.id, this.isNewInBatch(step.index), patch.field, patch.chunk);
      return { ok: true };
    }
    // An update: the merge is the shared one, but its input crossed a process boundary, so the result is validated.
    const parsed = transcriptItemSchema.safeParse(step.item);
    if (!parsed.success) {
      return { ok: false, reason: `update of ${step.item.id} is invalid: ${parsed.error.message}` };
    }
    this.windowItems[step.index - this.windowStart] = parsed.data;
    this.changes.noteFull(parsed.data.id, this.isNewInBatch(step.index));
    return { ok: true };
  }

  /** Added since the last frame: it renders fresh anyway, so changes to it need no record. */
  private isNewInBatch(index: number): boolean {
    return index >= this.totalCount - this.changes.record.added;
  }

  /** The whole transcript is loaded: a patch for an id not in it is a real inconsistency. */
  private get isComplete(): boolean {
    return this.windowStart === 0 && this.windowItems.length === this.totalCount;
  }
}
