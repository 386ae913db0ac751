/**
 * The AgencyProxy driver's journaling (WIRE.md 6.1): each folded daemon event is appended to its run's journal and
 * only then counts as stored for acks; the editor's own events (prompts, decisions) are journaled beside them; the
 * run list keeps each run's fields with its ownership and local change-set record. After a reload `load` replays
 * it all into the model before the first connect.
 */
import { join } from 'node:path';
import type { RunEvent as ModelRunEvent } from '../../model/modelActions';
import type { EventFrame, RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import { serializeRunEvent } from '../../protocol/agencyProxy';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import { RunJournal, safeFileName } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import type { JournalRecord } from './storedRuns';
import { replayJournal, runFieldsOf, storedRunOf } from './storedRuns';

export class AgencyProxyJournal {
  private readonly journal: RunJournal;
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly ctx: DriverContext,
    /** The parts are built with this journal's methods; read only once events flow. */
    private readonly parts: () => AgencyProxyRunParts,
  ) {
    this.journal = new RunJournal(join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId)));
  }

  /** Appends a folded daemon event to the run's journal; once it is on disk it may be acknowledged. */
  storeEvent(frame: EventFrame): void {
    const { acks } = this.parts();
    this.journal.append(frame.run_id, { s: frame.sequence, e: serializeRunEvent(frame.event) } satisfies JournalRecord).then(
      () => {
        acks.stored(frame.run_id, frame.sequence);
        acks.schedule(frame.run_id);
      },
      (error: unknown) => this.ctx.log.error(`Could not store run ${frame.run_id} (events stay unacknowledged): ${String(error)}`),
    );
  }

  async recordLocal(runId: string, event: ModelRunEvent): Promise<void> {
    this.parts().runs.event(runId, event);
    await this.journal.append(runId, { l: event } satisfies JournalRecord).catch((error: unknown) => this.ctx.log.error(`Could not store run ${runId}: ${String(error)}`));
  }

  async saveRun(runId: string): Promise<void> {
    const { runs, ownership, localChanges } = this.parts();
    const run = runs.get(runId);
    if (!run) {
      return;
    }
    const extra = { ...ownership.extraOf(runId), ...localChanges.extraOf(runId) };
    await this.journal.saveRun(storedRunOf(run, Object.keys(extra).length > 0 ? extra : undefined)).catch((error: unknown) => this.ctx.log.error(`Could not store run list: ${String(error)}`));
  }

  /** Rebuilds stored transcripts once (after a window reload), before the first connect; `fold` folds a daemon event. */
  load(fold: (runId: string, sequence: number, event: WireRunEvent) => void): Promise<void> {
    const { runs, acks, ownership, localChanges, expireApprovals } = this.parts();
    this.loaded ??= replayJournal(this.journal, {
      run: (stored) => {
        runs.upsert(stored.runId, runFieldsOf(stored));
        ownership.restore(stored.runId, stored.extra);
        localChanges.restore(stored.runId, stored.extra);
      },
      event: (runId, sequence, event) => {
        fold(runId, sequence, event);
        acks.stored(runId, sequence);
      },
      local: (runId, event) => {
        if (event.kind === 'userPrompt' && event.note) {
          acks.nextInjection(runId);
        }
        if (event.kind === 'approvalSettled') {
          acks.approvalAnswered(runId, event.approvalId);
        }
        runs.event(runId, event, { restored: true });
      },
      runDone: (stored) => {
        // Replaying terminal events must not touch the daemon; the stored state is the last one we knew.
        const { state } = runFieldsOf(stored);
        runs.upsert(stored.runId, { state });
        if (state && isTerminalRunState(state)) {
          // Only now, after the run's own journaled decisions were replayed: what is still unsettled expired.
          expireApprovals(stored.runId, 'The run had ended before a decision was made.');
          void localChanges.finish(stored.runId);
        }
      },
    });
    return this.loaded;
  }

  /** Resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    return this.journal.flush();
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}
