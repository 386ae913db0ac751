/**
 * Markdown that grows while an answer streams.
 *
 * - An append costs O(chunk): the chunk becomes a new Text node in a raw "tail".
 * - A throttled pass (at most every ~10x the last pass's cost, at least MIN_INTERVAL_MS apart) turns text into
 *   markdown. It never re-parses the whole answer: everything before the last blank line outside a code fence is
 *   "committed" (rendered once and then left alone); only the open block after it is re-parsed. Its fresh render is
 *   reconciled into the nodes already shown (webview/domReconcile.ts), so the browser lays out and paints only what
 *   changed — a growing paragraph's end, a growing code block's last chunk — not the whole block on every pass.
 * - Screen readers: while streaming the element is `aria-live="polite"` and the open block is `aria-hidden`, so each
 *   block is announced once, when it is complete, instead of the same paragraph again on every pass.
 * - When streaming ends the rest is committed (and announced); a moment later the live region is dropped and the
 *   whole text is rendered once as a single document, fixing what block-wise parsing cannot know (e.g. reference
 *   links defined further down, loose lists split at a blank line).
 */
import { h } from './dom';
import { reconcileChildren } from './domReconcile';
import { renderMarkdown } from './markdown';
import type { MarkdownHooks } from './markdown';

const MIN_INTERVAL_MS = 120;
const MAX_INTERVAL_MS = 2_000;
/** After streaming ends, wait this long before the silent full render (lets the last block be announced). */
const SETTLE_MS = 1_000;
/** Raw text continues an open block of at most this many characters inline (see createTail). */
const INLINE_TAIL_MAX_CHARS = 8_000;

export interface StreamingMarkdownOptions {
  readonly className: string;
  /** Announce completed blocks to screen readers while streaming. */
  readonly live: boolean;
}

export class StreamingMarkdown {
  readonly element: HTMLDivElement;
  private text = '';
  private streaming = false;
  /** `text.slice(0, committed)` is rendered into nodes that stay put until the final render. */
  private committed = 0;
  /** `text.slice(0, rendered)` is rendered as markdown; the rest is in the raw tail. */
  private rendered = 0;
  /** The open block and the raw tail (`aria-hidden`): replaced on every pass. */
  private open: HTMLDivElement | null = null;
  private tail: HTMLElement | null = null;
  private passTimer: ReturnType<typeof setTimeout> | undefined;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private lastPassAt = 0;
  private lastPassCost = 0;

  constructor(
    private readonly hooks: MarkdownHooks,
    private readonly options: StreamingMarkdownOptions,
  ) {
    this.element = h('div', { class: options.className });
  }

  /** Sets the whole text (initial render or an `update`). */
  set(text: string, streaming: boolean): void {
    const wasStreaming = this.streaming;
    this.text = text;
    this.streaming = streaming;
    this.clearTimers();
    if (streaming) {
      if (this.options.live) {
        this.element.setAttribute('aria-live', 'polite');
      }
      this.element.replaceChildren();
      this.committed = this.rendered = 0;
      this.open = this.tail = null;
      this.pass();
    } else if (wasStreaming && this.options.live) {
      this.commitRest();
      this.settleTimer = setTimeout(() => {
        this.settleTimer = undefined;
        this.renderAll();
      }, SETTLE_MS);
    } else {
      this.renderAll();
    }
  }

  /** Adds `chunk` (already part of the item's text) in O(chunk). */
  append(chunk: string): void {
    this.text += chunk;
    if (!this.streaming) {
      this.renderAll();
      return;
    }
    this.tail ??= this.createTail();
    this.tail.appendChild(document.createTextNode(chunk));
    this.schedulePass();
  }

  dispose(): void {
    this.clearTimers();
  }

  private schedulePass(): void {
    if (this.passTimer !== undefined) {
      return;
    }
    const interval = Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, this.lastPassCost * 10));
    const wait = Math.max(0, this.lastPassAt + interval - performance.now());
    this.passTimer = setTimeout(() => {
      this.passTimer = undefined;
      this.pass();
    }, wait);
  }

  /** Commits complete blocks and re-renders the open one: O(uncommitted text) to parse, O(change) to lay out. */
  private pass(): void {
    const started = performance.now();
    const boundary = lastBlockBoundary(this.text, this.committed);
    this.tail?.remove();
    this.tail = null;
    if (boundary > this.committed) {
      this.commit(renderMarkdown(this.text.slice(this.committed, boundary), this.hooks));
      this.committed = boundary;
    }
    reconcileChildren(this.openBlock(), renderMarkdown(this.text.slice(this.committed), this.hooks));
    this.rendered = this.text.length;
    this.lastPassAt = performance.now();
    this.lastPassCost = this.lastPassAt - started;
  }

  /**
   * `blocks` (complete) leave the open block for good: the open block's nodes are brought to match them and moved
   * out in front of it, so what was on screen stays (and is announced once, as it joins the live region).
   */
  private commit(blocks: DocumentFragment): void {
    const open = this.openBlock();
    const kept = document.createDocumentFragment();
    const count = blocks.childNodes.length;
    for (let i = 0; i < count && open.firstChild; i++) {
      kept.appendChild(open.firstChild);
    }
    reconcileChildren(kept, blocks);
    this.element.insertBefore(kept, open);
  }

  /** Streaming ended: render the open block as committed (so it is announced), no tail. */
  private commitRest(): void {
    this.tail?.remove();
    this.tail = null;
    this.commit(renderMarkdown(this.text.slice(this.committed), this.hooks));
    this.open?.remove();
    this.open = null;
    this.committed = this.rendered = this.text.length;
  }

  /** The whole text as one document, reconciled into what is shown (blocks that render the same stay). */
  private renderAll(): void {
    this.clearTimers();
    this.element.removeAttribute('aria-live');
    this.tail?.remove();
    if (this.open) {
      this.open.replaceWith(...this.open.childNodes);
    }
    reconcileChildren(this.element, renderMarkdown(this.text, this.hooks));
    this.committed = this.rendered = this.text.length;
    this.open = this.tail = null;
  }

  /**
   * Raw text continues the open paragraph inline when it can (so words do not jump to a new line until the next
   * pass), otherwise it starts a block of its own. Not a long paragraph: text added inside one has the browser lay
   * out all of it again (~13 ms per frame for 50 KB), where a block of its own costs only the new text.
   */
  private createTail(): HTMLElement {
    const open = this.openBlock();
    const last = open.lastElementChild;
    const trailing = trailingWhitespace(this.text, this.committed, this.rendered);
    const short = this.rendered - this.committed <= INLINE_TAIL_MAX_CHARS;
    if (short && last instanceof HTMLParagraphElement && !/\n[ \t]*\n/.test(trailing)) {
      // markdown trimmed the paragraph's trailing whitespace; put a separating space back.
      const tail = h('span', { class: 'md-tail' }, trailing ? ' ' : '');
      last.appendChild(tail);
      return tail;
    }
    const tail = h('div', { class: 'md-tail' });
    open.appendChild(tail);
    return tail;
  }

  private openBlock(): HTMLDivElement {
    if (!this.open) {
      this.open = h('div', { class: 'md-open', 'aria-hidden': this.options.live ? 'true' : null });
      this.element.appendChild(this.open);
    }
    return this.open;
  }

  private clearTimers(): void {
    if (this.passTimer !== undefined) {
      clearTimeout(this.passTimer);
    }
    if (this.settleTimer !== undefined) {
      clearTimeout(this.settleTimer);
    }
    this.passTimer = this.settleTimer = undefined;
  }
}

/** The whitespace that ends `text.slice(from, to)`, found scanning backwards (O(whitespace)). */
function trailingWhitespace(text: string, from: number, to: number): string {
  let start = to;
  while (start > from && /\s/.test(text[start - 1] ?? '')) {
    start--;
  }
  return text.slice(start, to);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The end of the last blank line in `text` after `from` that is outside a fenced code block (only complete lines
 * count), or `from` if there is none. `from` must itself be outside a fence, which holds for every boundary this
 * returns. O(text.length - from).
 */
export function lastBlockBoundary(text: string, from: number): number {
  let boundary = from;
  let fence: string | null = null;
  let start = from;
  for (let end = text.indexOf('\n', start); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
    const line = text.slice(start, end);
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) {
        fence = marker;
      } else if (line.trim() === '') {
        boundary = end + 1;
      }
    } else if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
      fence = null;
    }
  }
  return boundary;
}
