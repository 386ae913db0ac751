/**
 * Which daemon sequences of each run are known to be on disk in its journal — what this window wrote, or read of
 * the file (another window may write it) — and how far this window has read each run's file. An acknowledgement to a
 * daemon may cover only these (issue #25 §1: an ack deletes the daemon's events for every client).
 */
import type * as z from 'zod/mini';
import type { RunJournal } from '../../storage/runJournal';
import type { JournalRecord } from './journalRecords';

export class JournaledSequences<C> {
  /** How far this window has read each run's file, and the last daemon sequence in what it read. */
  private readonly readTo = new Map<string, { bytes: number; last: number }>();
  /** The last daemon sequence of each run known to be in its file. */
  private readonly journaled = new Map<string, number>();

  constructor(
    private readonly journal: Pick<RunJournal, 'readLines'>,
    private readonly schema: z.ZodMiniType<JournalRecord<C>>,
  ) {}

  /** The last daemon sequence of the run known to be on disk in its journal. */
  through(runId: string): number {
    return this.journaled.get(runId) ?? 0;
  }

  /** Records up to `last` were written (durably) by this window. */
  wrote(runId: string, last: number): void {
    if (last > 0) {
      this.journaled.set(runId, Math.max(this.journaled.get(runId) ?? 0, last));
    }
  }

  /** The run's file was read (replayed) up to `bytes`, its last sequence `last`: a reader goes on from there. */
  read(runId: string, bytes: number, last: number): void {
    this.readTo.set(runId, { bytes, last });
    this.journaled.set(runId, Math.max(this.journaled.get(runId) ?? 0, last));
  }

  /** Reads the run's file on from where this window last read it: the last daemon sequence it holds. */
  async end(runId: string): Promise<number> {
    const known = this.readTo.get(runId) ?? { bytes: 0, last: 0 };
    let last = known.last;
    const bytes = await this.journal.readLines(runId, (line) => {
      const parsed = line.ok ? this.schema.safeParse(line.value) : undefined;
      if (parsed?.success && 'e' in parsed.data && parsed.data.q !== undefined) {
        last = Math.max(last, parsed.data.q);
      }
    }, known.bytes);
    this.read(runId, bytes, last);
    return last;
  }

  /** The daemon sequences a run's journal holds, in order (a folded record counts each of its own). */
  async all(runId: string): Promise<number[]> {
    const out: number[] = [];
    await this.journal.readLines(runId, (line) => {
      const parsed = line.ok ? this.schema.safeParse(line.value) : undefined;
      if (parsed?.success && 'e' in parsed.data && parsed.data.q !== undefined) {
        for (let q = parsed.data.s ?? parsed.data.q; q <= parsed.data.q; q++) {
          out.push(q);
        }
      }
    });
    return out;
  }

  /** The run is gone (removed). */
  forget(runId: string): void {
    this.readTo.delete(runId);
    this.journaled.delete(runId);
  }
}
