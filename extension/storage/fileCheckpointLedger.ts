/**
 * The bytes of a run's file-checkpoint list (issue #26): one small JSON file beside its journal,
 * `<run>.files.json`, replaced whole (runSideFile.ts: a temporary file renamed over, so a reader sees the old list or
 * the new one). What the list holds is changeSets/fileCheckpointRecords.ts's; this file knows JSON, not its shape.
 *
 * One writer: the run's writer lease (runWriterLease.ts). With a `writer` identity, `mayWrite` is true only while the
 * lease file names this very journal instance (pid, window, token) and is not released; with the kit's answer, when
 * it says so; and `write` refuses otherwise — a checkpoint belongs to the window that writes the run's journal.
 * Without one (tools, tests of one store) this ledger is the only writer.
 */
import type { CheckpointLedger } from '../changeSets/fileCheckpointRecords';
import { readRunSideFile, runSideFileOf, writeRunSideFile } from './runSideFile';
import { readLease } from './runWriterLease';
import type { LeaseIdentity } from './runWriterLease';

const SUFFIX = '.files.json';

export function fileCheckpointFileOf(dir: string, runId: string): string {
  return runSideFileOf(dir, runId, SUFFIX);
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
  read(runId: string): Promise<unknown> {
    return readRunSideFile(this.dir, runId, SUFFIX);
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
    await writeRunSideFile(this.dir, runId, SUFFIX, value);
  }

  /** Deletes the list (the caller unpins the refs it names first: FileCheckpointStore.removeRun). */
  remove(runId: string): Promise<void> {
    return writeRunSideFile(this.dir, runId, SUFFIX, undefined);
  }
}
