/**
 * How the AgencyProxy driver's runs are kept across a window reload, through the kit's door: its journaling terms
 * (the cursor records, the books a checkpoint carries, what taking a run's journal over moves) and its stored runs
 * coming back (agencyProxyRecords.ts `agencyProxyRestorePolicy`) — once before the first connect, then the runs
 * another editor window of this machine adds to the shared run index.
 */
import type { DriverContext } from '../connectionManager';
import type { Journaling } from '../kit/runJournaling';
import { windowIdOf } from '../kit/runJournaling';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import type { AgencyProxyCursor } from './agencyProxyRecords';
import { agencyProxyCheckpointBooks, agencyProxyCursorSchema, agencyProxyRestorePolicy } from './agencyProxyRecords';

export class AgencyProxyRunStorage {
  private loaded: Promise<void> | undefined;
  /** How stored runs come back (built once, with the first replay: the door keeps its handlers). */
  private policy: ReturnType<typeof agencyProxyRestorePolicy> | undefined;

  constructor(
    private readonly ctx: Pick<DriverContext, 'windowId'>,
    private readonly parts: AgencyProxyRunParts,
    /** Brings back a run taken over whose journal is not where the model stands, and follows it again (the driver's). */
    private readonly rejoin: (runId: string) => Promise<void>,
  ) {}

  /** The driver's journaling (BaseDriver.journaling); `forgotten`: what else drops a removed run (the attachments). */
  journalTerms(forgotten: (runId: string) => void): Journaling<AgencyProxyCursor> {
    const { acks, activity, ownership, localChanges, runs, saveRun } = this.parts;
    return {
      cursor: agencyProxyCursorSchema,
      // The run was removed (here, or in another window: kit/runRemovals.ts): nothing of it stays in the driver's
      // books (a daemon listing it again is refused, agencyProxyAttachments.ts).
      removed: (runId) => {
        acks.forget(runId);
        activity.forget(runId);
        ownership.forget(runId);
        localChanges.forget(runId);
        forgotten(runId);
      },
      books: agencyProxyCheckpointBooks({ acks, activity, ownership }),
      // This window writes the run's journal now: if it took another window's run over (that window closed, or its
      // host died), the acks are this window's now; its own run (after a reload) may be acked through what is stored.
      writing: (runId, previous) => {
        void (async () => {
          if (previous && previous.window !== windowIdOf(this.ctx)) {
            // What the other window stored of the run (its owner), if this window learned the run from the daemon.
            ownership.restore(runId, (await runs.storedRun(runId))?.extra);
          }
          if (ownership.tookOver(runId)) {
            await saveRun(runId);
          }
          acks.schedule(runId);
        })();
      },
      rejoin: (runId) => {
        this.rejoin(runId).catch((error: unknown) => this.parts.log.warn(`Taking run ${runId} over: ${String(error)}`));
      },
    };
  }

  /**
   * Rebuilds the stored runs and the books beside them once, before the first connect; then `watch` follows what
   * other editor windows of this machine add to the run index (it returns its stop).
   */
  load(watch: () => void): Promise<void> {
    this.loaded ??= this.parts.runs.replay(this.restorePolicy()).then(watch);
    return this.loaded;
  }

  /** Loads the stored runs another window added since (not shown here yet): from their journal, not the daemon. */
  async loadOtherWindowsRuns(): Promise<void> {
    await this.loaded;
    await this.parts.runs.replay(this.restorePolicy(), true);
  }

  private restorePolicy(): ReturnType<typeof agencyProxyRestorePolicy> {
    const { acks, activity, ownership, localChanges, expireApprovals } = this.parts;
    this.policy ??= agencyProxyRestorePolicy({ acks, activity, ownership }, {
      restore: (stored) => localChanges.restore(stored.runId, stored.extra),
      ended: async (runId) => {
        await expireApprovals(runId, 'The run had ended before a decision was made.');
        void localChanges.finish(runId);
      },
    });
    return this.policy;
  }
}
