/**
 * The webview's copy of one run's transcript: a snapshot, then patches applied strictly in sequence, with the same
 * patch semantics as the host (extension/protocol/transcriptPatch.ts). Pure (no DOM),
 * so it is unit-tested in Node. Applying records what changed (`PendingChanges`) for the next animation frame to
 * render; it never renders itself.
 */
import { applyPatch } from '../extension/protocol/transcriptPatch';
import type { PatchTarget } from '../extension/protocol/transcriptPatch';
import { transcriptItemSchema } from '../extension/protocol/transcriptTypes';
import type { TranscriptItem, TranscriptPatch } from '../extension/protocol/transcriptTypes';
import type { RunSummary } from '../extension/protocol/webviewMessages';

/** What changed for one item since the last frame. */
export interface ItemChange {
  /** The item was replaced or merged: re-render it entirely. */
  full: boolean;
  /** Text appended since the last frame (only meaningful when `full` is false), per field, in order. */
  readonly appends: Map<'text' | 'output', string[]>;
}

/** Everything that changed since the last `takeChanges()`. */
export interface PendingChanges {
  /** A snapshot replaced everything: re-render from scratch. */
  reset: boolean;
  /** Number of items appended at the end (after any reset). */
  added: number;
  /** Changes to items that existed before this batch (keyed by item id). */
  readonly items: Map<string, ItemChange>;
}

export type ApplyResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

function emptyChanges(): PendingChanges {
  return { reset: false, added: 0, items: new Map() };
}

export class TranscriptStore {
  private itemsList: TranscriptItem[] = [];
  private indexById = new Map<string, number>();
  /** hyperhive message id → item id, for "in reply to" links. */
  private messageIndex = new Map<string, string>();
  private lastSeq = 0;
  private currentRun: RunSummary | null = null;
  private changes: PendingChanges = emptyChanges();
  private readonly target: PatchTarget = { indexOf: (id) => this.indexById.get(id), at: (i) => this.itemsList[i] };

  get run(): RunSummary | null {
    return this.currentRun;
  }
  get runKey(): string | null {
    return this.currentRun?.key ?? null;
  }
  get seq(): number {
    return this.lastSeq;
  }
  get length(): number {
    return this.itemsList.length;
  }
  get items(): readonly TranscriptItem[] {
    return this.itemsList;
  }
  at(index: number): TranscriptItem | undefined {
    return this.itemsList[index];
  }
  indexOf(id: string): number {
    return this.indexById.get(id) ?? -1;
  }
  get(id: string): TranscriptItem | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : this.itemsList[index];
  }
  /** The item id of the hyperhive message with `messageId`, if it is in this transcript. */
  findMessage(messageId: string): string | undefined {
    return this.messageIndex.get(messageId);
  }

  /** Replaces everything (a `snapshot` message). Duplicate ids keep the first occurrence's position. */
  reset(run: RunSummary | null, items: readonly TranscriptItem[], seq: number): void {
    this.currentRun = run;
    this.lastSeq = seq;
    this.itemsList = [];
    this.indexById = new Map();
    this.messageIndex = new Map();
    for (const item of items) {
      if (this.indexById.has(item.id)) {
        continue;
      }
      this.pushItem(item);
    }
    this.changes = emptyChanges();
    this.changes.reset = true;
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

  /** Returns the changes recorded since the last call and starts a new record. */
  takeChanges(): PendingChanges {
    const changes = this.changes;
    this.changes = emptyChanges();
    return changes;
  }

  /**
   * One patch: what it does comes from the shared applyPatch (the host's Transcript uses the same); the store adds
   * validation of merged items, the message index and the change record.
   */
  private applyOne(patch: TranscriptPatch): ApplyResult {
    const step = applyPatch(this.target, patch);
    if (!step.ok) {
      return step;
    }
    if (step.op === 'add') {
      this.pushItem(step.item);
      this.changes.added++;
      return { ok: true };
    }
    if (patch.op === 'append') {
      this.itemsList[step.index] = step.item;
      this.noteAppend(patch.id, step.index, patch.field, patch.chunk);
      return { ok: true };
    }
    // An update: the merge is the shared one, but its input crossed a process boundary, so the result is validated.
    const parsed = transcriptItemSchema.safeParse(step.item);
    if (!parsed.success) {
      return { ok: false, reason: `update of ${step.item.id} is invalid: ${parsed.error.message}` };
    }
    this.itemsList[step.index] = parsed.data;
    if (parsed.data.kind === 'message' && parsed.data.messageId) {
      this.messageIndex.set(parsed.data.messageId, parsed.data.id);
    }
    this.noteFull(parsed.data.id, step.index);
    return { ok: true };
  }

  private pushItem(item: TranscriptItem): void {
    this.indexById.set(item.id, this.itemsList.length);
    this.itemsList.push(item);
    if (item.kind === 'message' && item.messageId) {
      this.messageIndex.set(item.messageId, item.id);
    }
  }

  /** Items added in this batch render fresh anyway: only changes to older items are recorded. */
  private isNewInBatch(index: number): boolean {
    return this.changes.reset || index >= this.itemsList.length - this.changes.added;
  }

  private noteAppend(id: string, index: number, field: 'text' | 'output', chunk: string): void {
    if (this.isNewInBatch(index)) {
      return;
    }
    let change = this.changes.items.get(id);
    if (!change) {
      change = { full: false, appends: new Map() };
      this.changes.items.set(id, change);
    }
    if (change.full) {
      return;
    }
    const chunks = change.appends.get(field);
    if (chunks) {
      chunks.push(chunk);
    } else {
      change.appends.set(field, [chunk]);
    }
  }

  private noteFull(id: string, index: number): void {
    if (this.isNewInBatch(index)) {
      return;
    }
    const change = this.changes.items.get(id);
    if (change) {
      change.full = true;
      change.appends.clear();
    } else {
      this.changes.items.set(id, { full: true, appends: new Map() });
    }
  }
}
