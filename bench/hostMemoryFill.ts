/**
 * What the memory benchmark fills the store with, as a driver would: every event decoded from JSON (a daemon's
 * strings arrive flat from `JSON.parse`, not as the ropes and slices that bench/benchKit.ts's `prose` builds, which
 * would otherwise be measured instead of the model), and — for `fillStreamed` — assistant text and reasoning
 * streamed the way daemons send them: in deltas of a few characters, each one appended to the open item.
 */
import type { ModelAction, RunEvent } from '../extension/model/modelActions';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import { prng, prose, randInt } from './benchKit';
import { CONNECTION } from './streamingCost';

/** A store whose every action went through JSON first, like the decoded frames of a driver. */
export class DecodedStore extends RunStore {
  override dispatch(action: ModelAction): void {
    super.dispatch(JSON.parse(JSON.stringify(action)) as ModelAction);
  }
}

/**
 * About `items` items of the same mix as streamingCost.ts's `fill` (prose, tool calls with inputs and outputs,
 * usage, reasoning), with text and reasoning streamed in deltas of 2–12 characters. Leaves nothing open.
 */
export function fillStreamed(store: RunStore, runId: string, items: number): void {
  const key = runKeyOf(CONNECTION, runId);
  store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId, fields: { title: runId, state: 'running' } });
  const random = prng(7);
  let sequence = 0;
  const send = (event: RunEvent): void => store.dispatch({ type: 'runEvent', runKey: key, sequence: ++sequence, event });
  const stream = (kind: 'textDelta' | 'reasoningDelta', text: string): void => {
    for (let at = 0; at < text.length; ) {
      const n = randInt(random, 2, 12);
      send({ kind, text: text.slice(at, at + n) });
      at += n;
    }
    send({ kind: 'messageBoundary' });
  };
  while ((store.state.runs.get(key)?.itemCount ?? 0) < items) {
    switch (randInt(random, 0, 3)) {
      case 0:
        stream('textDelta', prose(random, 60));
        break;
      case 1:
        send({ kind: 'toolCall', callId: `c${sequence}`, name: 'Bash', input: { command: prose(random, 20) } });
        send({ kind: 'toolResult', callId: `c${sequence - 1}`, ok: true, output: prose(random, 80) });
        break;
      case 2:
        send({ kind: 'data', dataKind: 'usage', data: { input_tokens: 10 }, summary: 'usage' });
        break;
      default:
        stream('reasoningDelta', prose(random, 40));
    }
  }
}
