/**
 * Where the notes of a run are kept: beside the run's journal, in its connection's directory (journalDirOf), so
 * they share the run's file prefix and Remove Run deletes them with the rest (storage/runFiles.ts).
 */
import { runFilePlaceOf } from '../../drivers/kit/runJournaling';
import { errorText } from '../../drivers/kit/errors';
import type { RunStore } from '../../model/runStore';
import { ReviewNoteStore } from './reviewNoteStore';

export function reviewNoteStore(store: RunStore, storageDir: string, log: { warn(message: string): void }): ReviewNoteStore {
  return new ReviewNoteStore(
    (runKey) => runFilePlaceOf(storageDir, store.state.runs.get(runKey)),
    (runKey, error) => log.warn(`The notes of ${runKey} were not saved: ${errorText(error)}`),
  );
}
