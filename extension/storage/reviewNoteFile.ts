/**
 * The bytes of a run's pending notes to the agent (issue #26): `<safeFileName(runId)>.notes.json` beside its journal,
 * read and written whole (runSideFile.ts: atomic, lenient, deleted with the run). What the list holds is
 * changeSets/reviewNoteList.ts's; this file knows JSON, not its shape.
 */
import { readRunSideFile, runSideFileOf, writeRunSideFile } from './runSideFile';

const SUFFIX = '.notes.json';

export function reviewNoteFileOf(dir: string, runId: string): string {
  return runSideFileOf(dir, runId, SUFFIX);
}

/** The stored JSON value (undefined: none, or not JSON — a damaged file is no notes, never a crash). */
export function readReviewNoteFile(dir: string, runId: string): Promise<unknown> {
  return readRunSideFile(dir, runId, SUFFIX);
}

/** Writes the value whole; `undefined` deletes the file (no notes left). */
export function writeReviewNoteFile(dir: string, runId: string, value: unknown): Promise<void> {
  return writeRunSideFile(dir, runId, SUFFIX, value);
}
