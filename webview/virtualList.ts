/**
 * A virtualized, bottom-pinnable list. Only the rows intersecting the viewport plus OVERSCAN_PX above and below are
 * in the DOM. Row heights are measured by a ResizeObserver (an estimate stands in until a row has been seen) and
 * kept in a Fenwick tree, so offsets cost O(log n) and nothing is O(n) per frame.
 *
 * DOM: scroller > .vl-canvas (height = total) > .vl-window (translateY = offset of the first rendered row) > rows in
 * normal flow. Scroll position is either "pinned" (stick to the bottom while content grows) or anchored to a row
 * (first visible row + pixel offset), which keeps the view steady when rows above it are measured or grow.
 */
import { FenwickTree } from './fenwickTree';
import { h } from './dom';
import { ScrollIntent } from './scrollIntent';

const OVERSCAN_PX = 800;
/** Within this distance of the bottom the user counts as "at the bottom". */
const PIN_THRESHOLD_PX = 8;

export interface VirtualListRows {
  /** Builds the row element for `index` (it becomes visible). */
  mount(index: number): HTMLElement;
  /** The row for `index` left the DOM. */
  unmount(index: number, element: HTMLElement): void;
  /** Height to assume for `index` until it has been measured. */
  estimate(index: number): number;
}

export interface ScrollPosition {
  readonly pinned: boolean;
  readonly anchorIndex: number;
  readonly anchorDelta: number;
}

export class VirtualList {
  readonly canvas: HTMLDivElement;
  readonly windowEl: HTMLDivElement;
  private readonly heights = new FenwickTree();
  private readonly rows = new Map<number, HTMLElement>();
  private readonly indexOfRow = new WeakMap<Element, number>();
  private readonly observer: ResizeObserver;
  private pinnedState = true;
  private anchorIndex = 0;
  private anchorDelta = 0;
  /** The scrollTop we set last; the scroll event it causes is not a user scroll. */
  private expectedScrollTop: number | null = null;
  private readonly intent: ScrollIntent;
  private windowStart = 0;
  private windowEnd = 0;
  /** Called when `pinned` changes (to show or hide "jump to latest"). */
  onPinnedChange: (pinned: boolean) => void = () => {};
  /** Called after the user scrolled (to persist the position). */
  onUserScroll: () => void = () => {};

  constructor(
    private readonly scroller: HTMLElement,
    private readonly source: VirtualListRows,
    private readonly requestFrame: () => void,
  ) {
    this.windowEl = h('div', { class: 'vl-window' });
    this.canvas = h('div', { class: 'vl-canvas' }, this.windowEl);
    scroller.appendChild(this.canvas);
    this.observer = new ResizeObserver((entries) => this.onResize(entries));
    this.observer.observe(scroller);
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.intent = new ScrollIntent(scroller);
    // A webview that was hidden may come back with a reset scroll position: lay out again.
    document.addEventListener('visibilitychange', () => this.requestFrame());
    // Intent to scroll up unpins at once, even if the first wheel step stays within the threshold.
    scroller.addEventListener('wheel', (event) => {
      if (event.deltaY < 0) {
        this.unpinHere();
      }
    }, { passive: true });
    scroller.addEventListener('keydown', (event) => {
      // Home/End go straight to the first/last row: the browser's animated scroll over a long list would be cut short
      // by the first layout that corrects the scroll offset (rows measured on the way).
      if (event.target === scroller && (event.key === 'Home' || event.key === 'End')) {
        event.preventDefault();
        if (event.key === 'Home') {
          this.scrollToIndex(0, 0);
        } else {
          this.jumpToLatest();
        }
        this.onUserScroll();
      } else if (['ArrowUp', 'PageUp', 'Home'].includes(event.key)) {
        this.unpinHere();
      }
    });
  }

  get pinned(): boolean {
    return this.pinnedState;
  }
  get count(): number {
    return this.heights.length;
  }
  /** Indices currently in the DOM, `[start, end)`. */
  get renderedRange(): { start: number; end: number } {
    return { start: this.windowStart, end: this.windowEnd };
  }

  /** The current position, for persisting. */
  get position(): ScrollPosition {
    return { pinned: this.pinnedState, anchorIndex: this.anchorIndex, anchorDelta: this.anchorDelta };
  }

  row(index: number): HTMLElement | undefined {
    return this.rows.get(index);
  }

  /** Drops all rows and starts over with `count` unmeasured items. */
  reset(count: number, position: ScrollPosition = { pinned: true, anchorIndex: 0, anchorDelta: 0 }): void {
    for (const [index, el] of this.rows) {
      this.removeRow(index, el);
    }
    this.windowStart = this.windowEnd = 0;
    const estimates = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      estimates[i] = this.source.estimate(i);
    }
    this.heights.reset(estimates);
    this.anchorIndex = Math.min(position.anchorIndex, Math.max(0, count - 1));
    this.anchorDelta = position.anchorDelta;
    this.setPinned(position.pinned);
    this.requestFrame();
  }

  /** `added` items were appended at the end. */
  append(added: number): void {
    for (let i = 0; i < added; i++) {
      this.heights.push(this.source.estimate(this.heights.length));
    }
    this.requestFrame();
  }

  /** Rows `[start, end)` that are mounted are dropped; the next layout mounts them again (their item arrived). */
  invalidate(start: number, end: number): void {
    for (const [index, el] of this.rows) {
      if (index >= start && index < end) {
        this.removeRow(index, el);
      }
    }
    this.requestFrame();
  }

  /** Stick to the bottom again ("jump to latest"). */
  jumpToLatest(): void {
    this.setPinned(true);
    this.requestFrame();
  }

  /** Scrolls so that row `index` is at the top, `offset` px below it (unpins). */
  scrollToIndex(index: number, offset = 8): void {
    if (index < 0 || index >= this.count) {
      return;
    }
    this.setPinned(false);
    this.anchorIndex = index;
    this.anchorDelta = -offset;
    this.requestFrame();
  }

  /** Renders the window for the current position; call once per animation frame. */
  layout(): void {
    const count = this.heights.length;
    const viewport = this.scroller.clientHeight;
    const top = this.targetScrollTop();
    const start = count === 0 ? 0 : this.heights.indexAt(top - OVERSCAN_PX);
    const end = count === 0 ? 0 : Math.min(count, this.heights.indexAt(top + viewport + OVERSCAN_PX) + 1);
    for (const [index, el] of this.rows) {
      if (index < start || index >= end) {
        this.removeRow(index, el);
      }
    }
    let previous: Element | null = null;
    for (let index = start; index < end; index++) {
      let el = this.rows.get(index);
      if (!el) {
        el = this.source.mount(index);
        this.rows.set(index, el);
        this.indexOfRow.set(el, index);
        this.observer.observe(el);
      }
      const setSize = String(count);
      if (el.getAttribute('aria-setsize') !== setSize) {
        el.setAttribute('aria-posinset', String(index + 1));
        el.setAttribute('aria-setsize', setSize);
      }
      const expected: ChildNode | null = previous ? previous.nextSibling : this.windowEl.firstChild;
      if (expected !== el) {
        this.windowEl.insertBefore(el, expected);
      }
      previous = el;
    }
    this.windowStart = start;
    this.windowEnd = end;
    this.applyPosition();
  }

  /** Canvas height, window offset and scrollTop from the current heights (cheap; no rows are created). */
  private applyPosition(): void {
    this.canvas.style.height = `${this.heights.total}px`;
    this.windowEl.style.transform = `translateY(${this.heights.prefix(this.windowStart)}px)`;
    const top = this.targetScrollTop();
    if (Math.abs(this.scroller.scrollTop - top) >= 1) {
      this.expectedScrollTop = top;
      this.scroller.scrollTop = top;
    }
  }

  private targetScrollTop(): number {
    const maxTop = Math.max(0, this.heights.total - this.scroller.clientHeight);
    if (this.pinnedState) {
      return maxTop;
    }
    return Math.min(maxTop, Math.max(0, this.heights.prefix(this.anchorIndex) + this.anchorDelta));
  }

  private onResize(entries: readonly ResizeObserverEntry[]): void {
    let changed = false;
    for (const entry of entries) {
      if (entry.target === this.scroller) {
        changed = true;
        continue;
      }
      const index = this.indexOfRow.get(entry.target);
      if (index === undefined || this.rows.get(index) !== entry.target) {
        continue;
      }
      const height = entry.borderBoxSize[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
      if (Math.abs(height - this.heights.get(index)) > 0.25) {
        this.heights.set(index, height);
        changed = true;
      }
    }
    if (!changed) {
      return;
    }
    // Correct the position before paint so nothing jumps; new rows (if the window grew) come next frame.
    this.applyPosition();
    this.requestFrame();
  }

  private onScroll(): void {
    const top = this.scroller.scrollTop;
    if (this.expectedScrollTop !== null && Math.abs(top - this.expectedScrollTop) < 2) {
      this.expectedScrollTop = null;
      return;
    }
    this.expectedScrollTop = null;
    if (!this.intent.byUser && this.pinnedState) {
      // Not the user (the webview was hidden and reset its scroll offset, find-in-page, …): stay pinned.
      this.requestFrame();
      return;
    }
    const maxTop = this.scroller.scrollHeight - this.scroller.clientHeight;
    this.captureAnchor(top);
    this.setPinned(top >= maxTop - PIN_THRESHOLD_PX);
    this.requestFrame();
    this.onUserScroll();
  }

  private unpinHere(): void {
    if (!this.pinnedState) {
      return;
    }
    this.captureAnchor(this.scroller.scrollTop);
    this.setPinned(false);
  }

  private captureAnchor(top: number): void {
    this.anchorIndex = this.heights.indexAt(top);
    this.anchorDelta = top - this.heights.prefix(this.anchorIndex);
  }

  private setPinned(pinned: boolean): void {
    if (pinned === this.pinnedState) {
      return;
    }
    this.pinnedState = pinned;
    this.onPinnedChange(pinned);
  }

  private removeRow(index: number, el: HTMLElement): void {
    this.observer.unobserve(el);
    el.remove();
    this.rows.delete(index);
    this.source.unmount(index, el);
  }

  dispose(): void {
    this.observer.disconnect();
  }
}
