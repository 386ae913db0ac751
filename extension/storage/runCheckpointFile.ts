/**
 * A run's checkpoint file beside its journal (`<run>.ckpt`): one line of JSON (the header: what the driver kit puts
 * there, plus the sha256 of the body), then the body. Written whole to a temporary file and renamed, so a reader
 * sees the old checkpoint or the new one, never a mix; the digest catches a file damaged on disk. What the header
 * and body mean is the kit's (drivers/kit/runCheckpoints.ts): this file knows bytes and JSON, not their shape.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from './runFileName';

/** A checkpoint that is there but cannot be used (damaged, or not one of ours). */
export class CheckpointFileError extends Error {}

const NEWLINE = 0x0a;

function fileOf(dir: string, runId: string): string {
  return join(dir, `${safeFileName(runId)}.ckpt`);
}

const digestOf = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** Replaces the run's checkpoint with `header` (JSON-safe; `digest` is added) and `body` (JSON text). */
export async function writeCheckpointFile(dir: string, runId: string, header: Readonly<Record<string, unknown>>, body: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = fileOf(dir, runId);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ ...header, digest: digestOf(body) })}\n${body}`);
  await rename(tmp, file);
}

/**
 * The run's checkpoint: its header (parsed, unchecked: the caller validates it) and its body text, once the body's
 * digest matches. Undefined when the run has none; CheckpointFileError when it is there but unusable.
 */
export async function readCheckpointFile(dir: string, runId: string): Promise<{ readonly header: unknown; readonly body: string } | undefined> {
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
  const body = bytes.subarray(newline + 1);
  const digest = (header as { digest?: unknown } | null)?.digest;
  if (typeof digest !== 'string' || digest !== digestOf(body)) {
    throw new CheckpointFileError('the body does not match its digest');
  }
  return { header, body: body.toString('utf8') };
}

/** Removes the run's checkpoint, if any (the journal alone is the truth again). */
export async function removeCheckpointFile(dir: string, runId: string): Promise<void> {
  await rm(fileOf(dir, runId), { force: true });
}
