/**
 * What a rewind came to, in words: the transcript's marker (kit/turnCheckpoints.ts) and the notification
 * (ui/checkpoints/fileRewinds.ts) say the same. Pure: no git, no Node.
 */
import type { FileCheckpoint } from './fileCheckpointRecords';
import type { RewindOutcome } from './fileCheckpointStore';

/** "to turn 1: 3 files restored, 1 kept, 1 not restored (a.txt: …)" — what a rewind's marker and notification say. */
export function rewindSummary(history: readonly FileCheckpoint[], outcome: Extract<RewindOutcome, { status: 'rewound' }>, redo: boolean): string {
  const entry = history.find((c) => c.id === outcome.rewindId);
  const target = history.find((c) => c.id === entry?.restored);
  const where = redo
    ? 'redo: the files as before the last rewind'
    : target?.turn === undefined
      ? 'to a checkpoint'
      : target.turn === 0
        ? 'to the start of the run'
        : `to turn ${target.turn}`;
  const parts = [`${outcome.restored} file${outcome.restored === 1 ? '' : 's'} restored`];
  if (outcome.kept.length > 0) {
    parts.push(`${outcome.kept.length} kept as they were`);
  }
  if (outcome.failures.length > 0) {
    const first = outcome.failures[0]!;
    parts.push(`${outcome.failures.length} not restored (${first.path}: ${first.reason}${outcome.failures.length > 1 ? ', …' : ''})`);
  }
  return `${where}: ${parts.join(', ')}`;
}
