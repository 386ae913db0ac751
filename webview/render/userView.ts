/** A prompt the user sent: plain text with its line breaks, never markdown-interpreted. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { appendChildren, codicon, h } from '../dom';
import { simpleView } from './itemShell';
import type { ItemView } from './renderContext';

export function userView(item: Extract<TranscriptItem, { kind: 'user' }>): ItemView {
  return simpleView(item, (row, next) => {
    if (next.kind !== 'user') {
      return;
    }
    appendChildren(row, [
      h('div', { class: 'item-header' }, codicon('account'), h('span', { class: 'item-author' }, 'You'), next.note ? h('span', { class: 'item-note' }, next.note) : null),
      h('div', { class: 'user-text' }, next.text),
    ]);
  });
}
