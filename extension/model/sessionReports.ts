/**
 * What an agent reports about its session besides the conversation: its context use and cost (kept on the run,
 * replaced in place: agents report it several times a turn) and its context compactions (one row per compaction,
 * changed as it goes from "compacting" to its end, its summary growing in the row). Part of the run reducer.
 */
import type { RunEvent } from './modelActions';
import type { RunEditor } from './runEditor';

/** Compactions remembered per run (their ids → rows): an update of an older one than this adds a row of its own. */
const REMEMBERED_COMPACTIONS = 20;

export function applyUsage(ed: RunEditor, event: Extract<RunEvent, { kind: 'usage' }>): void {
  // Claude Code reports the cost on the last report of a turn only: the ones between keep the cost said before.
  const cost = event.cost ?? ed.run.usage?.cost;
  ed.run = { ...ed.run, usage: { used: event.used, size: event.size, ...(cost ? { cost: { amount: cost.amount, currency: cost.currency } } : {}) } };
}

/** The compaction row's line: where it stands, in words. */
export function compactionLine(status: string, error: string | undefined): string {
  switch (status) {
    case 'in_progress':
      return 'Compacting the context…';
    case 'completed':
      return 'Context compacted';
    case 'failed':
      return `Context compaction failed${error ? `: ${error}` : ''}`;
    case 'cancelled':
      return 'Context compaction cancelled';
    default:
      return `Context compaction: ${status}`;
  }
}

export function applyCompaction(ed: RunEditor, event: Extract<RunEvent, { kind: 'compaction' }>): void {
  const known = ed.run.compactionItems?.[event.compactionId];
  const status = event.status ?? 'in_progress';
  const data = { compactionId: event.compactionId, status, ...(event.error ? { error: event.error } : {}) };
  if (known === undefined) {
    ed.closeStreams();
    const id = ed.nextId('k');
    ed.add({ id, kind: 'compaction', data, summary: compactionLine(status, event.error), text: event.summary ?? event.summaryDelta ?? '' });
    const kept = Object.entries(ed.run.compactionItems ?? {}).slice(-(REMEMBERED_COMPACTIONS - 1));
    ed.run = { ...ed.run, compactionItems: Object.fromEntries([...kept, [event.compactionId, id]]) };
    return;
  }
  if (event.status !== undefined) {
    ed.update(known, { data, summary: compactionLine(status, event.error) });
  }
  if (event.summary !== undefined) {
    ed.update(known, { text: event.summary });
  }
  if (event.summaryDelta !== undefined) {
    ed.append(known, 'text', event.summaryDelta);
  }
}
