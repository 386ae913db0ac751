/**
 * The runs of one connection in the store, as a driver reads and writes them: the run key, the run, and the two
 * writes every driver makes (fields of a run, an event into its transcript). Helpers a driver composes take this
 * instead of the whole store so they cannot reach other connections' runs by accident.
 */
import type { RunEvent, RunFields } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';

export class DriverRuns {
  constructor(
    private readonly store: RunStore,
    readonly connectionId: string,
  ) {}

  key(runId: string): string {
    return runKeyOf(this.connectionId, runId);
  }

  get(runId: string): RunInfo | undefined {
    return this.store.state.runs.get(this.key(runId));
  }

  /** Every run of this connection the store holds. */
  all(): RunInfo[] {
    return [...this.store.state.runs.values()].filter((run) => run.connectionId === this.connectionId);
  }

  /** Creates the run or updates its fields. */
  upsert(runId: string, fields: RunFields): void {
    this.store.dispatch({ type: 'runUpserted', connectionId: this.connectionId, runId, fields });
  }

  /** One event into the run's transcript; `sequence` dedupes daemon events, `restored` marks a replay from storage. */
  event(runId: string, event: RunEvent, options: { readonly sequence?: number; readonly restored?: boolean } = {}): void {
    this.store.dispatch({
      type: 'runEvent',
      runKey: this.key(runId),
      ...(options.sequence !== undefined ? { sequence: options.sequence } : {}),
      event,
      ...(options.restored ? { restored: true } : {}),
    });
  }
}
