/**
 * Model reasoning in a `<details>`, collapsed by default. The body is rendered only once opened, so streamed
 * reasoning nobody looks at costs nothing beyond the store.
 */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { codicon, h } from '../dom';
import { StreamingMarkdown } from '../streamingMarkdown';
import { itemShell } from './itemShell';
import { bindDetails } from './renderContext';
import type { ItemView, RenderContext } from './renderContext';

type ReasoningItem = Extract<TranscriptItem, { kind: 'reasoning' }>;

export function reasoningView(initial: ReasoningItem, ctx: RenderContext): ItemView {
  let item = initial;
  const element = itemShell(item);
  const label = h('span', { class: 'reasoning-label' });
  const details = h('details', { class: 'reasoning' }, h('summary', { class: 'reasoning-summary' }, codicon('lightbulb'), label));
  element.appendChild(details);
  let body: StreamingMarkdown | null = null;

  const renderLabel = (): void => {
    label.textContent = item.streaming ? 'Thinking…' : 'Reasoning';
    element.classList.toggle('streaming', item.streaming);
  };
  const ensureBody = (): void => {
    if (body) {
      return;
    }
    body = new StreamingMarkdown({ onCopy: (text) => ctx.post({ type: 'copy', text }) }, { className: 'md reasoning-body', live: false });
    body.set(item.text, item.streaming);
    details.appendChild(body.element);
  };
  renderLabel();
  bindDetails(details, ctx, `reasoning:${item.id}`, false, ensureBody);

  return {
    element,
    update(next) {
      if (next.kind !== 'reasoning') {
        return;
      }
      item = next;
      renderLabel();
      body?.set(item.text, item.streaming);
    },
    append(field, chunk, next) {
      if (next.kind !== 'reasoning' || field !== 'text') {
        return;
      }
      item = next;
      body?.append(chunk);
    },
    dispose() {
      body?.dispose();
    },
  };
}
