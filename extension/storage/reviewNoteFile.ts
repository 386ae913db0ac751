/**
 * The bytes of a run's pending notes to the agent (issue #26): one small JSON file beside its journal,
 * `<safeFileName(runId)>.notes.json`, replaced whole (a temporary file renamed over it: a reader sees the old list or
 * the new one). Named with the run's prefix, so Remove Run deletes it with the run's other files (runFiles.ts). What
 * the list holds is changeSets/reviewNoteList.ts's; this file knows JSON, not its shape.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from './runFileName';

export function reviewNoteFileOf(dir: string, runId: string): string {
  return join(dir, `${safeFileName(runId)}.notes.json`);
}

/** The stored JSON value (undefined: none, or not JSON — a damaged file is no notes, never a crash). */
export async function readReviewNoteFile(dir: string, runId: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(reviewNoteFileOf(dir, runId), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes the value whole; `undefined` deletes the file (no notes left). */
export async function writeReviewNoteFile(dir: string, runId: string, value: unknown): Promise<void> {
  const file = reviewNoteFileOf(dir, runId);
  if (value === undefined) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(value));
  await rename(tmp, file);
}
