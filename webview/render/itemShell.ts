/** The row element every item view renders into, with the stable hooks tests and styles rely on. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { h } from '../dom';
import type { ItemView } from './renderContext';

/** `<div class="item item-<kind>" data-item-id="…" data-kind="…" role="article">`. */
export function itemShell(item: TranscriptItem): HTMLDivElement {
  return h('div', { class: `item item-${item.kind}`, 'data-item-id': item.id, 'data-kind': item.kind, role: 'article' });
}

/** A view that re-renders its whole (small) item on any change. */
export function simpleView(item: TranscriptItem, render: (row: HTMLElement, item: TranscriptItem) => void): ItemView {
  const element = itemShell(item);
  render(element, item);
  return {
    element,
    update(next: TranscriptItem): void {
      element.replaceChildren();
      render(element, next);
    },
    append(_field: 'text' | 'output', _chunk: string, next: TranscriptItem): void {
      element.replaceChildren();
      render(element, next);
    },
    dispose(): void {},
  };
}
