/**
 * What a run recorder (runRecorder.ts) is built with: the store it folds into, its connection's journal directory,
 * its driver's cursor schema, and — when several editor windows share the directory — this window's writer identity.
 */
import type * as z from 'zod/mini';
import type { RunStore } from '../../model/runStore';
import type { LeaseHolder, LeaseIdentity } from '../../storage/runWriterLease';
import type { Clock } from './clock';

/** What a recorder writes into and how it reads its driver's cursors. */
export interface RunRecorderOptions<C> {
  /**
   * `holdChanges`, where the store has it, makes a replay notify views once (RunStore.holdChanges); with `state` and
   * `transcript` too, runs are checkpointed (runCheckpoints.ts).
   */
  readonly store: Pick<RunStore, 'dispatch'> & Partial<Pick<RunStore, 'holdChanges' | 'state' | 'transcript'>>;
  readonly connectionId: string;
  /** The connection's journal directory (private to one connection profile). */
  readonly dir: string;
  /** The schema of the driver's cursor records; `z.never()` for a driver that keeps none. */
  readonly cursor: z.ZodMiniType<C>;
  /** Told how many lines of a run were skipped on replay (unreadable, or of no known shape), and of checkpoints not used. */
  readonly warn?: (message: string) => void;
  /** When checkpoints are due (tests pass a ManualClock). */
  readonly clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /**
   * This editor window (and its extension host), when several windows may share the directory: each run is then
   * journaled by one window only, the holder of its writer lease (runWriters.ts). Absent: the lone writer.
   */
  readonly writer?: LeaseIdentity;
  /** Told of what concerns the user less than `warn` (which window writes a run). */
  readonly info?: (message: string) => void;
  /** This window now writes the run's journal (it started the run, or took it over from `previous`). */
  readonly writing?: (runId: string, previous: LeaseHolder | undefined) => void;
  /** This window took the run over but its file ends at `journalEnd`, not where the model stands (runWriters.ts). */
  readonly behind?: (runId: string, journalEnd: number) => void;
  /** A checkpoint of the run was written (its summary is saved with it: kit/quietRuns.ts compares the two). */
  readonly checkpointed?: (runId: string) => void;
}
