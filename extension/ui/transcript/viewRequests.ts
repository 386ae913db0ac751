/**
 * The transcript view's questions about the part of the run it has not loaded — a range to scroll into, a search
 * over the whole run, an item to reveal — answered from the host's transcript. Pure (no `vscode`): the surface posts
 * the answer; unit tests and the webview tier's fake host call the same function.
 */
import { findInTranscriptSliced } from '../../model/transcriptSearch';
import type { Transcript } from '../../model/transcript';
import { locate, rangeOf } from '../../model/transcriptWindow';
import type { HostToWebview, WebviewToHost } from '../../protocol/webviewMessages';

/** The requests answered here. */
export type ViewRequest = Extract<WebviewToHost, { type: 'range' | 'find' | 'locate' }>;

export function isViewRequest(message: WebviewToHost): message is ViewRequest {
  return message.type === 'range' || message.type === 'find' || message.type === 'locate';
}

const MISSING_MESSAGE = 'That message is not in this transcript (it may be older than what the daemon kept).';
const NO_PENDING_APPROVAL = 'No approval request of this run is waiting.';

/**
 * The answer to `request` about `transcript` (the run `runKey` the view shows), or `undefined` when there is nothing
 * to say (a request for another run, a nonsensical range). A range or a place is answered at once; a search runs
 * over the whole run in slices of the event loop (model/transcriptSearch.ts), so the answer may come turns later.
 */
export async function answerViewRequest(request: ViewRequest, runKey: string, transcript: Transcript | undefined): Promise<HostToWebview | undefined> {
  if (request.runKey !== runKey || !transcript) {
    return undefined;
  }
  switch (request.type) {
    case 'range': {
      const range = rangeOf(transcript, request.start, request.end);
      return range ? { type: 'items', runKey, start: range.start, items: range.items, seq: transcript.seq } : undefined;
    }
    case 'find': {
      const found = await findInTranscriptSliced(transcript, request.query, request.matchCase);
      return { type: 'findResult', runKey, query: request.query, matchCase: request.matchCase, hits: found.hits, truncated: found.truncated };
    }
    case 'locate': {
      const at = locate(transcript, request.target);
      if (!at) {
        return { type: 'toast', level: 'info', text: request.target.kind === 'message' ? MISSING_MESSAGE : NO_PENDING_APPROVAL };
      }
      return { type: 'revealItem', runKey, index: at.index, id: at.id };
    }
    default: {
      const _exhaustive: never = request;
      return _exhaustive;
    }
  }
}
