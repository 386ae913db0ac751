/**
 * Extension-host memory: the store holding three runs of 100,000 transcript items each (the same mixed items as the
 * streaming benchmark: prose, tool calls with inputs and outputs, usage, reasoning), measured as the growth of the
 * V8 heap after a full GC. The items arrive as a driver hands them over: decoded from JSON (bench/hostMemoryFill.ts).
 * Two figures: every text in one event (`memory.host`), and text and reasoning streamed in deltas of a few
 * characters (`memory.hostStreamed`: what a live run leaves behind). The baseline is the UTF-16 size of the text
 * the items carry (what any representation must hold), so the ratio says how much the model adds per byte of
 * content. Target: < 150 MB.
 */
import type { RunStore } from '../extension/model/runStore';
import type { BenchRow } from './benchKit';
import { collectGarbage } from './benchKit';
import { DecodedStore, fillStreamed } from './hostMemoryFill';
import { CONNECTION, fill } from './streamingCost';

function heapMb(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed / 1048576;
}

/** The characters of every string in the item (keys excluded), × 2 bytes. */
function textMb(store: RunStore, runKeys: readonly string[]): number {
  let chars = 0;
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      chars += value.length;
    } else if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(walk);
    }
  };
  for (const key of runKeys) {
    for (const item of store.transcript(key)?.snapshot() ?? []) {
      walk(item);
    }
  }
  return (chars * 2) / 1048576;
}

function measure(id: string, what: string, fillRun: (store: RunStore, runId: string, items: number) => unknown, runs: number, items: number): BenchRow {
  const before = heapMb();
  const store = new DecodedStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'agency-proxy' } });
  const keys: string[] = [];
  for (let i = 0; i < runs; i++) {
    fillRun(store, `run-${i}`, items);
    keys.push(`${CONNECTION}::run-${i}`);
  }
  const held = heapMb() - before;
  const text = textMb(store, keys);
  const count = keys.reduce((n, k) => n + (store.state.runs.get(k)?.itemCount ?? 0), 0);
  // Keep the store alive until after the measurement.
  store.dispose();
  return {
    id,
    name: `Extension-host heap holding ${runs} runs of ${items.toLocaleString('en-US')} items, ${what} (after GC)`,
    value: held,
    unit: 'MB',
    baseline: { label: 'the UTF-16 text the items carry', value: text, unit: 'MB' },
    ratio: held / text,
    target: '< 150 MB',
    met: held < 150,
    note: `${count.toLocaleString('en-US')} items, ${((held * 1048576) / count).toFixed(0)} B per item`,
  };
}

export function benchHostMemory(runs = 3, items = 100_000): BenchRow[] {
  return [
    measure('memory.host', 'each text in one event', fill, runs, items),
    measure('memory.hostStreamed', 'text and reasoning streamed in 2–12 character deltas', fillStreamed, runs, items),
  ];
}
