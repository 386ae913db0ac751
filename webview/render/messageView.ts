/** A message between principals (hyperhive inbox): sender, time, markdown body and a link to the message it answers. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { appendChildren, button, codicon, h } from '../dom';
import { renderMarkdown } from '../markdown';
import { simpleView } from './itemShell';
import type { ItemView, RenderContext } from './renderContext';

type MessageItem = Extract<TranscriptItem, { kind: 'message' }>;

export function messageView(item: MessageItem, ctx: RenderContext): ItemView {
  return simpleView(item, (row, next) => {
    if (next.kind !== 'message') {
      return;
    }
    if (next.messageId) {
      row.dataset['messageId'] = next.messageId;
    }
    appendChildren(row, [
      h(
        'div',
        { class: 'item-header' },
        codicon('mail'),
        h('span', { class: 'item-author message-from' }, next.from),
        next.at ? timeElement(next.at) : null,
        next.inReplyTo ? replyLink(next.inReplyTo, ctx) : null,
      ),
    ]);
    const body = h('div', { class: 'md message-body' });
    body.appendChild(renderMarkdown(next.body, { onCopy: (text) => ctx.post({ type: 'copy', text }) }));
    row.appendChild(body);
  });
}

function timeElement(at: string): HTMLTimeElement {
  const date = new Date(at);
  const valid = !Number.isNaN(date.getTime());
  return h(
    'time',
    { class: 'message-time', datetime: valid ? date.toISOString() : null, title: at },
    valid ? date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' }) : at,
  );
}

/** Always a link: the message may be outside the loaded window; the host reveals it or says it is not in the run. */
function replyLink(inReplyTo: string, ctx: RenderContext): HTMLElement {
  return button({
    label: `Show the message this replies to (${inReplyTo})`,
    text: 'in reply to',
    icon: 'reply',
    className: 'link-button message-reply',
    onClick: () => ctx.revealMessage(inReplyTo),
  });
}
