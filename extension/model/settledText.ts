/**
 * Streamed text is built by appending each delta to the item's string (transcriptPatch.ts `append`), which V8
 * keeps as a rope: one 32-byte node per delta plus the delta's own string — for token-sized deltas several times
 * the text itself, and kept for as long as the transcript holds the item. Once an item stops growing (its stream
 * closed, its tool call settled) the rope is flattened: V8 turns it into one flat string in place, and the next GC
 * drops the nodes and the deltas. Values never change, so this is invisible except in the heap
 * (`npm run bench -- memory`, `memory.hostStreamed`).
 */
import type { TranscriptItem, TranscriptPatch } from '../protocol/transcriptTypes';

/** Flattens `text` in place (a number conversion reads the string whole; V8 flattens a rope first). */
function flatten(text: unknown): void {
  if (typeof text === 'string' && text.length > 12) {
    // Ropes shorter than 13 characters do not exist (V8 copies those); the result is thrown away on purpose.
    void Number(text);
  }
}

/** Whether `patch` ends the growth of its item: a stream closed (`streaming: false`) or a tool's status set. */
export function settlesItem(patch: TranscriptPatch): patch is Extract<TranscriptPatch, { readonly op: 'update' }> {
  return patch.op === 'update' && (patch.changes.streaming === false || patch.changes.status !== undefined);
}

/** Flattens the text fields an item grew by appends (`text`, `output`). */
export function flattenSettledText(item: TranscriptItem | undefined): void {
  const record = item as Readonly<Record<string, unknown>> | undefined;
  flatten(record?.text);
  flatten(record?.output);
}
