/**
 * A run's checkpoint file beside its journal (`<run>.ckpt`), in lines: the header (JSON: what the driver kit puts
 * there), the body's lines (JSON each, the kit's), and a last line `{"digest":"<sha256>"}` of every byte before it.
 * Written to a temporary file and renamed, so a reader sees the old checkpoint or the new one, never a mix; the
 * digest catches a file damaged on disk. What the header and body mean is the kit's (drivers/kit/runCheckpoints.ts):
 * this file knows bytes and lines, not their shape.
 *
 * In lines, and the digest last, so that neither side holds the host for the whole file (issue #25 §3: one
 * `JSON.stringify`, sha256 and `JSON.parse` of a 100k-item run's 12.8 MiB blocked it 155–225 ms): the writer
 * hashes and writes each line as it comes, giving the event loop back in between; the reader checks the digest in
 * slices before it hands out any line.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TimeSlices } from '../base/timeSlices';
import { safeFileName } from './runFileName';

/** A checkpoint that is there but cannot be used (damaged, or not one of ours). */
export class CheckpointFileError extends Error {}

const NEWLINE = 0x0a;
/** Lines are written in batches of about this many bytes (one write each). */
const WRITE_BYTES = 256 * 1024;
/** The digest is checked this many bytes at a time. */
const HASH_SLICE_BYTES = 1024 * 1024;

function fileOf(dir: string, runId: string): string {
  return join(dir, `${safeFileName(runId)}.ckpt`);
}

/**
 * Replaces the run's checkpoint with `header` (JSON-safe) and `body`, lines of JSON text taken one at a time (a
 * generator may build each when asked). A line holding a line break is refused: it would read back as two.
 */
export async function writeCheckpointFile(dir: string, runId: string, header: Readonly<Record<string, unknown>>, body: Iterable<string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = fileOf(dir, runId);
  const tmp = `${file}.${process.pid}.tmp`;
  const hash = createHash('sha256');
  const handle = await open(tmp, 'w');
  try {
    let batch: string[] = [];
    let batched = 0;
    const writeBatch = async (): Promise<void> => {
      const text = batch.join('');
      batch = [];
      batched = 0;
      hash.update(text);
      await handle.write(text); // the loop turns while the bytes go to disk
    };
    batch.push(`${JSON.stringify(header)}\n`);
    for (const line of body) {
      if (line.includes('\n')) {
        throw new CheckpointFileError('a body line holds a line break');
      }
      batch.push(`${line}\n`);
      batched += line.length;
      if (batched >= WRITE_BYTES) {
        await writeBatch();
      }
    }
    await writeBatch();
    await handle.write(`${JSON.stringify({ digest: hash.digest('hex') })}\n`);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(tmp, file);
}

/** A checkpoint read from disk: its header as it is, and its body once the digest holds. */
export interface CheckpointFile {
  /** The first line, parsed, unchecked: the caller validates it (before paying for the body). */
  readonly header: unknown;
  /** The body's lines, once the digest of the file matches (checked in slices); CheckpointFileError if not. */
  bodyLines(): Promise<readonly string[]>;
  /**
   * Only the body's first line (its head), once the digest of the whole file matches: what a run shown without its
   * transcript needs (drivers/kit/quietRuns.ts), without decoding the rest.
   */
  headLine(): Promise<string>;
}

/** The run's checkpoint, or undefined when it has none; CheckpointFileError when it is there but unusable. */
export async function readCheckpointFile(dir: string, runId: string): Promise<CheckpointFile | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(fileOf(dir, runId));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw new CheckpointFileError(`unreadable: ${String(error)}`);
  }
  const newline = bytes.indexOf(NEWLINE);
  if (newline < 0) {
    throw new CheckpointFileError('no header');
  }
  let header: unknown;
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8'));
  } catch {
    throw new CheckpointFileError('the header is not JSON');
  }
  return {
    header,
    bodyLines: () => bodyLinesOf(bytes, newline + 1),
    headLine: async () => {
      const digestStart = await verifiedEnd(bytes, newline + 1);
      const end = bytes.indexOf(NEWLINE, newline + 1);
      if (end < 0 || end >= digestStart) {
        throw new CheckpointFileError('no body');
      }
      return bytes.subarray(newline + 1, end).toString('utf8');
    },
  };
}

async function bodyLinesOf(bytes: Buffer, bodyStart: number): Promise<readonly string[]> {
  const digestStart = await verifiedEnd(bytes, bodyStart);
  const slices = new TimeSlices();
  const lines: string[] = [];
  for (let at = bodyStart; at < digestStart; ) {
    const next = bytes.indexOf(NEWLINE, at);
    lines.push(bytes.subarray(at, next).toString('utf8'));
    at = next + 1;
    await slices.pause();
  }
  return lines;
}

/** Where the digest line starts, once the digest of every byte before it matches (hashed in slices). */
async function verifiedEnd(bytes: Buffer, bodyStart: number): Promise<number> {
  // The last line is the digest of everything before it.
  const end = bytes.length > 0 && bytes[bytes.length - 1] === NEWLINE ? bytes.length - 1 : bytes.length;
  const digestStart = bytes.lastIndexOf(NEWLINE, end - 1) + 1;
  if (digestStart <= bodyStart - 1) {
    throw new CheckpointFileError('no digest');
  }
  let digest: unknown;
  try {
    digest = (JSON.parse(bytes.subarray(digestStart, end).toString('utf8')) as { digest?: unknown } | null)?.digest;
  } catch {
    digest = undefined;
  }
  if (typeof digest !== 'string') {
    throw new CheckpointFileError('no digest');
  }
  const slices = new TimeSlices();
  const hash = createHash('sha256');
  for (let at = 0; at < digestStart; at += HASH_SLICE_BYTES) {
    hash.update(bytes.subarray(at, Math.min(digestStart, at + HASH_SLICE_BYTES)));
    await slices.pause();
  }
  if (hash.digest('hex') !== digest) {
    throw new CheckpointFileError('the file does not match its digest');
  }
  return digestStart;
}

/** Removes the run's checkpoint, if any (the journal alone is the truth again). */
export async function removeCheckpointFile(dir: string, runId: string): Promise<void> {
  await rm(fileOf(dir, runId), { force: true });
}
