/**
 * Streaming cost: what the host spends per streamed text delta — store dispatch (reducer + transcript patch) plus
 * the `patches` message it would post (built and serialised) — when the run already holds 10 items vs 100,000.
 * Both runs live in the same store and are measured in alternation. Target: the 100k/10 ratio ≤ 1.1 (O(delta)).
 */
import type { RunEvent } from '../extension/model/modelActions';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import type { BenchRow } from './benchKit';
import { collectGarbage, cpuMs, median, prng, prose, randInt } from './benchKit';
import { HostPatchSink } from './hostPatchSink';

export const CONNECTION = 'agency-proxy:bench';

/** How `fill` sends text and reasoning. */
export interface FillOptions {
  /** In deltas of 2–12 characters, each appended to the open item, as daemons stream them (default: one event each). */
  readonly streamed?: boolean;
  /** End with an open text item to stream into (default true). */
  readonly open?: boolean;
}

/** Fills a run with about `items` transcript items of mixed kinds (prose, tool calls with input and output, usage, reasoning). */
export function fill(store: RunStore, runId: string, items: number, options: FillOptions = {}): number {
  const key = runKeyOf(CONNECTION, runId);
  store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId, fields: { title: runId, state: 'running' } });
  const random = prng(7);
  let sequence = 0;
  const send = (event: RunEvent): void => store.dispatch({ type: 'runEvent', runKey: key, sequence: ++sequence, event });
  const text = (kind: 'textDelta' | 'reasoningDelta', body: string): void => {
    for (let at = 0; at < body.length; ) {
      const n = options.streamed ? randInt(random, 2, 12) : body.length;
      send({ kind, text: body.slice(at, at + n) });
      at += n;
    }
    send({ kind: 'messageBoundary' });
  };
  while ((store.state.runs.get(key)?.itemCount ?? 0) < items) {
    switch (randInt(random, 0, 3)) {
      case 0:
        text('textDelta', prose(random, 60));
        break;
      case 1:
        send({ kind: 'toolCall', callId: `c${sequence}`, name: 'Bash', input: { command: prose(random, 20) } });
        send({ kind: 'toolResult', callId: `c${sequence - 1}`, ok: true, output: prose(random, 80) });
        break;
      case 2:
        send({ kind: 'data', dataKind: 'usage', data: { input_tokens: 10 }, summary: 'usage' });
        break;
      default:
        text('reasoningDelta', prose(random, 40));
    }
  }
  if (options.open ?? true) {
    send({ kind: 'textDelta', text: 'Streaming: ' }); // an open text item to stream into
  }
  return sequence;
}

interface Side {
  readonly key: string;
  sequence: number;
  readonly sink: HostPatchSink;
  readonly ms: number[];
}

export function benchStreamingCost(deltasPerBatch = 5_000, batches = 8): BenchRow[] {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'agency-proxy' } });
  const small: Side = { key: runKeyOf(CONNECTION, 'small'), sequence: fill(store, 'small', 10), sink: undefined!, ms: [] };
  const big: Side = { key: runKeyOf(CONNECTION, 'big'), sequence: fill(store, 'big', 100_000), sink: undefined!, ms: [] };
  const sides = [small, big].map((side) => ({ ...side, sink: new HostPatchSink(store, side.key, false) }));
  const random = prng(11);
  const chunks = Array.from({ length: deltasPerBatch }, () => prose(random, randInt(random, 2, 40)));
  const batch = (side: (typeof sides)[number]): void => {
    for (const text of chunks) {
      store.dispatch({ type: 'runEvent', runKey: side.key, sequence: ++side.sequence, event: { kind: 'textDelta', text } });
      side.sink.flush(); // one delta per tick: one message per delta (the worst case for the host)
    }
  };
  for (let round = 0; round <= batches; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      collectGarbage();
      const bytesBefore = side.sink.bytes;
      const start = cpuMs();
      batch(side);
      const elapsed = cpuMs() - start;
      if (round > 0) {
        side.ms.push(elapsed);
      } else {
        side.sink.bytes = bytesBefore; // warm-up round does not count
      }
    }
  }
  const [s, b] = sides;
  const items = (side: Side): number => store.state.runs.get(side.key)!.itemCount;
  const perDeltaUs = (side: (typeof sides)[number]): number => (median(side.ms) * 1000) / deltasPerBatch;
  const perDeltaBytes = (side: (typeof sides)[number]): number => side.sink.bytes / (deltasPerBatch * batches);
  const timeRatio = perDeltaUs(b!) / perDeltaUs(s!);
  const byteRatio = perDeltaBytes(b!) / perDeltaBytes(s!);
  for (const side of sides) {
    side.sink.dispose();
  }
  return [
    {
      id: 'streaming.time',
      name: `Streaming cost per text delta, run with ${items(b!).toLocaleString('en-US')} items (dispatch + patch message)`,
      value: perDeltaUs(b!),
      unit: 'µs CPU',
      baseline: { label: `run with ${items(s!)} items`, value: perDeltaUs(s!), unit: 'µs CPU' },
      ratio: timeRatio,
      target: '≤ 1.1',
      met: timeRatio <= 1.1,
    },
    {
      id: 'streaming.bytes',
      name: `Bytes posted per text delta, run with ${items(b!).toLocaleString('en-US')} items`,
      value: perDeltaBytes(b!),
      unit: 'bytes',
      baseline: { label: `run with ${items(s!)} items`, value: perDeltaBytes(s!), unit: 'bytes' },
      ratio: byteRatio,
      target: '≤ 1.1',
      met: byteRatio <= 1.1,
      note: 'the only growth is the digits of item ids and sequence numbers',
    },
  ];
}
