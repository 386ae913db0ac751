/**
 * Read-only questions drivers may ask about a run. `RunInfo`'s streaming bookkeeping (`openTools`, `openTextId`,
 * `openReasoningId`, `openAnonymousToolId`, `itemCount`) is the reducer's own: its shape may change with the reducer,
 * so code outside extension/model asks here instead of reading those fields.
 */
import type { RunInfo } from './modelTypes';

/** Call ids of the run's tool calls still waiting for their result, in the order they were opened. */
export function openToolCallIds(run: RunInfo | undefined): readonly string[] {
  return run ? [...run.openTools.keys()] : [];
}

/** How many items the run's transcript holds (counted while unloaded too: the summary keeps it). */
export function itemCountOf(run: Pick<RunInfo, 'itemCount'>): number {
  return run.itemCount;
}

/** Whether the run holds nothing yet: no item, no daemon sequence (a run about to be replayed is such a run). */
export function isEmptyRun(run: RunInfo): boolean {
  return run.itemCount === 0 && run.lastSequence === 0;
}
