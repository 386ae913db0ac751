/**
 * Asks the host for the items the virtual list is about to show but the store has not loaded (the windowed
 * transcript: the webview holds a window, the host has the run). After each layout it looks at the rendered rows
 * plus MARGIN items either side and requests the first missing stretch — next to the loaded window when it touches
 * it, so the window grows, otherwise around the rows on screen. One request at a time: answers arrive in order after
 * the patches they include, and a lost one is retried after RETRY_MS.
 */
import { TRANSCRIPT_WINDOW } from '../extension/protocol/webviewMessages';
import type { WebviewToHost } from '../extension/protocol/webviewMessages';
import type { TranscriptStore } from './transcriptStore';

/** Items loaded beyond the rendered rows on each side, so scrolling rarely meets a placeholder. */
const MARGIN = 120;
const RETRY_MS = 3_000;

interface Span {
  readonly start: number;
  readonly end: number;
}

export class RangeLoader {
  private inFlight: (Span & { readonly at: number }) | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: TranscriptStore,
    private readonly post: (message: WebviewToHost) => void,
    private readonly requestFrame: () => void,
  ) {}

  /** A snapshot replaced the transcript: an outstanding request is for the old one. */
  reset(): void {
    this.settle();
  }

  /** The host answered (whether or not the store could take it). */
  answered(): void {
    this.settle();
    this.requestFrame(); // what is still missing is asked for at the next layout
  }

  /** After a layout showed `[start, end)`: asks for what is missing around it. */
  ensure(rendered: Span): void {
    const runKey = this.store.runKey;
    if (!runKey || (this.inFlight && performance.now() - this.inFlight.at < RETRY_MS)) {
      return;
    }
    const wanted = missingSpan(rendered, this.store.loaded, this.store.length);
    if (!wanted) {
      return;
    }
    this.inFlight = { ...wanted, at: performance.now() };
    this.post({ type: 'range', runKey, start: wanted.start, end: wanted.end });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.requestFrame(), RETRY_MS);
  }

  private settle(): void {
    this.inFlight = null;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}

/** The stretch to ask for so that `rendered` ± MARGIN is loaded, at most `rangeMax` long; null when it is. */
export function missingSpan(rendered: Span, loaded: Span, total: number): Span | null {
  const max = TRANSCRIPT_WINDOW.rangeMax;
  const want = { start: Math.max(0, rendered.start - MARGIN), end: Math.min(total, rendered.end + MARGIN) };
  if (want.end <= want.start) {
    return null;
  }
  const disjoint = loaded.end <= loaded.start || want.end <= loaded.start || want.start >= loaded.end;
  if (disjoint) {
    // Around the rows on screen (they come first if `want` is longer than one request).
    const start = Math.max(want.start, Math.min(rendered.start, want.end - max));
    return { start, end: Math.min(want.end, start + max) };
  }
  const above = want.start < loaded.start ? { start: Math.max(want.start, loaded.start - max), end: loaded.start } : null;
  const below = want.end > loaded.end ? { start: loaded.end, end: Math.min(want.end, loaded.end + max) } : null;
  if (above && below) {
    // Rows on screen that are missing first; otherwise the nearer side.
    return rendered.start < loaded.start ? above : below;
  }
  return above ?? below;
}
