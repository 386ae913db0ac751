/**
 * The transcript pane: glues the store (a window of the data), the virtual list (which rows exist) and item views
 * (how a row looks). Once per animation frame `flush()` turns the store's recorded changes into DOM work: appended
 * items grow the list, changes to mounted items re-render or append to just those items, loaded ranges replace their
 * placeholder rows, then the list lays out and the range loader asks the host for what the new rows lack.
 */
import type { TranscriptItem } from '../extension/protocol/transcriptTypes';
import type { WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, h } from './dom';
import { FindBar } from './findBar';
import { createItemView } from './render/createItemView';
import type { ItemView, RenderContext } from './render/renderContext';
import { RangeLoader } from './rangeLoader';
import type { TranscriptStore } from './transcriptStore';
import type { UiStateStore } from './uiState';
import { VirtualList } from './virtualList';
import type { ScrollPosition } from './virtualList';

const ESTIMATES: Record<TranscriptItem['kind'], number> = {
  user: 64,
  text: 90,
  reasoning: 34,
  tool: 54,
  approval: 150,
  usage: 26,
  rateLimit: 26,
  compaction: 26,
  error: 26,
  notice: 26,
  gap: 26,
  turn: 28,
  message: 90,
  raw: 60,
  checkpoint: 30,
};

export interface TranscriptViewDeps {
  readonly store: TranscriptStore;
  readonly uiState: UiStateStore;
  readonly post: (message: WebviewToHost) => void;
  readonly requestFrame: () => void;
}

export class TranscriptView {
  /** `#transcript-container`: the scroller plus the floating "jump to latest" button. */
  readonly element: HTMLDivElement;
  private readonly scroller: HTMLDivElement;
  private readonly jumpButton: HTMLButtonElement;
  private readonly list: VirtualList;
  private readonly views = new Map<number, ItemView>();
  /** Rows mounted before their item was loaded. */
  private readonly placeholders = new Set<number>();
  private readonly ctx: RenderContext;
  private readonly loader: RangeLoader;
  readonly find: FindBar;
  private flash: { readonly index: number; readonly id: string | undefined } | null = null;

  constructor(private readonly deps: TranscriptViewDeps) {
    const { store, uiState } = deps;
    this.scroller = h('div', { id: 'transcript', class: 'transcript', tabindex: '0', role: 'region', 'aria-label': 'Transcript' });
    this.jumpButton = button({
      label: 'Jump to latest',
      text: 'Jump to latest',
      icon: 'arrow-down',
      className: 'jump-to-latest',
      onClick: () => {
        this.list.jumpToLatest();
        this.savePosition();
      },
    });
    this.jumpButton.id = 'jump-to-latest';
    this.jumpButton.hidden = true;
    this.find = new FindBar({
      runKey: () => store.runKey,
      post: deps.post,
      reveal: (index) => this.revealIndex(index),
      focusIndex: () => store.focus,
      rowsRoot: () => this.list.windowEl,
      rowOf: (index) => this.list.row(index),
      restoreFocus: () => this.scroller.focus(),
    });
    this.element = h('div', { id: 'transcript-container', class: 'transcript-container' }, this.find.element, this.scroller, this.jumpButton);

    this.ctx = {
      runKey: () => store.runKey,
      post: deps.post,
      expansion: (key) => {
        const runKey = store.runKey;
        return runKey ? uiState.forRun(runKey).expanded[key] : undefined;
      },
      setExpansion: (key, open, defaultOpen) => {
        const runKey = store.runKey;
        if (runKey) {
          uiState.setExpanded(runKey, key, open, defaultOpen);
        }
      },
      revealMessage: (messageId) => {
        const runKey = store.runKey;
        if (runKey) {
          deps.post({ type: 'locate', runKey, target: { kind: 'message', messageId } });
        }
      },
      continueBlocked: () => store.run?.noContinue,
    };
    this.loader = new RangeLoader(store, deps.post, deps.requestFrame);

    this.list = new VirtualList(
      this.scroller,
      {
        mount: (index) => this.mount(index),
        unmount: (index) => {
          this.views.get(index)?.dispose();
          this.views.delete(index);
          this.placeholders.delete(index);
        },
        estimate: (index) => ESTIMATES[store.kindAt(index)],
      },
      deps.requestFrame,
    );
    this.list.onPinnedChange = (pinned) => {
      this.jumpButton.hidden = pinned;
      // The pill gets a strip of its own under the scroller: floating over it, it covered whatever was at the bottom
      // of the view (an approval card's buttons).
      this.element.classList.toggle('jump-visible', !pinned);
    };
    this.list.onUserScroll = () => this.savePosition();
  }

  get pinned(): boolean {
    return this.list.pinned;
  }

  /** The rows in the DOM, `[start, end)`. */
  get renderedRange(): { start: number; end: number } {
    return this.list.renderedRange;
  }

  /** Scrolls to the item at `index` (loaded or not; its id is `id`, if known) and briefly highlights it once shown. */
  revealIndex(index: number, id?: string): void {
    if (index < 0 || index >= this.deps.store.length) {
      return;
    }
    this.list.scrollToIndex(index);
    this.flash = { index, id };
    this.savePosition();
  }

  /** Renders everything the store recorded since the last frame. */
  flush(): void {
    const { store } = this.deps;
    const changes = store.takeChanges();
    if (changes.reset) {
      this.loader.reset();
      this.find.reset();
      this.list.reset(store.length, this.restoredPosition());
    } else if (changes.added > 0) {
      this.list.append(changes.added);
    }
    if (changes.loaded.length > 0) {
      this.remountLoaded();
    }
    for (const [id, change] of changes.items) {
      const index = store.indexOf(id);
      const view = this.views.get(index);
      const item = store.at(index);
      if (!view || !item) {
        continue;
      }
      if (change.full) {
        view.update(item);
      } else {
        for (const [field, chunks] of change.appends) {
          view.append(field, chunks.join(''), item);
        }
      }
    }
    if (changes.added > 0 || changes.items.size > 0) {
      this.find.contentChanged();
    }
    this.list.layout();
    const rendered = this.list.renderedRange;
    store.focus = Math.floor((rendered.start + rendered.end) / 2);
    this.loader.ensure(rendered);
    this.flashRevealed();
    this.find.paint();
  }

  /** Re-renders the mounted rows of items of `kind` (what they show depends on the run's header too). */
  refreshKind(kind: TranscriptItem['kind']): void {
    for (const [index, view] of this.views) {
      const item = this.deps.store.at(index);
      if (item?.kind === kind) {
        view.update(item);
      }
    }
    this.list.layout();
  }

  /** The host answered a `range`: loads it unless it is stale (then the loader asks again). */
  loadRange(start: number, items: Parameters<TranscriptStore['load']>[1], seq: number): void {
    this.deps.store.load(start, items, seq);
    this.loader.answered();
  }

  /** Placeholders whose item arrived, and rows whose item left the window, are mounted afresh by the next layout. */
  private remountLoaded(): void {
    const { store } = this.deps;
    const loaded = store.loaded;
    const arrived = [...this.placeholders].filter((index) => store.at(index) !== undefined);
    const gone = [...this.views.keys()].filter((index) => index < loaded.start || index >= loaded.end);
    for (const index of [...arrived, ...gone]) {
      this.list.invalidate(index, index + 1);
    }
  }

  private flashRevealed(): void {
    const flash = this.flash;
    const row = flash ? this.list.row(flash.index) : undefined;
    if (!flash || !row || row.dataset.itemId === undefined || (flash.id !== undefined && row.dataset.itemId !== flash.id)) {
      return; // not there yet (or still a placeholder)
    }
    this.flash = null;
    row.classList.remove('flash');
    void row.offsetWidth; // restart the animation
    row.classList.add('flash');
  }

  private mount(index: number): HTMLElement {
    const item = this.deps.store.at(index);
    if (!item) {
      // Not loaded yet: a row of the estimated height until the range arrives (the loader asks after this layout).
      this.placeholders.add(index);
      const row = h('div', { class: 'item item-placeholder', 'aria-busy': 'true', role: 'article' }, 'Loading…');
      row.style.height = `${ESTIMATES[this.deps.store.kindAt(index)]}px`;
      return row;
    }
    const view = createItemView(item, this.ctx);
    this.views.set(index, view);
    return view.element;
  }

  private restoredPosition(): ScrollPosition {
    const { store, uiState } = this.deps;
    const runKey = store.runKey;
    if (!runKey) {
      return { pinned: true, anchorIndex: 0, anchorDelta: 0 };
    }
    const state = uiState.forRun(runKey);
    // The anchor's id where it is loaded; otherwise its index (items never move: a transcript only grows).
    const byId = state.anchorId !== undefined ? store.indexOf(state.anchorId) : -1;
    const anchorIndex = byId >= 0 ? byId : state.anchorIndex !== undefined && state.anchorIndex < store.length ? state.anchorIndex : -1;
    if (state.pinned || anchorIndex < 0) {
      return { pinned: true, anchorIndex: 0, anchorDelta: 0 };
    }
    return { pinned: false, anchorIndex, anchorDelta: state.anchorDelta ?? 0 };
  }

  private savePosition(): void {
    const { store, uiState } = this.deps;
    const runKey = store.runKey;
    if (!runKey) {
      return;
    }
    const state = uiState.forRun(runKey);
    const position = this.list.position;
    state.pinned = position.pinned;
    state.anchorId = position.pinned ? undefined : store.at(position.anchorIndex)?.id;
    state.anchorIndex = position.pinned ? undefined : position.anchorIndex;
    state.anchorDelta = position.pinned ? undefined : position.anchorDelta;
    uiState.save();
  }
}
