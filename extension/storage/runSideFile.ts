/**
 * A small JSON file of one run beside its journal — `<safeFileName(runId)><suffix>` (`.files.json` file
 * checkpoints, `.review.json` review marks, `.notes.json` notes to the agent) — read and written whole. Named with the
 * run's prefix, so Remove Run deletes it with the run's other files (runFiles.ts). Written to a temporary file (unique
 * per write, removed when the write fails) and renamed over, so a reader sees the old value or the new, never a mix.
 * Read leniently: no file, or one that is not JSON, is `undefined` — a damaged file is no data, never a crash; what
 * the value must look like is each caller's schema, not this file's.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from './replaceFile';
import { safeFileName } from './runFileName';

export function runSideFileOf(dir: string, runId: string, suffix: string): string {
  return join(dir, `${safeFileName(runId)}${suffix}`);
}

/** The stored JSON value (undefined: none, or not JSON). */
export async function readRunSideFile(dir: string, runId: string, suffix: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(runSideFileOf(dir, runId, suffix), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes the value whole; `undefined` deletes the file (nothing left to keep). */
export async function writeRunSideFile(dir: string, runId: string, suffix: string, value: unknown): Promise<void> {
  const file = runSideFileOf(dir, runId, suffix);
  if (value === undefined) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(dir, { recursive: true });
  await replaceFile(file, JSON.stringify(value));
}
