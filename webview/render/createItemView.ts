/** Picks the view for an item's kind; exhaustive, so a new kind in the contract fails to compile here. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { approvalView } from './approvalView';
import { checkpointView } from './checkpointView';
import { lineView } from './lineViews';
import { messageView } from './messageView';
import { rawView } from './rawView';
import { reasoningView } from './reasoningView';
import type { ItemView, RenderContext } from './renderContext';
import { textView } from './textView';
import { toolView } from './toolView';
import { userView } from './userView';

export function createItemView(item: TranscriptItem, ctx: RenderContext): ItemView {
  switch (item.kind) {
    case 'user':
      return userView(item);
    case 'text':
      return textView(item, ctx);
    case 'reasoning':
      return reasoningView(item, ctx);
    case 'tool':
      return toolView(item, ctx);
    case 'approval':
      return approvalView(item, ctx);
    case 'usage':
    case 'rateLimit':
    case 'compaction':
    case 'error':
    case 'notice':
    case 'gap':
    case 'turn':
      return lineView(item, ctx);
    case 'message':
      return messageView(item, ctx);
    case 'raw':
      return rawView(item, ctx);
    case 'checkpoint':
      return checkpointView(item, ctx);
    default: {
      const _exhaustive: never = item;
      return _exhaustive;
    }
  }
}
