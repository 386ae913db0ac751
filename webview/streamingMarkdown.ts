/**
 * Markdown that grows while an answer streams.
 *
 * - An append costs O(chunk): the chunk becomes a new Text node in a raw "tail".
 * - A throttled pass (at most every ~10x the last pass's cost, at least MIN_INTERVAL_MS apart) turns text into
 *   markdown. It never re-parses the whole answer: everything before the last blank line outside a code fence is
 *   "committed" (rendered once and then left alone); only the open block after it is re-rendered.
 * - Screen readers: while streaming the element is `aria-live="polite"` and the open block is `aria-hidden`, so each
 *   block is announced once, when it is complete, instead of the same paragraph again on every pass.
 * - When streaming ends the rest is committed (and announced); a moment later the live region is dropped and the
 *   whole text is rendered once as a single document, fixing what block-wise parsing cannot know (e.g. reference
 *   links defined further down, loose lists split at a blank line).
 */
import { h } from './dom';
import { renderMarkdown } from './markdown';
import type { MarkdownHooks } from './markdown';

const MIN_INTERVAL_MS = 120;
const MAX_INTERVAL_MS = 2_000;
/** After streaming ends, wait this long before the silent full render (lets the last block be announced). */
const SETTLE_MS = 1_000;

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

  /** Commits complete blocks and re-renders the open one: O(uncommitted text). */
  private pass(): void {
    const started = performance.now();
    const boundary = lastBlockBoundary(this.text, this.committed);
    this.open?.remove();
    this.open = this.tail = null;
    if (boundary > this.committed) {
      this.element.appendChild(renderMarkdown(this.text.slice(this.committed, boundary), this.hooks));
      this.committed = boundary;
    }
    this.openBlock().appendChild(renderMarkdown(this.text.slice(this.committed), this.hooks));
    this.rendered = this.text.length;
    this.lastPassAt = performance.now();
    this.lastPassCost = this.lastPassAt - started;
  }

  /** Streaming ended: render the open block as committed (so it is announced), no tail. */
  private commitRest(): void {
    this.open?.remove();
    this.open = this.tail = null;
    this.element.appendChild(renderMarkdown(this.text.slice(this.committed), this.hooks));
    this.committed = this.rendered = this.text.length;
  }

  private renderAll(): void {
    this.clearTimers();
    this.element.removeAttribute('aria-live');
    this.element.replaceChildren(renderMarkdown(this.text, this.hooks));
    this.committed = this.rendered = this.text.length;
    this.open = this.tail = null;
  }

  /**
   * Raw text continues the open paragraph inline when it can (so words do not jump to a new line until the next
   * pass), otherwise it starts a block of its own.
   */
  private createTail(): HTMLElement {
    const open = this.openBlock();
    const last = open.lastElementChild;
    const trailing = trailingWhitespace(this.text, this.committed, this.rendered);
    if (last instanceof HTMLParagraphElement && !/\n[ \t]*\n/.test(trailing)) {
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
