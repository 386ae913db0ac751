/**
 * Bringing the model in line with the daemon's run list (`list_runs`: every run since the daemon started, and the only
 * way to learn of a run another client started, WIRE.md 1.9), one sync at a time — a watcher's, the view's poll and a
 * reconnect never interleave. Runs another editor window of this machine journaled are loaded from that journal first
 * (agencyProxyRunStorage.ts), so they attach after what is stored instead of being replayed from the start; then the
 * list is reconciled (agencyProxyAttachments.ts: a removed run stays out); then the removed run ids the daemon no
 * longer lists are forgotten, since it forgot those runs (it restarted: kit/runRemovals.ts).
 */
import type { DriverRuns } from '../kit/driverRuns';
import type { AgencyProxyAttachments } from './agencyProxyAttachments';
import type { AgencyProxyCursor } from './agencyProxyRecords';
import type { AgencyProxyRunStorage } from './agencyProxyRunStorage';
import type { AgencyProxyClient } from './client';

export class AgencyProxyRunSync {
  /** The sync under way: the next one starts after it. */
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly runs: DriverRuns<AgencyProxyCursor>,
    private readonly storage: AgencyProxyRunStorage,
    private readonly attachments: AgencyProxyAttachments,
  ) {}

  /** Re-reads the daemon's run list on `client` and reconciles the model with it (after the syncs before it). */
  refresh(client: AgencyProxyClient): Promise<void> {
    const sync = this.syncing.catch(() => undefined).then(async () => {
      await this.storage.loadOtherWindowsRuns();
      const listed = this.runs.history.removals.beginListing();
      const runs = await client.listRuns();
      await this.attachments.reconcile(client, runs);
      await listed(runs.map((run) => run.runId));
    });
    this.syncing = sync;
    return sync;
  }
}
