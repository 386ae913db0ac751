/**
 * Compact one-line items: usage / rate limit / compaction data, errors, notices, event gaps and turn boundaries.
 * All small, so they re-render whole on change. A data line with text behind it (a compaction's summary of what it
 * replaced) folds it under the line, kept open or closed as the person left it.
 */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { appendChildren, codicon, h } from '../dom';
import { prettyJson } from '../jsonText';
import { simpleView } from './itemShell';
import { bindDetails } from './renderContext';
import type { ItemView, RenderContext } from './renderContext';

type LineItem = Extract<TranscriptItem, { kind: 'usage' | 'rateLimit' | 'compaction' | 'error' | 'notice' | 'gap' | 'turn' }>;

const DATA_ICONS = { usage: 'dashboard', rateLimit: 'watch', compaction: 'fold' } as const;
const NOTICE_ICONS = { info: 'info', warning: 'warning', error: 'error' } as const;
const TURN_TEXT = { started: 'Turn started', completed: 'Turn completed', cancelled: 'Turn cancelled', failed: 'Turn failed' } as const;

export function lineView(item: LineItem, ctx: RenderContext): ItemView {
  return simpleView(item, (row, next) => renderLine(row, next as LineItem, ctx));
}

function renderLine(row: HTMLElement, item: LineItem, ctx: RenderContext): void {
  row.classList.add('item-line');
  switch (item.kind) {
    case 'usage':
    case 'rateLimit':
    case 'compaction': {
      const title = prettyJson(item.data, 2_000);
      const line = [codicon(DATA_ICONS[item.kind]), h('span', { class: 'line-text', title: title || null }, item.summary)];
      if (!item.text) {
        appendChildren(row, line);
        return;
      }
      // Plain text (the agent's, untrusted), folded until asked for: it can be long.
      const details = h('details', { class: 'line-details' }, h('summary', { class: 'line-summary' }, ...line), h('div', { class: 'line-body' }, item.text));
      bindDetails(details, ctx, `line:${item.id}`, false);
      appendChildren(row, [details]);
      return;
    }
    case 'error':
      appendChildren(row, [
        codicon('error'),
        h('span', { class: 'line-text' }, item.message),
        item.code ? h('span', { class: 'badge badge-error' }, item.code) : null,
      ]);
      return;
    case 'notice':
      row.classList.add(`notice-${item.level}`);
      appendChildren(row, [
        codicon(NOTICE_ICONS[item.level]),
        h('span', { class: 'line-text' }, item.text),
        item.state ? h('span', { class: 'badge' }, item.state) : null,
      ]);
      return;
    case 'gap': {
      // `from`/`to` are the first and last lost sequence numbers (inclusive).
      const count = item.to >= item.from ? item.to - item.from + 1 : 0;
      const what = count > 0 ? `${count} event${count === 1 ? '' : 's'} lost` : 'Events lost';
      const range = count > 1 ? ` (${item.from}–${item.to})` : count === 1 ? ` (#${item.from})` : '';
      appendChildren(row, [codicon('debug-disconnect'), h('span', { class: 'line-text' }, `${what}${range}${item.reason ? `: ${item.reason}` : ''}`)]);
      return;
    }
    case 'turn': {
      row.classList.add(`turn-${item.phase}`);
      const extra = [item.summary, item.message, item.code ? `(${item.code})` : undefined].filter(Boolean).join(' ');
      appendChildren(row, [
        h('span', { class: 'turn-rule', 'aria-hidden': 'true' }),
        h('span', { class: 'turn-label' }, extra ? `${TURN_TEXT[item.phase]} · ${extra}` : TURN_TEXT[item.phase]),
        h('span', { class: 'turn-rule', 'aria-hidden': 'true' }),
      ]);
      return;
    }
  }
}
