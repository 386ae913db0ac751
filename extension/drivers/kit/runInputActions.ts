/**
 * What a journaled input means to the model: the one mapping from a `RunInput` to a model action, used when it is
 * recorded live, replayed after a reload, and folded by a driver that does not journal.
 */
import type { ModelAction, RunEvent } from '../../model/modelActions';
import { runKeyOf } from '../../model/modelTypes';
import type { RunInput } from './journalRecords';

/**
 * The model action an input stands for (undefined for a cursor: the driver's, not the model's). `runKey`: the run's
 * key when the caller has it already (a cached one: runKeys.ts).
 */
export function modelActionOf<C>(connectionId: string, runId: string, input: RunInput<C>, restored = false, runKey = runKeyOf(connectionId, runId)): ModelAction | undefined {
  if ('event' in input) {
    // Spelled out, not spread: this runs for every streamed chunk.
    const action: { type: 'runEvent'; runKey: string; event: RunEvent; sequence?: number; firstSequence?: number; restored?: boolean } = { type: 'runEvent', runKey, event: input.event };
    if (input.sequence !== undefined) {
      action.sequence = input.sequence;
      if (input.firstSequence !== undefined) {
        action.firstSequence = input.firstSequence;
      }
    }
    if (restored) {
      action.restored = true;
    }
    return action;
  }
  if ('fields' in input) {
    return { type: 'runUpserted', connectionId, runId, fields: input.fields };
  }
  if ('gap' in input) {
    return { type: 'runGap', runKey, ...input.gap };
  }
  if ('panels' in input) {
    return input.replace ? { type: 'runPanels', runKey, panels: input.panels } : { type: 'runPanels', runKey, panels: input.panels, merge: true };
  }
  return undefined;
}
