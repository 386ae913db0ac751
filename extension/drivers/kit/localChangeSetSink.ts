/**
 * The drivers' side of local change sets (changeSets/localChangeSet.ts): each state of a run's local change set
 * becomes a `changeSet` action with source `local` in the model, for runs the store still knows — an update that
 * arrives after its run is gone is dropped.
 */
import type { LocalChangeSetSink } from '../../changeSets/localChangeSet';
import { runKeyOf } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import type { DriverLog } from '../connectionManager';

export function storeChangeSetSink(store: RunStore, connectionId: string, log: DriverLog): LocalChangeSetSink {
  return {
    publish(runId, update) {
      const runKey = runKeyOf(connectionId, runId);
      if (!store.state.runs.has(runKey)) {
        return;
      }
      store.dispatch({ type: 'changeSet', changeSet: { runKey, source: 'local', ...update } });
    },
    warn: (message) => log.warn(message),
  };
}
