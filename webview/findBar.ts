/**
 * Find in transcript (Ctrl/Cmd+F in the view, or *Find in Transcript* from the palette): the query goes to the host,
 * which searches the whole run (the view holds only a window of it) and answers with the indices of the matching
 * items; Enter / Shift+Enter (F3 / Shift+F3) walk them, scrolling each into view (its range is loaded on the way).
 * Matches in the rows on screen are painted with the CSS Custom Highlight API, so the rendered DOM is never touched.
 */
import type { WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, h } from './dom';

/** Typing pauses this long before the query is sent. */
const QUERY_DELAY_MS = 150;
/** While the run streams, the hits are brought up to date this often (a search is O(transcript) on the host). */
const REFRESH_DELAY_MS = 1_000;
const MATCH = 'switchboard-find';
const CURRENT = 'switchboard-find-current';

export interface FindBarDeps {
  readonly runKey: () => string | null;
  readonly post: (message: WebviewToHost) => void;
  /** Scroll to (and flash) the item at `index`. */
  readonly reveal: (index: number) => void;
  /** The index the user looks at: the first hit at or after it is the first one shown. */
  readonly focusIndex: () => number;
  /** The rendered rows' container and the row of an index, for painting matches. */
  readonly rowsRoot: () => HTMLElement;
  readonly rowOf: (index: number) => HTMLElement | undefined;
  /** Focus goes back to the transcript when the bar closes. */
  readonly restoreFocus: () => void;
}

export class FindBar {
  readonly element: HTMLDivElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLSpanElement;
  private readonly caseButton: HTMLButtonElement;
  private matchCase = false;
  private hits: readonly number[] = [];
  private truncated = false;
  private current = -1;
  /** The query the shown hits are for (null until the first answer). */
  private answered: { readonly query: string; readonly matchCase: boolean } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** The query in flight only brings the hits up to date: the user's place among them stays. */
  private refreshing = false;

  constructor(private readonly deps: FindBarDeps) {
    this.input = h('input', { type: 'text', class: 'find-input', placeholder: 'Find', 'aria-label': 'Find in transcript', spellcheck: 'false' });
    this.count = h('span', { class: 'find-count', role: 'status', 'aria-live': 'polite' });
    this.caseButton = button({ label: 'Match Case', icon: 'case-sensitive', className: 'find-toggle', onClick: () => this.toggleCase() });
    this.caseButton.setAttribute('aria-pressed', 'false');
    this.element = h(
      'div',
      { id: 'find-bar', class: 'find-bar', role: 'search' },
      this.input,
      this.caseButton,
      this.count,
      button({ label: 'Previous Match (Shift+Enter)', icon: 'arrow-up', onClick: () => this.step(-1) }),
      button({ label: 'Next Match (Enter)', icon: 'arrow-down', onClick: () => this.step(1) }),
      button({ label: 'Close (Escape)', icon: 'close', onClick: () => this.close() }),
    );
    this.element.hidden = true;
    this.input.addEventListener('input', () => this.queryChanged());
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.close();
      } else if (event.key === 'Enter' || event.key === 'F3') {
        event.preventDefault();
        this.step(event.shiftKey ? -1 : 1);
      }
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  open(): void {
    this.element.hidden = false;
    this.input.focus();
    this.input.select();
    if (this.input.value !== '' && this.answered === null) {
      this.send();
    }
  }

  close(): void {
    if (!this.isOpen) {
      return;
    }
    this.element.hidden = true;
    clearTimeout(this.timer);
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    CSS.highlights?.delete(MATCH);
    CSS.highlights?.delete(CURRENT);
    this.deps.restoreFocus();
  }

  /** Another run is shown: its hits are not these. */
  reset(): void {
    this.hits = [];
    this.current = -1;
    this.answered = null;
    if (this.isOpen && this.input.value !== '') {
      this.send();
    }
    this.renderCount();
  }

  /** The transcript grew or changed: the hits are searched again shortly (while the bar is open with a query). */
  contentChanged(): void {
    if (!this.isOpen || this.answered === null || this.refreshTimer !== undefined) {
      return;
    }
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.isOpen && this.answered !== null) {
        this.refreshing = true;
        this.send();
      }
    }, REFRESH_DELAY_MS);
  }

  /** The host's answer; an answer to an older query is dropped. */
  result(query: string, matchCase: boolean, hits: readonly number[], truncated: boolean): void {
    if (query !== this.input.value || matchCase !== this.matchCase) {
      return;
    }
    const refresh = this.refreshing;
    this.refreshing = false;
    const shownIndex = this.current >= 0 ? this.hits[this.current] : undefined;
    const kept = refresh && shownIndex !== undefined ? hits.indexOf(shownIndex) : -1;
    if (kept >= 0) {
      // New matches streamed in: the count grows, the hit the user is on stays (no scrolling away from it).
      this.hits = hits;
      this.truncated = truncated;
      this.current = kept;
      this.renderCount();
      return;
    }
    this.answered = { query, matchCase };
    this.hits = hits;
    this.truncated = truncated;
    const from = this.deps.focusIndex();
    const first = hits.findIndex((index) => index >= from);
    this.current = hits.length === 0 ? -1 : first >= 0 ? first : 0;
    this.renderCount();
    if (this.current >= 0 && !refresh) {
      this.deps.reveal(hits[this.current]!); // a refresh never scrolls the view away from where the user is
    }
  }

  /** After each layout: paints the query's matches in the rows on screen. */
  paint(): void {
    if (!this.isOpen || !this.answered || typeof Highlight === 'undefined' || !CSS.highlights) {
      return;
    }
    const { query, matchCase } = this.answered;
    const all: Range[] = [];
    const current: Range[] = [];
    const currentRow = this.current >= 0 ? this.deps.rowOf(this.hits[this.current]!) : undefined;
    const needle = matchCase ? query : query.toLowerCase();
    const walker = document.createTreeWalker(this.deps.rowsRoot(), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = matchCase ? (node.nodeValue ?? '') : (node.nodeValue ?? '').toLowerCase();
      for (let at = text.indexOf(needle); at >= 0 && needle.length > 0; at = text.indexOf(needle, at + needle.length)) {
        const range = new Range();
        range.setStart(node, at);
        range.setEnd(node, at + needle.length);
        (currentRow?.contains(node) ? current : all).push(range);
      }
    }
    CSS.highlights.set(MATCH, new Highlight(...all));
    CSS.highlights.set(CURRENT, new Highlight(...current));
  }

  private queryChanged(): void {
    this.refreshing = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send(), QUERY_DELAY_MS);
  }

  private toggleCase(): void {
    this.refreshing = false;
    this.matchCase = !this.matchCase;
    this.caseButton.setAttribute('aria-pressed', String(this.matchCase));
    this.caseButton.classList.toggle('active', this.matchCase);
    this.send();
  }

  private send(): void {
    clearTimeout(this.timer);
    const runKey = this.deps.runKey();
    const query = this.input.value;
    if (query === '') {
      this.hits = [];
      this.current = -1;
      this.answered = null;
      CSS.highlights?.delete(MATCH);
      CSS.highlights?.delete(CURRENT);
      this.renderCount();
      return;
    }
    if (runKey) {
      this.deps.post({ type: 'find', runKey, query, matchCase: this.matchCase });
    }
  }

  private step(delta: number): void {
    if (this.hits.length === 0) {
      if (this.answered === null && this.input.value !== '') {
        this.send();
      }
      return;
    }
    this.current = (this.current + delta + this.hits.length) % this.hits.length;
    this.renderCount();
    this.deps.reveal(this.hits[this.current]!);
  }

  private renderCount(): void {
    if (this.answered === null) {
      this.count.textContent = '';
      return;
    }
    const total = `${this.hits.length.toLocaleString()}${this.truncated ? '+' : ''}`;
    this.count.textContent = this.hits.length === 0 ? 'No results' : `${(this.current + 1).toLocaleString()} of ${total}`;
    this.element.classList.toggle('no-results', this.hits.length === 0);
  }
}
