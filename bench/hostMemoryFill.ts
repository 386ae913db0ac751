/**
 * What the memory benchmark fills the store with, as a driver would: every event decoded from JSON (a daemon's
 * strings arrive flat from `JSON.parse`, not as the ropes and slices that bench/benchKit.ts's `prose` builds, which
 * would otherwise be measured instead of the model), and — for `fillStreamed` — assistant text and reasoning
 * streamed the way daemons send them (streamingCost.ts `fill` with `streamed`).
 */
import type { ModelAction } from '../extension/model/modelActions';
import { RunStore } from '../extension/model/runStore';
import { fill } from './streamingCost';

/** A store whose every action went through JSON first, like the decoded frames of a driver. */
export class DecodedStore extends RunStore {
  override dispatch(action: ModelAction): void {
    super.dispatch(JSON.parse(JSON.stringify(action)) as ModelAction);
  }
}

/** The memory bench's streamed variant: `fill`'s mix with text and reasoning in 2–12 character deltas, nothing left open. */
export function fillStreamed(store: RunStore, runId: string, items: number): void {
  fill(store, runId, items, { streamed: true, open: false });
}
