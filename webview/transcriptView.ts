/**
 * The transcript pane: glues the store (data), the virtual list (which rows exist) and item views (how a row
 * looks). Once per animation frame `flush()` turns the store's recorded changes into DOM work: appended items grow
 * the list, changes to mounted items re-render or append to just those items, then the list lays out.
 */
import type { TranscriptItem } from '../extension/protocol/transcriptTypes';
import type { WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, h } from './dom';
import { createItemView } from './render/createItemView';
import type { ItemView, RenderContext } from './render/renderContext';
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
  private readonly ctx: RenderContext;
  private flashId: string | null = null;

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
    this.element = h('div', { id: 'transcript-container', class: 'transcript-container' }, this.scroller, this.jumpButton);

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
      hasMessage: (messageId) => store.findMessage(messageId) !== undefined,
      revealMessage: (messageId) => {
        const id = store.findMessage(messageId);
        if (id) {
          this.revealItem(id);
        }
      },
    };

    this.list = new VirtualList(
      this.scroller,
      {
        mount: (index) => this.mount(index),
        unmount: (index) => {
          this.views.get(index)?.dispose();
          this.views.delete(index);
        },
        estimate: (index) => ESTIMATES[store.at(index)?.kind ?? 'text'],
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

  /** Scrolls to the item with `id` and briefly highlights it. */
  revealItem(id: string): void {
    const index = this.deps.store.indexOf(id);
    if (index < 0) {
      return;
    }
    this.list.scrollToIndex(index);
    this.flashId = id;
    this.savePosition();
  }

  /** Renders everything the store recorded since the last frame. */
  flush(): void {
    const { store } = this.deps;
    const changes = store.takeChanges();
    if (changes.reset) {
      this.list.reset(store.length, this.restoredPosition());
    } else if (changes.added > 0) {
      this.list.append(changes.added);
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
    this.list.layout();
    if (this.flashId !== null) {
      const row = this.list.row(store.indexOf(this.flashId));
      if (row) {
        this.flashId = null;
        row.classList.remove('flash');
        void row.offsetWidth; // restart the animation
        row.classList.add('flash');
      }
    }
  }

  private mount(index: number): HTMLElement {
    const item = this.deps.store.at(index);
    if (!item) {
      return h('div', { class: 'item item-missing' });
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
    const anchorIndex = state.anchorId !== undefined ? store.indexOf(state.anchorId) : -1;
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
    state.anchorDelta = position.pinned ? undefined : position.anchorDelta;
    uiState.save();
  }
}
