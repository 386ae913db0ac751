/**
 * What a transcript surface sends for the store's patches of its run: a burst of deltas becomes one `patches`
 * message per DISPLAY_MS (streaming at display rate, O(delta)). A flood — more than BURST_AS_SNAPSHOT patches within
 * RATE_WINDOW_MS, far beyond any agent's streaming (its deltas are folded per read), as in a catch-up after a
 * reconnect or a journal replay after a window reload — becomes one fresh snapshot instead, which is O(screen) whatever
 * the burst (the view then fetches what it scrolls to): sending 100k `add`s to a view that shows 40 rows is the
 * O(transcript) work the windowed transcript exists to avoid. While such a burst goes on, the snapshot waits for a
 * pause of SETTLE_MS, but never longer than MAX_WAIT_MS, so a long replay costs a handful of snapshots. Pure (no
 * `vscode`); the timers are the only side effect.
 */
import type { TranscriptPatch } from '../../protocol/transcriptTypes';

const DISPLAY_MS = 16;
/** More patches than this within RATE_WINDOW_MS: a snapshot instead. */
export const BURST_AS_SNAPSHOT = 1_000;
const RATE_WINDOW_MS = 250;
const SETTLE_MS = 100;
const MAX_WAIT_MS = 1_000;

export type CoalescedOutput =
  | { readonly kind: 'none' }
  | { readonly kind: 'patches'; readonly firstSeq: number; readonly patches: TranscriptPatch[] }
  | { readonly kind: 'snapshot' };

export class PatchCoalescer {
  private pending: TranscriptPatch[] = [];
  private firstSeq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the burst that turned into a snapshot began (undefined: sending patches). */
  private snapshotSince: number | undefined;
  private rateStart = -Infinity;
  private rateCount = 0;

  /** `due` is called when the output should go out (the caller then calls `take`). */
  constructor(private readonly due: () => void) {}

  add(seq: number, patch: TranscriptPatch): void {
    const now = Date.now();
    if (now - this.rateStart > RATE_WINDOW_MS) {
      this.rateStart = now;
      this.rateCount = 0;
    }
    this.rateCount++;
    if (this.snapshotSince !== undefined) {
      if (now - this.snapshotSince < MAX_WAIT_MS) {
        this.arm(SETTLE_MS, true); // still bursting: wait for a pause
      }
      return;
    }
    if (this.pending.length === 0) {
      this.firstSeq = seq;
    }
    this.pending.push(patch);
    if (this.rateCount > BURST_AS_SNAPSHOT) {
      // What was sent of this flood already is superseded by the snapshot too.
      this.pending = [];
      this.snapshotSince = now;
      this.arm(SETTLE_MS, true);
      return;
    }
    this.arm(DISPLAY_MS, false);
  }

  /** What to send now; starts over. */
  take(): CoalescedOutput {
    const snapshot = this.snapshotSince !== undefined;
    const patches = this.pending;
    this.clear();
    if (snapshot) {
      return { kind: 'snapshot' };
    }
    return patches.length > 0 ? { kind: 'patches', firstSeq: this.firstSeq, patches } : { kind: 'none' };
  }

  /** Drops what is pending (a snapshot is being sent anyway). */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.snapshotSince = undefined;
  }

  private arm(ms: number, restart: boolean): void {
    if (this.timer !== undefined && !restart) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due();
    }, ms);
  }
}
