/**
 * Markdown that grows while an answer streams. An append costs O(chunk): the chunk becomes a new Text node in a
 * plain "tail" after the last rendered markdown. Re-parsing the whole text is deferred and throttled (at most every
 * ~10× the last parse time, at least MIN_INTERVAL_MS apart), so a long answer never re-renders per chunk; the final
 * `set(..., false)` renders the complete markdown once.
 */
import { h } from './dom';
import { renderMarkdown } from './markdown';
import type { MarkdownHooks } from './markdown';

const MIN_INTERVAL_MS = 120;
const MAX_INTERVAL_MS = 2_000;

export class StreamingMarkdown {
  readonly element: HTMLDivElement;
  private text = '';
  private streaming = false;
  private tail: HTMLDivElement | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastRenderAt = 0;
  private lastRenderCost = 0;

  constructor(private readonly hooks: MarkdownHooks, className = 'md') {
    this.element = h('div', { class: className });
  }

  /** Renders `text` completely now. */
  set(text: string, streaming: boolean): void {
    this.text = text;
    this.streaming = streaming;
    this.renderNow();
  }

  /** Adds `chunk` (already part of the item's text) in O(chunk) and schedules a throttled full render. */
  append(chunk: string): void {
    this.text += chunk;
    if (!this.tail) {
      this.tail = h('div', { class: 'md-tail' });
      this.element.appendChild(this.tail);
    }
    this.tail.appendChild(document.createTextNode(chunk));
    if (this.streaming) this.scheduleRender();
    else this.renderNow();
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private scheduleRender(): void {
    if (this.timer !== undefined) return;
    const interval = Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, this.lastRenderCost * 10));
    const wait = Math.max(0, this.lastRenderAt + interval - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.renderNow();
    }, wait);
  }

  private renderNow(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const started = performance.now();
    this.element.replaceChildren(renderMarkdown(this.text, this.hooks));
    this.tail = null;
    this.lastRenderAt = performance.now();
    this.lastRenderCost = this.lastRenderAt - started;
  }
}
