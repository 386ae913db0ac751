/**
 * Keeps a connection's stored runs under the size limit (`agentSwitchboard.history.keepMegabytes`, runRetention.ts)
 * at connect, before its runs are replayed: the least recently active finished runs are removed for good, as
 * *Remove Run* removes one (index entry and every file: storage/runFiles.ts). Sizes come from the index — entries
 * written before sizes were kept are measured once and the sizes stored — so a connect does not stat every run's
 * files. A run another window of this machine writes is kept (its writer would write it again).
 */
import type { DriverLog } from '../connectionManager';
import type { ConnectIndex } from '../../storage/runIndexDigest';
import type { RunRecorder } from './runRecorder';
import type { HistoryRetention } from './runRetention';
import { overSizeRunIds } from './runRetention';

/** Removes the runs over the size limit; resolves with the ids removed. */
export async function trimHistory<C>(recorder: RunRecorder<C>, retention: HistoryRetention, log: Pick<DriverLog, 'info' | 'warn'>, remove: (runId: string) => Promise<unknown>, index?: Pick<ConnectIndex, 'bytes' | 'unmeasured'>): Promise<string[]> {
  if (retention.keepMegabytes <= 0 || (index && index.unmeasured === 0 && index.bytes <= retention.keepMegabytes * 1024 * 1024)) {
    return []; // no limit, or under it by the index's own sum (the connect's digest: no entry read)
  }
  const over = overSizeRunIds(await recorder.measuredRuns(), retention);
  const gone: string[] = [];
  for (const runId of over) {
    try {
      // The same removal as *Remove Run* (RunHistory.removeStored): files, file checkpoints, the driver's books.
      if ((await remove(runId)) === 'removed') {
        gone.push(runId);
      }
    } catch (error) {
      log.warn(`Could not remove run ${runId} over the history size limit: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (gone.length > 0) {
    log.info(`Removed ${gone.length} finished run${gone.length === 1 ? '' : 's'} over the history size limit (${retention.keepMegabytes} MiB, agentSwitchboard.history.keepMegabytes).`);
  }
  return gone;
}
