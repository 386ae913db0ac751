/**
 * The AgencyProxy driver's journaling (WIRE.md 6.1), on the kit's run recorder (records: agencyProxyRecords.ts):
 * each folded daemon event's records are dispatched and journaled together, and the event counts as stored for
 * acks only once they are on disk; the editor's own events (prompts, decisions) are journaled beside them; the run
 * list keeps each run's fields with its ownership and local change-set record. After a reload `load` replays it all
 * into the model, and the books beside it, before the first connect.
 */
import type { RunEvent as ModelRunEvent } from '../../model/modelActions';
import type { DriverContext } from '../connectionManager';
import type { AgencyProxyFold, AgencyProxyRecorder } from './agencyProxyRecords';
import { agencyProxyRecorder, agencyProxyReplay } from './agencyProxyRecords';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import { storedRunOf } from '../kit/connectionJournal';

export class AgencyProxyJournal {
  private readonly recorder: AgencyProxyRecorder;
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly ctx: DriverContext,
    /** The parts are built with this journal's methods; read only once events flow. */
    private readonly parts: () => AgencyProxyRunParts,
  ) {
    this.recorder = agencyProxyRecorder(ctx);
  }

  /** Folds a daemon event's records into the model and its run's journal; once on disk it may be acknowledged. */
  storeEvent(runId: string, sequence: number, records: AgencyProxyFold['records']): void {
    const { acks } = this.parts();
    this.recorder.record(runId, records).then(
      () => {
        acks.stored(runId, sequence);
        acks.schedule(runId);
      },
      (error: unknown) => this.ctx.log.error(`Could not store run ${runId} (events stay unacknowledged): ${String(error)}`),
    );
  }

  async recordLocal(runId: string, event: ModelRunEvent): Promise<void> {
    await this.recorder.event(runId, event).catch((error: unknown) => this.ctx.log.error(`Could not store run ${runId}: ${String(error)}`));
  }

  async saveRun(runId: string): Promise<void> {
    const { runs, ownership, localChanges } = this.parts();
    const run = runs.get(runId);
    if (!run) {
      return;
    }
    const extra = { ...ownership.extraOf(runId), ...localChanges.extraOf(runId) };
    await this.recorder.saveRun(storedRunOf(run, Object.keys(extra).length > 0 ? extra : undefined)).catch((error: unknown) => this.ctx.log.error(`Could not store run list: ${String(error)}`));
  }

  /** Rebuilds stored transcripts and the books beside them once (after a window reload), before the first connect. */
  load(): Promise<void> {
    const { acks, activity, ownership, localChanges, expireApprovals } = this.parts();
    this.loaded ??= this.recorder
      .replay(
        agencyProxyReplay(this.ctx.store, this.ctx.connectionId, { acks, activity, ownership }, {
          restore: (stored) => localChanges.restore(stored.runId, stored.extra),
          ended: (runId) => {
            expireApprovals(runId, 'The run had ended before a decision was made.');
            void localChanges.finish(runId);
          },
        }),
      )
      .then(() => undefined);
    return this.loaded;
  }

  /** Resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    return this.recorder.flush();
  }

  close(): Promise<void> {
    return this.recorder.close();
  }
}
