/** Run metadata as the AgencyProxy driver keeps it in its journal's run index (`StoredRun`), both ways. */
import type { RunFields } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import type { StoredRun } from '../../storage/runJournal';
import { mapRunState } from './eventMapping';

export function storedRunOf(run: RunInfo, extra?: Readonly<Record<string, unknown>>): StoredRun {
  return {
    runId: run.runId,
    title: run.title,
    ...(run.provider !== undefined ? { provider: run.provider } : {}),
    ...(run.model !== undefined ? { model: run.model } : {}),
    state: run.state,
    createdAt: run.createdAt,
    ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
    ...(extra ? { extra } : {}),
  };
}

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
