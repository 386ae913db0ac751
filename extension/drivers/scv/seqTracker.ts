/**
 * Per-session `seq` bookkeeping (WIRE.md §2.6). SCV has no replay, so a gap is only ever *reported*: the events are
 * gone. The first `seq` seen is the baseline (its value is unverified). An event of unknown `type` is skipped and
 * excuses one gap; when it carries a numeric `seq` we simply advance to it, which accounts for it exactly.
 */
export type SeqObservation =
  | { readonly kind: 'baseline'; readonly seq: number }
  | { readonly kind: 'ok'; readonly seq: number }
  /** Events `from`..`to` (inclusive) never arrived. Unknown events without `seq` were assumed to fill the lowest slots. */
  | { readonly kind: 'gap'; readonly seq: number; readonly from: number; readonly to: number }
  /** A `seq` at or below the last one: duplicated or reordered, which a conforming server never does. */
  | { readonly kind: 'stale'; readonly seq: number; readonly last: number };

export class SeqTracker {
  private last: number | undefined;
  /** Unknown events without a `seq` seen since the last numbered event; each excuses one missing number. */
  private excuses = 0;

  get lastSeq(): number | undefined {
    return this.last;
  }

  /** A known event with its `seq`. */
  observe(seq: number): SeqObservation {
    const last = this.last;
    const excuses = this.excuses;
    this.excuses = 0;
    if (last === undefined) {
      this.last = seq;
      return { kind: 'baseline', seq };
    }
    if (seq <= last) {
      return { kind: 'stale', seq, last };
    }
    this.last = seq;
    const missing = seq - last - 1;
    if (missing <= excuses) {
      return { kind: 'ok', seq };
    }
    return { kind: 'gap', seq, from: last + 1 + excuses, to: seq - 1 };
  }

  /** An event of unknown `type`: skipped, but it accounts for one number — its own `seq` when it has one. */
  observeUnknown(seq?: number): SeqObservation | undefined {
    if (seq === undefined) {
      this.excuses += 1;
      return undefined;
    }
    return this.observe(seq);
  }

  /** A new session starts a new baseline. */
  reset(): void {
    this.last = undefined;
    this.excuses = 0;
  }
}
