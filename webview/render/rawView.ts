/** Anything the driver could not map: its label and pretty JSON, so nothing is silently dropped. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { codicon, h } from '../dom';
import { countNewlines, prettyJson } from '../jsonText';
import { simpleView } from './itemShell';
import { bindDetails } from './renderContext';
import type { ItemView, RenderContext } from './renderContext';

export function rawView(item: Extract<TranscriptItem, { kind: 'raw' }>, ctx: RenderContext): ItemView {
  return simpleView(item, (row, next) => {
    if (next.kind !== 'raw') {
      return;
    }
    const json = prettyJson(next.data);
    const details = h(
      'details',
      { class: 'raw' },
      h('summary', null, codicon('json'), h('span', { class: 'raw-label' }, next.label)),
      h('pre', { class: 'json raw-json' }, json),
    );
    bindDetails(details, ctx, `raw:${next.id}`, countNewlines(json) < 12);
    row.appendChild(details);
  });
}
