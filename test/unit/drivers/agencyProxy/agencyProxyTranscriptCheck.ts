/**
 * "The transcript equals the daemon's journal": the same summary (text, reasoning, tool calls, events) computed from
 * the reference daemon's state file and from the model, so tests compare them with one deepEqual.
 */
import type { RunStore } from '../../../../extension/model/runStore';
import { readRecordedHistory } from '../../../fixtures/agencyProxy/runStore';

export interface TranscriptSummary {
  readonly text: string;
  readonly reasoning: string;
  readonly tools: number;
  readonly events: number;
}

/** From the reference daemon's record (`recordDir`): every event it published for the run. */
export function journalSummary(recordDir: string, runId: string): TranscriptSummary {
  const history = readRecordedHistory(recordDir, runId);
  const of = (type: string): string => history.filter((e) => e.type === type).map((e) => String(e.payload)).join('');
  return { text: of('text'), reasoning: of('reasoning'), tools: history.filter((e) => e.type === 'tool_call').length, events: history.length };
}

export function modelSummary(store: RunStore, key: string): TranscriptSummary {
  const items = store.transcript(key)?.snapshot() ?? [];
  return {
    text: items.map((i) => (i.kind === 'text' ? i.text : '')).join(''),
    reasoning: items.map((i) => (i.kind === 'reasoning' ? i.text : '')).join(''),
    tools: items.filter((i) => i.kind === 'tool').length,
    events: store.state.runs.get(key)?.lastSequence ?? 0,
  };
}
