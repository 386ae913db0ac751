/**
 * AgencyProxy sends no change sets, so the editor snapshots the git workspace around each run (changeSets/
 * localChangeSet.ts). This holds each run's snapshot record, recomputes the change set of a run that is still open
 * (one git snapshot at a time per run, `CoalescedTasks`) and the final one once it ended. The records are stored
 * with the run (`extraOf`), so a reload diffs the same trees.
 */
import type { LocalChangeSetRecord } from '../../changeSets/localChangeSet';
import { LocalChangeSets, localChangeSetExtra, localChangeSetFromExtra } from '../../changeSets/localChangeSet';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { DriverLog } from '../connectionManager';
import { CoalescedTasks } from '../kit/coalescedTasks';
import type { DriverRuns } from '../kit/driverRuns';
import { runsChangeSetSink } from '../kit/localChangeSetSink';
import type { AgencyProxyCursor } from './agencyProxyRecords';

export class AgencyProxyLocalChanges {
  private readonly changes: LocalChangeSets;
  private readonly records = new Map<string, LocalChangeSetRecord>();
  /** Change sets recomputed while a run is open (after each answer, on demand), one git snapshot at a time. */
  private readonly interim = new CoalescedTasks();

  constructor(
    private readonly runs: DriverRuns<AgencyProxyCursor>,
    log: DriverLog,
    /** Stores the run (with `extraOf`) after its record changed. */
    private readonly saveRun: (runId: string) => Promise<void>,
  ) {
    this.changes = new LocalChangeSets(runsChangeSetSink(runs, log));
  }

  /** Snapshots the workspace as a new run starts (nothing when it is not a git work tree). */
  async begin(runId: string, root: string | undefined): Promise<void> {
    const record = await this.changes.begin(runId, root);
    if (record) {
      this.records.set(runId, record);
    }
  }

  /** The run's record, as kept with its stored run. */
  extraOf(runId: string): Record<string, unknown> {
    const record = this.records.get(runId);
    return record ? localChangeSetExtra(record) : {};
  }

  /** A stored run's record (after a reload): its change set is shown again from the stored trees. */
  restore(runId: string, extra: Readonly<Record<string, unknown>> | undefined): void {
    const record = localChangeSetFromExtra(extra);
    if (record) {
      this.records.set(runId, record);
      this.changes.restore(runId, record);
    }
  }

  /** From the run's start to the working tree now while it is open; after it ended, the final change set. */
  async refresh(runId: string): Promise<void> {
    const record = this.records.get(runId);
    const run = this.runs.get(runId);
    if (!record || !run) {
      return;
    }
    if (isTerminalRunState(run.state)) {
      await this.finish(runId);
      return;
    }
    await this.interim.run(runId, () => this.changes.refresh(runId, record));
  }

  /** The run was removed: its snapshot record goes (a diff still in flight publishes into a run no longer there). */
  forget(runId: string): void {
    this.records.delete(runId);
    this.changes.forget(runId);
  }

  /** Diffs the run's working-tree snapshots once it ended; the result tree is stored so a reload diffs the same. */
  async finish(runId: string): Promise<void> {
    const record = this.records.get(runId);
    if (!record) {
      return;
    }
    const finished = await this.changes.finish(runId, record);
    if (finished.resultTree !== record.resultTree) {
      this.records.set(runId, finished);
      await this.saveRun(runId);
    }
  }
}
