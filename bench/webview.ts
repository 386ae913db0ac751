/**
 * Webview: the real webview bundle in headless Chromium (test/webview/harness.ts, the document `renderWebviewHtml`
 * builds, with its CSP). A 100,000-item snapshot is built inside the page and posted like the host posts it; then
 * 1,000 patch messages stream into a text item; then the change-set view gets a ~4 MiB patch (the host's
 * `changeSetMessage` of the same synthetic patch as bench/changeSet.ts). Times are the page's own clock, from the
 * post to the frame that shows the result. Target: < 3,000 DOM elements with 100k items.
 */
import { join } from 'node:path';
import { parseGitPatch } from '../extension/changeSets/patchParser';
import { A3S_LIMITS } from '../extension/protocol/a3s';
import type { RunSummary } from '../extension/protocol/webviewMessages';
import { changeSetMessage } from '../extension/ui/changeSets/changeSetWebview';
import type { BenchRow } from './benchKit';
import { cpuMs } from './benchKit';
import { syntheticPatch } from './changeSet';

const RUN_KEY = 'agency-proxy:bench::bench-run';
const RUN: RunSummary = {
  key: RUN_KEY,
  protocol: 'agency-proxy',
  connectionName: 'bench',
  runId: 'bench-run',
  title: 'Benchmark run',
  state: 'running',
  pendingApprovals: 0,
  actions: { send: true, queues: false, stop: true, end: false, changeSet: false },
};

/** The part of the harness API used here (the harness is type-checked with the DOM-enabled webview-test project). */
interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
}
interface HarnessPage {
  evaluate<R>(expression: string): Promise<R>;
  context(): { newCDPSession(page: HarnessPage): Promise<CdpSession> };
}

/** The page's JS heap after a full GC (Chrome DevTools Protocol), in MB. */
async function heapMb(page: HarnessPage): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usage.usedSize / 1048576;
}
interface HarnessApi {
  openHarness(options: { width?: number; height?: number }): Promise<{ readonly page: HarnessPage; readonly errors: string[]; reload(): Promise<void>; close(): Promise<void> }>;
}

/** In-page: builds `count` items, posts the snapshot, resolves with ms until the last item is painted. */
const SNAPSHOT_SCRIPT = `async ({ count, run }) => {
  const items = [];
  for (let i = 0; i < count; i++) {
    const id = 'item-' + i;
    switch (i % 5) {
      case 0: items.push({ id, kind: 'user', text: 'prompt ' + i }); break;
      case 1: items.push({ id, kind: 'text', text: ('answer ' + i + ' ').repeat(1 + (i % 13) * 4), streaming: false }); break;
      case 2: items.push({ id, kind: 'tool', callId: 'c' + i, name: 'bash', input: { command: 'echo ' + i }, status: 'succeeded', output: ('out ' + i + '\\n').repeat(1 + (i % 7)), truncated: false }); break;
      case 3: items.push({ id, kind: 'usage', data: {}, summary: 'usage ' + i }); break;
      default: items.push({ id, kind: 'notice', text: 'notice ' + i, level: 'info' });
    }
  }
  items.push({ id: 'stream', kind: 'text', text: 'Streaming:', streaming: true });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const start = performance.now();
  window.postMessage({ type: 'snapshot', run, items, seq: 0 }, '*');
  while (!document.querySelector('[data-item-id="stream"]')) { await frame(); }
  await frame();
  return performance.now() - start;
}`;

/** In-page: posts `count` one-append patch messages, resolves with ms until the last chunk is painted. */
const PATCHES_SCRIPT = `async ({ count, runKey }) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const start = performance.now();
  for (let i = 1; i <= count; i++) {
    window.postMessage({ type: 'patches', runKey, firstSeq: i, patches: [{ op: 'append', id: 'stream', field: 'text', chunk: ' chunk' + i }] }, '*');
  }
  const row = () => document.querySelector('[data-item-id="stream"]');
  const last = 'chunk' + count;
  while (!(row() && row().textContent.includes(last))) { await frame(); }
  await frame();
  const resyncs = window.__posted.filter((m) => m && m.type === 'resync').length;
  return { ms: performance.now() - start, resyncs };
}`;

/** In-page: parses the host's message (as the structured clone would deliver it), posts it, times the first diff screen. */
const CHANGE_SET_SCRIPT = `async ({ json, snapshot }) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  window.postMessage(snapshot, '*');
  await frame();
  const message = JSON.parse(json);
  const start = performance.now();
  window.postMessage(message, '*');
  while (document.querySelectorAll('#cs-diff .cs-row').length === 0) { await frame(); }
  await frame();
  return { ms: performance.now() - start, rows: document.querySelectorAll('#cs-diff .cs-row').length, nodes: document.getElementsByTagName('*').length };
}`;

export async function benchWebview(count = 100_000, patchCount = 1_000): Promise<BenchRow[]> {
  // A runtime path, so the root type-check does not pull the DOM-typed harness into the Node-only project.
  const harnessPath = join(__dirname, '..', 'test', 'webview', 'harness.ts');
  const { openHarness } = (await import(harnessPath)) as HarnessApi;
  const harness = await openHarness({ width: 420, height: 800 });
  try {
    // Expressions, not functions: the page's CSP forbids the eval Playwright would use to detect a function string.
    const call = (script: string, arg: unknown): string => `(${script})(${JSON.stringify(arg)})`;
    // The same open at 1k items first (its own page), then the 100k one: the ratio says whether opening is O(screen).
    const smallCount = 1_000;
    const smallPaintMs = await harness.page.evaluate<number>(call(SNAPSHOT_SCRIPT, { count: smallCount, run: RUN }));
    const smallHeap = await heapMb(harness.page);
    await harness.reload();
    const paintMs = await harness.page.evaluate<number>(call(SNAPSHOT_SCRIPT, { count, run: RUN }));
    const heap = await heapMb(harness.page);
    const nodes = await harness.page.evaluate<number>('document.getElementsByTagName("*").length');
    const patches = await harness.page.evaluate<{ ms: number; resyncs: number }>(call(PATCHES_SCRIPT, { count: patchCount, runKey: RUN_KEY }));
    const nodesAfter = await harness.page.evaluate<number>('document.getElementsByTagName("*").length');
    // The change-set view: the host builds the message from the parsed patch; the page shows its first screen.
    const patchText = syntheticPatch(A3S_LIMITS.patchBytes);
    const hostStart = cpuMs();
    const message = changeSetMessage({ key: RUN_KEY, title: 'Benchmark run' }, { source: 'daemon' }, parseGitPatch(patchText).files);
    const json = JSON.stringify(message);
    const hostMs = cpuMs() - hostStart;
    await harness.reload();
    const diff = await harness.page.evaluate<{ ms: number; rows: number; nodes: number }>(
      call(CHANGE_SET_SCRIPT, { json, snapshot: { type: 'snapshot', run: { ...RUN, actions: { ...RUN.actions, changeSet: true } }, items: [], seq: 0 } }),
    );
    if (harness.errors.length > 0 || patches.resyncs > 0) {
      throw new Error(`webview errors: ${harness.errors.join(' | ')}; resyncs: ${patches.resyncs}`);
    }
    return [
      {
        id: 'webview.domNodes',
        name: `Webview DOM elements with ${count.toLocaleString('en-US')} transcript items`,
        value: nodes,
        unit: 'elements',
        target: '< 3,000',
        met: nodes < 3_000 && nodesAfter < 3_000,
        note: `${nodesAfter} after the patches`,
      },
      {
        id: 'webview.firstPaint',
        name: `Webview: snapshot of ${count.toLocaleString('en-US')} items posted → last screen painted`,
        value: paintMs,
        unit: 'ms',
        baseline: { label: `the same with ${smallCount.toLocaleString('en-US')} items`, value: smallPaintMs, unit: 'ms' },
        ratio: paintMs / smallPaintMs,
        target: '< 150 ms and ≤ 1.2× the 1k open',
        met: paintMs < 150 && paintMs / smallPaintMs <= 1.2,
        note: 'the page builds the items itself: the host snapshot and its structured clone are not in this figure',
      },
      {
        id: 'webview.heap',
        name: `Webview JS heap after GC with a ${count.toLocaleString('en-US')}-item run open`,
        value: heap,
        unit: 'MB',
        baseline: { label: `with ${smallCount.toLocaleString('en-US')} items`, value: smallHeap, unit: 'MB' },
        ratio: heap / smallHeap,
        target: '< 50 MB',
        met: heap < 50,
      },
      {
        id: 'webview.patches',
        name: `Webview: ${patchCount.toLocaleString('en-US')} patch messages posted → last one painted`,
        value: patches.ms,
        unit: 'ms',
        met: null,
        note: `${(patches.ms / patchCount).toFixed(3)} ms per patch message`,
      },
      {
        id: 'webview.changeSetFirstScreen',
        name: `Webview: change set of ${(Buffer.byteLength(patchText) / 1048576).toFixed(2)} MiB (${message.files.length} files) posted → first diff screen painted`,
        value: diff.ms,
        unit: 'ms',
        target: '< 3,000 elements',
        met: diff.nodes < 3_000,
        note: `${diff.rows} diff rows mounted, ${diff.nodes} DOM elements; host side (parse + message + JSON) ${hostMs.toFixed(0)} ms CPU, ${(json.length / 1048576).toFixed(1)} MiB posted`,
      },
    ];
  } finally {
    await harness.close();
  }
}
