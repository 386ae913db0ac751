/** A stored AgencyProxy run's fields as the model starts it from after a reload (`storedRunOf` is the kit's). */
import type { RunFields } from '../../model/modelActions';
import type { StoredRun } from '../../storage/runJournal';
import { mapRunState } from './eventMapping';

export function runFieldsOf(stored: StoredRun): RunFields {
  return {
    title: stored.title,
    ...(stored.provider !== undefined ? { provider: stored.provider } : {}),
    ...(stored.model !== undefined ? { model: stored.model } : {}),
    state: mapRunState(stored.state).state,
    createdAt: stored.createdAt,
    ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}),
  };
}
