/**
 * What a transcript view is sent of a run: never the whole transcript. A snapshot is its tail (TRANSCRIPT_WINDOW
 * `snapshotItems`) plus the kind of every item (a byte each, for height estimates); the view asks for other ranges
 * as the user scrolls, and for items it has not loaded by what they are (an approval, a hyperhive message). Pure: the
 * surface (extension/ui/transcript/transcriptSurface.ts) posts what these return; the bench builds the same.
 */
import type { TranscriptItem } from '../protocol/transcriptTypes';
import { TRANSCRIPT_WINDOW } from '../protocol/transcriptWindowSizes';
import type { Transcript } from './transcript';

export interface TranscriptWindow {
  readonly start: number;
  readonly items: TranscriptItem[];
  readonly total: number;
  readonly kinds: string;
  readonly seq: number;
}

/** The last `size` items of `transcript` (all of a short one), with the count and kinds of the whole. */
export function tailWindow(transcript: Transcript | undefined, size: number = TRANSCRIPT_WINDOW.snapshotItems): TranscriptWindow {
  if (!transcript) {
    return { start: 0, items: [], total: 0, kinds: '', seq: 0 };
  }
  const total = transcript.length;
  const start = Math.max(0, total - size);
  return { start, items: transcript.slice(start, total), total, kinds: transcript.kinds, seq: transcript.seq };
}

/**
 * The items `[start, end)` a view asked for, clamped to the transcript and to `rangeMax` items (a view asking for
 * more gets the first `rangeMax` and asks again); `undefined` for a nonsensical request.
 */
export function rangeOf(transcript: Transcript, start: number, end: number): { readonly start: number; readonly items: TranscriptItem[] } | undefined {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start || start < 0) {
    return undefined;
  }
  const from = Math.min(start, transcript.length);
  const to = Math.min(end, transcript.length, from + TRANSCRIPT_WINDOW.rangeMax);
  return { start: from, items: transcript.slice(from, to) };
}

/** What a view can ask to be shown without having it loaded. */
export type LocateTarget = { readonly kind: 'pendingApproval' } | { readonly kind: 'message'; readonly messageId: string };

/** Where an item is: its index and id (what a `revealItem` carries). */
export interface ItemPlace {
  readonly index: number;
  readonly id: string;
}

function placeAt(transcript: Transcript, index: number | undefined): ItemPlace | undefined {
  const item = index === undefined ? undefined : transcript.at(index);
  return index === undefined || !item ? undefined : { index, id: item.id };
}

/**
 * Where `target` is: the first approval still waiting for a person (pending, or failed to deliver and open again),
 * or the hyperhive message with that id. `undefined` when there is none.
 */
export function locate(transcript: Transcript, target: LocateTarget): ItemPlace | undefined {
  if (target.kind === 'message') {
    return placeAt(transcript, transcript.indexOfMessage(target.messageId));
  }
  for (const index of transcript.approvalIndices()) {
    const item = transcript.at(index);
    if (item?.kind === 'approval' && (item.status === 'pending' || item.status === 'failed')) {
      return placeAt(transcript, index);
    }
  }
  return undefined;
}

/** Where the approval card of `approvalId` is (for *Next Approval*). */
export function locateApproval(transcript: Transcript, approvalId: string): ItemPlace | undefined {
  return placeAt(transcript, transcript.indexOfApproval(approvalId));
}
