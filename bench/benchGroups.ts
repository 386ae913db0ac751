/**
 * The benchmark groups `npm run bench` runs, each in a process of its own (bench/groupProcess.ts) so that one
 * group's garbage, JIT state and heap size do not move another's ratios. `repeat: 1` for figures that do not vary
 * from run to run (bundle sizes).
 */
import type { BenchRow } from './benchKit';
import { benchBundles } from './bundles';
import { benchCatchUp } from './catchUp';
import { benchChangeSet } from './changeSet';
import { benchChangeSetStalls } from './changeSetStalls';
import { benchHistoryOpen } from './historyOpen';
import { benchHostMemory } from './hostMemory';
import { benchIdleHive, benchIdleReconnecting, benchIdleWakeups } from './idleWakeups';
import { benchIngestAgencyProxy } from './ingestAgencyProxy';
import { benchIngestScv } from './ingestScv';
import { benchReloadThreeRuns } from './reloadThreeRuns';
import { benchStalls } from './stalls';
import { benchStreamingCost } from './streamingCost';
import { benchWebview } from './webview';
import { benchWebviewLongTasks } from './webviewLongTasks';

export interface BenchGroup {
  readonly id: string;
  readonly title: string;
  readonly run: () => BenchRow[] | Promise<BenchRow[]>;
  /** Repetitions after the warm-up; the default is the runner's (`--repeat`). */
  readonly repeat?: number;
  /** Whether a first, discarded run warms the JIT and caches (default true). */
  readonly warmUp?: boolean;
}

export const BENCH_GROUPS: readonly BenchGroup[] = [
  { id: 'ingest.agencyProxy', title: '1a. Ingest — AgencyProxy length-prefixed frames', run: () => benchIngestAgencyProxy() },
  { id: 'ingest.scv', title: '1b. Ingest — SCV NDJSON', run: () => benchIngestScv() },
  { id: 'streaming', title: '2. Streaming cost per delta (10 vs 100k items)', run: () => benchStreamingCost() },
  { id: 'webview', title: '3. Webview with 100k items (headless Chromium)', run: () => benchWebview() },
  { id: 'changeSet', title: '4. Change sets (4 MiB patch)', run: () => benchChangeSet() },
  { id: 'stalls', title: '10. Stalls — the longest main-thread stall of the host (100k-item run)', run: () => benchStalls() },
  // A group of its own (not in stalls.ts): no 100k-item run to set up, and `stalls.changeSet` runs it alone.
  { id: 'stalls.changeSet', title: '10b. Stalls — a 4 MiB change set arriving, shown and applied', run: () => benchChangeSetStalls() },
  { id: 'stalls.webview', title: "10c. Stalls — the webview's longest task while a flood of patches arrives (headless Chromium)", run: () => benchWebviewLongTasks() },
  { id: 'catchUp', title: '5. Catch-up after reconnect (10k events)', run: () => benchCatchUp() },
  // One measurement per process: the heap of a warm-up's store would still be around.
  { id: 'memory', title: '7. Memory — extension host with three 100k-item runs', run: () => benchHostMemory(), warmUp: false },
  // A real 60 s sample: once.
  { id: 'idle', title: '8. Idle — timer wake-ups with connections open (real 60 s, then 10 virtual minutes)', run: () => benchIdleWakeups(), repeat: 1, warmUp: false },
  { id: 'idle.hive', title: '8b. Idle — the same with a hive profile (10 virtual minutes)', run: () => benchIdleHive(), repeat: 1, warmUp: false },
  { id: 'idle.reconnecting', title: '8c. Idle — the same with a connection that keeps reconnecting (10 virtual minutes)', run: () => benchIdleReconnecting(), repeat: 1, warmUp: false },
  // The first call streams the three runs (set-up, untimed); every call then times one reload of them.
  { id: 'reload', title: '9. Window reload — three 100k-item runs re-attached, the selected one painted', run: () => benchReloadThreeRuns(), warmUp: false },
  // Set-up writes 2 × 1,010 stored runs once (untimed); each call opens the four storages.
  { id: 'history', title: '10. History — open with 1,000 stored runs vs 10 (with and without checkpoints), heap', run: () => benchHistoryOpen(), warmUp: false },
  { id: 'bundle', title: '6. Bundles and activation', run: () => benchBundles(), repeat: 1, warmUp: false },
];
