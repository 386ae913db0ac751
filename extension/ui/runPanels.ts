/**
 * The side panels of a run as the transcript view shows them: the daemon-owned panels the store holds
 * (`RunInfo.panels`: hive loose ends, SCV jobs…) followed by the panels derived from other model state — today the
 * "changeSet" panel, built from the run's `ChangeSetInfo`. Derived panels are computed here on every read and never
 * written back into the store, so they cannot go stale or race a driver that replaces its panels wholesale.
 * Pure (no `vscode`).
 */
import type { ModelState, Panel } from '../model/modelTypes';
import { buildChangeSetPanel, CHANGE_SET_PANEL_ID } from './changeSets/changeSetFiles';

export function runPanelsOf(state: ModelState, runKey: string): readonly Panel[] {
  const run = state.runs.get(runKey);
  if (!run) {
    return [];
  }
  const changeSet = state.changeSets.get(runKey);
  // The id is the UI's: a stored panel with it (none today) would be shadowed by the derived one, never shown twice.
  const stored = changeSet ? (run.panels ?? []).filter((p) => p.id !== CHANGE_SET_PANEL_ID) : (run.panels ?? []);
  return changeSet ? [...stored, buildChangeSetPanel(changeSet)] : stored;
}
