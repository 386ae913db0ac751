/**
 * The drivers' side of local change sets (changeSets/localChangeSet.ts): each state of a run's local change set
 * becomes the run's change set with source `local`, through the door, for runs the store still knows — an update
 * that arrives after its run is gone is dropped.
 */
import type { LocalChangeSetSink } from '../../changeSets/localChangeSet';
import type { DriverLog } from '../connectionManager';
import type { DriverRuns } from './driverRuns';

export function runsChangeSetSink<C>(runs: DriverRuns<C>, log: DriverLog): LocalChangeSetSink {
  return {
    publish(runId, update) {
      if (runs.get(runId) !== undefined) {
        runs.changeSet(runId, { source: 'local', ...update });
      }
    },
    warn: (message) => log.warn(message),
  };
}
