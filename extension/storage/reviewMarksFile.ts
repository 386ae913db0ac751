/**
 * A run's review marks on disk (issue #26): `<safeFileName(runId)>.review.json` beside the run's journal, so Remove Run
 * (storage/runFiles.ts, which deletes every file of the run by its name's prefix) deletes them with the run.
 *
 * Written to a temporary file and renamed over, so a reader sees the old marks or the new, never a mix. Every change
 * is a read-modify-write of the file as it is now (`updateReviewMarks`), one at a time per file in this process: a
 * second window that marked something in the same run meanwhile keeps its marks, and two clicks in quick succession
 * never write over each other. The content is the extension's own, yet read leniently: a damaged or foreign file is no
 * marks (and is replaced by the next change), never an error that hides the change set.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { ReviewMark, ReviewMarks } from '../changeSets/reviewState';
import { safeFileName } from './runFileName';

const markSchema = z.object({ path: z.string(), at: z.number() });
const fileSchema = z.object({ version: z.literal(1), marks: z.record(z.string(), markSchema) });

/** The path of the run's review marks. */
export function reviewMarksFileOf(dir: string, runId: string): string {
  return join(dir, `${safeFileName(runId)}.review.json`);
}

/** The run's marks as stored (none when there is no file, or it cannot be read). */
export async function readReviewMarks(dir: string, runId: string): Promise<ReviewMarks> {
  let text: string;
  try {
    text = await readFile(reviewMarksFileOf(dir, runId), 'utf8');
  } catch {
    return new Map();
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new Map();
  }
  const parsed = fileSchema.safeParse(json);
  return parsed.success ? new Map<string, ReviewMark>(Object.entries(parsed.data.marks)) : new Map();
}

async function writeReviewMarks(dir: string, runId: string, marks: ReviewMarks): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = reviewMarksFileOf(dir, runId);
  if (marks.size === 0) {
    await rm(file, { force: true });
    return;
  }
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify({ version: 1, marks: Object.fromEntries(marks) }));
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** The writes in flight per file, so this process changes each file one change at a time. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Reads the run's marks, applies `change` and writes the result; resolves to what was written. Changes to one file
 * are applied in the order they were asked for.
 */
export function updateReviewMarks(dir: string, runId: string, change: (marks: ReviewMarks) => ReviewMarks): Promise<ReviewMarks> {
  const file = reviewMarksFileOf(dir, runId);
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(async () => {
    const updated = change(await readReviewMarks(dir, runId));
    await writeReviewMarks(dir, runId, updated);
    return updated;
  });
  queues.set(file, next);
  void next.finally(() => {
    if (queues.get(file) === next) {
      queues.delete(file);
    }
  }).catch(() => undefined);
  return next;
}
