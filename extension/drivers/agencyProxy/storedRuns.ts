/** Run metadata as the AgencyProxy driver keeps it in its journal index (`RunJournal`), both ways. */
import type { RunEvent as ModelRunEvent, RunFields } from '../../model/modelActions';
import type { RunInfo } from '../../model/modelTypes';
import type { RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import { RunEventSchema } from '../../protocol/agencyProxy';
import type { RunJournal, StoredRun } from '../../storage/runJournal';
import { mapRunState } from './eventMapping';

/** One journal line: a daemon event with its sequence, or something the editor added (prompt, decision). */
export type JournalRecord = { readonly s: number; readonly e: unknown } | { readonly l: ModelRunEvent };

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

export interface JournalReplayHandlers {
  run(stored: StoredRun): void;
  event(runId: string, sequence: number, event: WireRunEvent): void;
  local(runId: string, event: ModelRunEvent): void;
  /** After a run's records: the stored state is the last one the editor knew. */
  runDone(stored: StoredRun): void;
}

/** Replays every stored run and its records, in order (a torn last line is skipped by the journal). */
export async function replayJournal(journal: RunJournal, handlers: JournalReplayHandlers): Promise<void> {
  for (const stored of await journal.loadRuns()) {
    handlers.run(stored);
    for (const record of (await journal.readRecords(stored.runId)) as JournalRecord[]) {
      if ('s' in record && typeof record.s === 'number') {
        const parsed = RunEventSchema.safeParse(record.e);
        if (parsed.success) {
          handlers.event(stored.runId, record.s, parsed.data);
        }
      } else if ('l' in record) {
        handlers.local(stored.runId, record.l);
      }
    }
    handlers.runDone(stored);
  }
}
