/**
 * The change record of the webview's transcript store: what the next animation frame must render. Appends to an
 * item already on screen are kept as chunks (rendered in O(chunk)); a replaced item is re-rendered whole; items added
 * in this batch are only counted (they render fresh anyway); loaded ranges replace their placeholders.
 */

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
  /** Number of items appended at the end of the transcript (after any reset), loaded or not. */
  added: number;
  /** Changes to items that existed before this batch (keyed by item id). */
  readonly items: Map<string, ItemChange>;
  /** Ranges `[start, end)` that were loaded: rows showing placeholders there get their items. */
  readonly loaded: Array<{ readonly start: number; readonly end: number }>;
}

export class ItemChanges {
  readonly record: PendingChanges = { reset: false, added: 0, items: new Map(), loaded: [] };

  /** `chunk` was appended to `field` of `id`; `isNew`: the item was added in this batch (nothing to record). */
  noteAppend(id: string, isNew: boolean, field: 'text' | 'output', chunk: string): void {
    if (isNew || this.record.reset) {
      return;
    }
    let change = this.record.items.get(id);
    if (!change) {
      change = { full: false, appends: new Map() };
      this.record.items.set(id, change);
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

  /** `id` was replaced or merged. */
  noteFull(id: string, isNew: boolean): void {
    if (isNew || this.record.reset) {
      return;
    }
    const change = this.record.items.get(id);
    if (change) {
      change.full = true;
      change.appends.clear();
    } else {
      this.record.items.set(id, { full: true, appends: new Map() });
    }
  }
}
