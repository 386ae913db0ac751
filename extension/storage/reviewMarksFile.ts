/**
 * A run's review marks on disk (issue #26): `<safeFileName(runId)>.review.json` beside the run's journal, so Remove Run
 * (storage/runFiles.ts, which deletes every file of the run by its name's prefix) deletes them with the run.
 *
 * Written whole through runSideFile.ts (a temporary file renamed over: a reader sees the old marks or the new).
 * Every change is a read-modify-write of the file as it is now (`updateReviewMarks`), one at a time per file in this
 * process: a second window that marked something in the same run meanwhile keeps its marks, and two clicks in quick
 * succession never write over each other. The content is the extension's own, yet read leniently: a damaged or
 * foreign file is no marks (and is replaced by the next change), never an error that hides the change set.
 */
import * as z from 'zod/mini';
import type { ReviewMark, ReviewMarks } from '../changeSets/reviewState';
import { readRunSideFile, runSideFileOf, writeRunSideFile } from './runSideFile';

const SUFFIX = '.review.json';
const markSchema = z.object({ path: z.string(), at: z.number() });
const fileSchema = z.object({ version: z.literal(1), marks: z.record(z.string(), markSchema) });

/** The path of the run's review marks. */
export function reviewMarksFileOf(dir: string, runId: string): string {
  return runSideFileOf(dir, runId, SUFFIX);
}

/** The run's marks as stored (none when there is no file, or it cannot be read). */
export async function readReviewMarks(dir: string, runId: string): Promise<ReviewMarks> {
  const parsed = fileSchema.safeParse(await readRunSideFile(dir, runId, SUFFIX));
  return parsed.success ? new Map<string, ReviewMark>(Object.entries(parsed.data.marks)) : new Map();
}

function writeReviewMarks(dir: string, runId: string, marks: ReviewMarks): Promise<void> {
  return writeRunSideFile(dir, runId, SUFFIX, marks.size === 0 ? undefined : { version: 1, marks: Object.fromEntries(marks) });
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
