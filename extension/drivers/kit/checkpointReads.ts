/**
 * Reading a run's checkpoint back (runCheckpoints.ts): whole — its items parsed a line per step, what a replay
 * restores — or only its head (the run, its approvals, the transcript's sequence), what a live run shown without its
 * transcript needs at connect (quietRuns.ts). Either way the file is used only when it is of this format, its digest
 * matches, and the journal still holds the bytes it stands for, ending a line there; anything else throws, with
 * the reason (the caller logs it and replays the journal instead).
 */
import type { RunCheckpointModel } from '../../model/runCheckpoint';
import type { Transcript } from '../../model/transcript';
import { readCheckpointFile } from '../../storage/runCheckpointFile';
import type { CheckpointFile } from '../../storage/runCheckpointFile';
import type { RunJournal } from '../../storage/runJournal';
import { CheckpointBodyError, readCheckpointBody, readCheckpointHead } from './checkpointBody';
import type { CheckpointHead } from './checkpointBody';
import { checkpointHeaderSchema, CHECKPOINT_VERSION } from './checkpointSchema';
import type { CheckpointHeader } from './checkpointSchema';

type JournalView = Pick<RunJournal, 'tailDigest' | 'endsLineAt'>;

/** A checkpoint read whole. */
export interface WholeCheckpoint {
  readonly header: CheckpointHeader;
  readonly model: RunCheckpointModel;
  readonly transcript: Transcript;
}

/** A checkpoint of which only the head was parsed (its items are not read). */
export interface CheckpointHeadRead {
  readonly header: CheckpointHeader;
  readonly head: CheckpointHead;
}

/** The run's checkpoint read whole, or undefined when it has none. */
export async function readWholeCheckpoint(dir: string, journal: JournalView, runId: string): Promise<WholeCheckpoint | undefined> {
  const checked = await checkedFile(dir, journal, runId);
  if (!checked) {
    return undefined;
  }
  // Parsed a line at a time, the loop given back between (checkpointBody.ts): a 100k-item run is 12.8 MiB.
  const lines = await checked.file.bodyLines();
  return { header: checked.header, ...(await bodyRead(() => readCheckpointBody(lines))) };
}

/** The run's checkpoint header and head (its items unread), or undefined when it has none. */
export async function readCheckpointHeadOnly(dir: string, journal: JournalView, runId: string): Promise<CheckpointHeadRead | undefined> {
  const checked = await checkedFile(dir, journal, runId);
  if (!checked) {
    return undefined;
  }
  const line = await checked.file.headLine();
  return { header: checked.header, head: await bodyRead(() => readCheckpointHead(line)) };
}

/** `read`, its CheckpointBodyError said as the reason the checkpoint is not used. */
async function bodyRead<T>(read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof CheckpointBodyError ? new Error(`a malformed body (${error.message})`) : error;
  }
}

/** The file and its header, once the header is of this format and the journal still holds what it stands for. */
async function checkedFile(dir: string, journal: JournalView, runId: string): Promise<{ file: CheckpointFile; header: CheckpointHeader } | undefined> {
  const file = await readCheckpointFile(dir, runId);
  if (!file) {
    return undefined;
  }
  const header = checkpointHeaderSchema.safeParse(file.header);
  if (!header.success) {
    throw new Error((file.header as { v?: unknown } | null)?.v !== CHECKPOINT_VERSION ? 'another format' : 'a malformed header');
  }
  const { bytes, tail } = header.data;
  if ((await journal.tailDigest(runId, bytes)) !== tail) {
    throw new Error('the journal no longer holds what it was taken from');
  }
  if (!(await journal.endsLineAt(runId, bytes, false))) {
    throw new Error('it does not end at a line of the journal'); // issue #25: one mid-line cost a line and replayed overlap
  }
  return { file, header: header.data };
}
