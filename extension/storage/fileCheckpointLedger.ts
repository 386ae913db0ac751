/**
 * The bytes of a run's file-checkpoint list (issue #26): one small JSON file beside its journal,
 * `<run>.files.json`, replaced whole (written to a temporary file and renamed: a reader sees the old list or the new
 * one). What the list holds is changeSets/fileCheckpointRecords.ts's; this file knows JSON, not its shape.
 *
 * One writer: the run's writer lease (runWriterLease.ts). With a `writer` identity, `mayWrite` is true only while the
 * lease file names this very journal instance (pid, window, token) and is not released; with the kit's answer, when
 * it says so; and `write` refuses otherwise — a checkpoint belongs to the window that writes the run's journal.
 * Without one (tools, tests of one store) this ledger is the only writer.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointLedger } from '../changeSets/fileCheckpointRecords';
import { safeFileName } from './runFileName';
import { readLease } from './runWriterLease';
import type { LeaseIdentity } from './runWriterLease';

export function fileCheckpointFileOf(dir: string, runId: string): string {
  return join(dir, `${safeFileName(runId)}.files.json`);
}

/**
 * Who writes a run's checkpoints: this journal instance's lease identity (checked against the lease file), or the
 * kit's own answer (drivers/kit/runWriters.ts decides which window writes which run, and knows it without a read).
 */
export type CheckpointWriter = LeaseIdentity | ((runId: string) => boolean);

export class FileCheckpointLedger implements CheckpointLedger {
  constructor(
    private readonly dir: string,
    private readonly writer?: CheckpointWriter,
  ) {}

  /** The stored JSON value (undefined: none, or not JSON: a damaged list is an empty one, never a crash). */
  async read(runId: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(fileCheckpointFileOf(this.dir, runId), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  async mayWrite(runId: string): Promise<boolean> {
    if (this.writer === undefined) {
      return true;
    }
    if (typeof this.writer === 'function') {
      return this.writer(runId);
    }
    const holder = await readLease(this.dir, runId);
    const me = this.writer;
    return holder !== undefined && holder.releasedAt === undefined && holder.pid === me.pid && holder.window === me.window && holder.token === me.token;
  }

  async write(runId: string, value: Readonly<Record<string, unknown>>): Promise<void> {
    if (!(await this.mayWrite(runId))) {
      throw new Error(`this window does not write run ${runId}: its checkpoints are another window's`);
    }
    await mkdir(this.dir, { recursive: true });
    const file = fileCheckpointFileOf(this.dir, runId);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, file);
  }

  /** Deletes the list (the caller unpins the refs it names first: FileCheckpointStore.removeRun). */
  async remove(runId: string): Promise<void> {
    await rm(fileCheckpointFileOf(this.dir, runId), { force: true });
  }
}
