/**
 * The runs of one connection in the store, as a driver reads and writes them: the run key, the run, and the writes
 * drivers make (fields of a run, an event or a gap in its transcript, its side panels, its change set). Helpers a
 * driver composes take this instead of the whole store so they cannot reach other connections' runs by accident.
 */
import type { RunEvent, RunFields } from '../../model/modelActions';
import type { ChangeSetInfo, Panel, RunInfo } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { RunKey } from '../../model/runKeys';
import type { RunStore } from '../../model/runStore';

export class DriverRuns {
  constructor(
    private readonly store: RunStore,
    readonly connectionId: string,
  ) {}

  /** The last key built: a stream asks for the same run's key once per frame. */
  private lastKey: { readonly runId: string; readonly key: RunKey } | undefined;

  key(runId: string): RunKey {
    const last = this.lastKey;
    if (last?.runId === runId) {
      return last.key;
    }
    const key = runKeyOf(this.connectionId, runId);
    this.lastKey = { runId, key };
    return key;
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

  /** Events in (from, to] are known to be lost. */
  gap(runId: string, from: number, to: number, reason: string): void {
    this.store.dispatch({ type: 'runGap', runKey: this.key(runId), from, to, reason });
  }

  /** The run's side panels; `merge` replaces only the panels with the same ids. */
  panels(runId: string, panels: readonly Panel[], merge = false): void {
    this.store.dispatch({ type: 'runPanels', runKey: this.key(runId), panels, ...(merge ? { merge: true } : {}) });
  }

  /** The run's change set (what the daemon delivered or the editor computed). */
  changeSet(runId: string, changeSet: Omit<ChangeSetInfo, 'runKey'>): void {
    this.store.dispatch({ type: 'changeSet', changeSet: { runKey: this.key(runId), ...changeSet } });
  }
}
