/** Assistant answer text: markdown, growing in O(chunk) while it streams. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { StreamingMarkdown } from '../streamingMarkdown';
import { itemShell } from './itemShell';
import type { ItemView, RenderContext } from './renderContext';

type TextItem = Extract<TranscriptItem, { kind: 'text' }>;

export function textView(initial: TextItem, ctx: RenderContext): ItemView {
  const element = itemShell(initial);
  const body = new StreamingMarkdown({ onCopy: (text) => ctx.post({ type: 'copy', text }) }, { className: 'md text-body', live: true });
  element.appendChild(body.element);

  const apply = (item: TextItem): void => {
    element.classList.toggle('streaming', item.streaming);
    // While streaming, the body is an aria-live region (see StreamingMarkdown).
    body.set(item.text, item.streaming);
  };
  apply(initial);

  return {
    element,
    update(item) {
      if (item.kind === 'text') {
        apply(item);
      }
    },
    append(field, chunk) {
      if (field === 'text') {
        body.append(chunk);
      }
    },
    dispose() {
      body.dispose();
    },
  };
}
