/**
 * `+N −M` of a run's change set for the board's rows, counted once per change-set object (the reducer replaces the
 * object when the change set changes, so identity is the cache key; the parse itself is changeSetFiles.ts's cache).
 * Pure (no `vscode`).
 */
import type { ChangeStats } from '../../model/boardRows';
import type { ChangeSetInfo } from '../../model/modelTypes';
import { changeSetRead } from '../changeSets/changeSetReading';

const statsCache = new WeakMap<ChangeSetInfo, ChangeStats | null>();
const READING_STATS: ChangeStats = { added: 0, removed: 0, reading: true };

/**
 * Added and removed lines of a ready change set (`reading` while its patch is read); none while it is captured,
 * unavailable, refused or unreadable.
 */
export function changeStatsOf(info: ChangeSetInfo | undefined): ChangeStats | undefined {
  if (!info || info.status !== 'ready') {
    return undefined;
  }
  let stats = statsCache.get(info);
  if (stats === undefined) {
    const parsed = changeSetRead(info);
    if (parsed.reading === true) {
      return READING_STATS; // not cached: the board derives again when the read ends
    }
    stats = parsed.ok ? parsed.files.reduce((s, f) => ({ added: s.added + f.additions, removed: s.removed + f.deletions }), { added: 0, removed: 0 }) : null;
    statsCache.set(info, stats);
  }
  return stats ?? undefined;
}
