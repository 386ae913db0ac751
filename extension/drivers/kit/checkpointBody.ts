/**
 * A run checkpoint's body (model/runCheckpoint.ts) as lines of JSON (storage/runCheckpointFile.ts): its head (the
 * run, its approvals, the transcript's sequence), then its items ITEMS_PER_LINE a line. In lines so that neither
 * writing nor reading a 100k-item run holds the host (issue #25 §3): each line is built only when the writer asks
 * for it, and read back one line per step, giving the event loop back between steps (base/timeSlices.ts).
 */
import { TimeSlices } from '../../base/timeSlices';
import { holdsItsItems } from '../../model/runCheckpoint';
import type { RunCheckpointModel } from '../../model/runCheckpoint';
import { Transcript } from '../../model/transcript';
import type { TranscriptItem } from '../../protocol/transcriptTypes';
import { checkpointHeadSchema, isItemShaped } from './checkpointSchema';

/** Items per line: ~130 KiB of JSON, a millisecond or two to build or parse. */
export const ITEMS_PER_LINE = 1_000;

/** The body's lines, each built when asked for (the model is the one taken at the checkpoint's moment). */
export function* checkpointBodyLines(model: RunCheckpointModel): Generator<string> {
  const { items, ...head } = model;
  yield JSON.stringify(head);
  for (let at = 0; at < items.length; at += ITEMS_PER_LINE) {
    yield JSON.stringify(items.slice(at, at + ITEMS_PER_LINE));
  }
}

/** Why a body read back is not used. */
export class CheckpointBodyError extends Error {}

function parsed(line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new CheckpointBodyError(`${what} is not JSON`);
  }
}

/** A body's head: the run, its approvals and the transcript's sequence (all but the items). */
export type CheckpointHead = Omit<RunCheckpointModel, 'items'>;

/** The head line of a body, checked; a CheckpointBodyError when it is not what `checkpointBodyLines` writes. */
export function readCheckpointHead(line: string): CheckpointHead {
  const head = checkpointHeadSchema.safeParse(parsed(line, 'its head'));
  if (!head.success) {
    throw new CheckpointBodyError('a malformed head');
  }
  return head.data as CheckpointHead;
}

/** A body read back: its model, and its items already in the Transcript the store installs (runRestored). */
export interface ReadCheckpointBody {
  readonly model: RunCheckpointModel;
  readonly transcript: Transcript;
}

/**
 * The model of the body's `lines`, parsed (and its items indexed) a line per step, the loop given back between
 * slices. Throws a
 * CheckpointBodyError for anything that is not what `checkpointBodyLines` writes: a head of another shape, a line
 * that is not an array of item-shaped values, or more or fewer items than the run counts.
 */
export async function readCheckpointBody(lines: readonly string[], slices: TimeSlices = new TimeSlices()): Promise<ReadCheckpointBody> {
  if (lines.length === 0) {
    throw new CheckpointBodyError('an empty body');
  }
  const head = readCheckpointHead(lines[0]!);
  const items: TranscriptItem[] = [];
  const transcript = Transcript.restoring(head.seq);
  for (let i = 1; i < lines.length; i++) {
    await slices.pause();
    const chunk = parsed(lines[i]!, `line ${i + 1}`);
    if (!Array.isArray(chunk) || chunk.length === 0 || !chunk.every(isItemShaped)) {
      throw new CheckpointBodyError(`line ${i + 1} is not a line of items`);
    }
    for (const item of chunk) {
      items.push(item);
    }
    transcript.restoreItems(chunk);
  }
  const model = { ...head, items } as RunCheckpointModel;
  if (!holdsItsItems(model)) {
    throw new CheckpointBodyError(`${items.length} items, not as many as its run counts`);
  }
  return { model, transcript };
}
