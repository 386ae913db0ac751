/**
 * Which editor window writes which run, as the door answers it (kit/runWriters.ts, through the connection's recorder):
 * the part of DriverRuns (driverRuns.ts) that a driver asks before it acknowledges, adopts or follows another window's
 * runs. Everything answers as if this window wrote every run when the driver does not journal.
 */
import type { StoredRun } from '../../storage/runJournal';
import type { RunRecorder } from './runRecorder';

export abstract class DriverRunWriters<C> {
  /** The connection's recorder (undefined: not journaled, or closed). */
  protected abstract journal(): RunRecorder<C> | undefined;

  /** Whether this window journals the run (else another window of this machine does; true when not journaled). */
  writes(runId: string): boolean {
    return this.journal()?.writes(runId) ?? true;
  }

  /** Makes this window the run's writer if it can be; resolves with whether it is (adopting a run needs it). */
  claim(runId: string, asked = false): Promise<boolean> {
    return this.journal()?.claim(runId, asked) ?? Promise.resolve(true);
  }

  /** The last daemon sequence of the run known to be durably in its journal (acks also need `writes`). */
  journaledThrough(runId: string): number {
    return this.journal()?.journaledThrough(runId) ?? 0;
  }

  /**
   * Calls `onIndex` when another window changed the run index (a new run, a new state), and lets readers of runs
   * probe their writer's lease when it changes. Returns the stop (nothing to stop when not journaled).
   */
  watchOtherWindows(onIndex: () => void): () => void {
    return this.journal()?.watch(onIndex) ?? (() => undefined);
  }

  /** The run's index entry as it is on disk now (what another window stored of it). */
  storedRun(runId: string): Promise<StoredRun | undefined> {
    return this.journal()?.storedRun(runId) ?? Promise.resolve(undefined);
  }

  /** The daemon sequences a run's journal holds, in order (tests of a reload). */
  sequencesOf(runId: string): Promise<number[]> {
    return this.journal()?.sequencesOf(runId) ?? Promise.resolve([]);
  }
}
