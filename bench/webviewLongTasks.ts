/**
 * The webview never stalls (issue #25 §3, "the webview's long tasks while a flood of patches arrives"): the real
 * webview bundle in headless Chromium (test/webview/harness.ts) shows the tail of a 100,000-item run whose last item
 * streams, and a flood of patch messages arrives — each a task of its own, as VS Code delivers a webview's messages,
 * with a turn of the page's loop every 25 of them (a host streaming flat out). Four floods, each on a fresh page:
 *
 * - one growing paragraph (5,000 appends, no break: the open block grows to ~50 KB),
 * - paragraphs (a break every 50 appends),
 * - one growing code block (a fence opened, then 5,000 lines: no block boundary until it closes),
 * - many new items (5,000 `add` patches of mixed kinds at the end of the run, the view following the tail).
 *
 * Two figures per flood, as the host's stall rows have two (bench/stallProbe.ts):
 * - the row's value: the longest task of the page's main thread in *thread time* (Chromium's trace, `RunTask`'s
 *   `tdur`: the CPU the renderer's main thread spent in it) — the stall the work itself causes, whatever else this
 *   shared machine runs;
 * - in the note: Chromium's own `longtask` entries (tasks over 50 ms, wall clock), which a loaded machine lengthens.
 * Baseline: the same page idle as long as the flood took. Target: no task over 50 ms.
 */
import { join } from 'node:path';
import { Transcript } from '../extension/model/transcript';
import { tailWindow } from '../extension/model/transcriptWindow';
import type { TranscriptItem, TranscriptPatch } from '../extension/protocol/transcriptTypes';
import type { HostToWebview } from '../extension/protocol/webviewMessages';
import type { BenchRow } from './benchKit';
import { RUN, RUN_KEY } from './webview';

const TARGET_MS = 50;
const PER_TASK = 25;

/** The parts of the harness and Playwright used here (the harness is typed with the DOM-enabled test project). */
interface HarnessPage {
  evaluate<R>(expression: string): Promise<R>;
}
interface HarnessApi {
  openHarness(options: { width?: number; height?: number }): Promise<{
    readonly page: HarnessPage;
    readonly errors: string[];
    readonly browser: { startTracing(page: HarnessPage, options: { categories: string[] }): Promise<void>; stopTracing(): Promise<Buffer> };
    reload(): Promise<void>;
    close(): Promise<void>;
  }>;
}
interface FakeHostApi {
  mixedItems(count: number, from?: number): TranscriptItem[];
}

interface Flood {
  readonly id: string;
  readonly what: string;
  /** The patch messages' patches, one message each; `lastText`: text the last one puts on screen. */
  readonly patches: readonly TranscriptPatch[];
  readonly lastText: string;
}

function floods(count: number, mixedItems: FakeHostApi['mixedItems']): Flood[] {
  const append = (chunk: (i: number) => string): TranscriptPatch[] =>
    Array.from({ length: count }, (_, k) => ({ op: 'append', id: 'stream', field: 'text', chunk: chunk(k + 1) }));
  return [
    { id: 'webview.longTasks.growingParagraph', what: 'one paragraph growing by 5,000 appends', patches: append((i) => ` flood${i}`), lastText: `flood${count}` },
    { id: 'webview.longTasks.paragraphs', what: 'a paragraph break every 50 appends', patches: append((i) => `${i % 50 === 0 ? '\n\n' : ' '}flood${i}`), lastText: `flood${count}` },
    {
      id: 'webview.longTasks.growingCode',
      what: 'one code block growing by 5,000 lines',
      patches: append((i) => `${i === 1 ? '\n\n```ts\n' : ''}const line${i} = ${i};\n`),
      lastText: `line${count} = ${count}`,
    },
    {
      id: 'webview.longTasks.newItems',
      what: '5,000 new items of mixed kinds',
      patches: mixedItems(count, 100_000).map((item) => ({ op: 'add', item: { ...item, id: `new-${item.id}` } })),
      lastText: `new-item-${100_000 + count - 1}`,
    },
  ];
}

/**
 * In-page: posts `messages` (one task each, a turn of the loop every `perTask`), waits until `lastText` is painted
 * (in the streaming row's text, or as a row's item id), then idles as long. Chromium's `longtask` entries of each.
 */
const FLOOD_SCRIPT = `async ({ perTask, lastText, idId }) => {
  const messages = window.__flood;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const watch = () => {
    const tasks = [];
    const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) tasks.push(entry.duration); });
    observer.observe({ type: 'longtask' });
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      tasks.push(...observer.takeRecords().map((entry) => entry.duration));
      observer.disconnect();
      return { longest: tasks.length > 0 ? Math.max(...tasks) : 0, count: tasks.length };
    };
  };
  const flooding = watch();
  const start = performance.now();
  for (let i = 0; i < messages.length; i++) {
    window.postMessage(messages[i], '*');
    if ((i + 1) % perTask === 0) { await new Promise((resolve) => setTimeout(resolve, 0)); }
  }
  const shown = idId
    ? () => document.querySelector('[data-item-id="' + lastText + '"]') !== null
    : () => (document.querySelector('[data-item-id="stream"]')?.textContent ?? '').includes(lastText);
  while (!shown()) { await frame(); }
  await frame();
  const ms = performance.now() - start;
  const flood = await flooding();
  // The trace's split between the flood and the idle baseline.
  console.timeStamp('sb-flood-end');
  const idling = watch();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const idle = await idling();
  const resyncs = window.__posted.filter((m) => m && m.type === 'resync').length;
  return { ms, flood, idle, resyncs };
}`;

interface FloodResult {
  ms: number;
  flood: { longest: number; count: number };
  idle: { longest: number; count: number };
  resyncs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * The longest main-thread task of the page's renderer in the trace, thread time and wall time (ms), split at
 * `splitUs` (trace clock): before it the flood, after it the idle baseline.
 */
function longestTasks(trace: Buffer): { flood: { thread: number; wall: number }; idle: { thread: number; wall: number } } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && mains.has(`${e.pid}:${e.tid}`));
  const split = events.find((e) => e.name === 'TimeStamp' && JSON.stringify(e.args ?? {}).includes('sb-flood-end'))?.ts;
  if (tasks.length === 0 || split === undefined) {
    throw new Error(`the trace has ${tasks.length} renderer tasks and ${split === undefined ? 'no' : 'a'} flood-end mark`);
  }
  const longest = (list: TraceEvent[]): { thread: number; wall: number } => ({
    thread: Math.max(0, ...list.map((e) => (e.tdur ?? 0) / 1000)),
    wall: Math.max(0, ...list.map((e) => (e.dur ?? 0) / 1000)),
  });
  return { flood: longest(tasks.filter((e) => e.ts < split)), idle: longest(tasks.filter((e) => e.ts >= split)) };
}

/** The host's snapshot of a `count`-item run whose last item, `stream`, is a streaming text. */
function snapshotOf(count: number, mixedItems: FakeHostApi['mixedItems']): Extract<HostToWebview, { type: 'snapshot' }> {
  const transcript = new Transcript();
  for (const item of mixedItems(count)) {
    transcript.apply({ op: 'add', item });
  }
  transcript.apply({ op: 'add', item: { id: 'stream', kind: 'text', text: 'Streaming:', streaming: true } });
  const window = tailWindow(transcript);
  return { type: 'snapshot', run: RUN, items: window.items, start: window.start, total: window.total, kinds: window.kinds, seq: window.seq };
}

export async function benchWebviewLongTasks(count = 100_000, floodCount = 5_000): Promise<BenchRow[]> {
  const { openHarness } = (await import(join(__dirname, '..', 'test', 'webview', 'harness.ts'))) as HarnessApi;
  const { mixedItems } = (await import(join(__dirname, '..', 'test', 'webview', 'fakeHost.ts'))) as FakeHostApi;
  const snapshot = snapshotOf(count, mixedItems);
  const harness = await openHarness({ width: 420, height: 800 });
  // Expressions, not functions: the page's CSP forbids the eval Playwright would use to detect a function string.
  const call = (script: string, arg: unknown): string => `(${script})(${JSON.stringify(arg)})`;
  const rows: BenchRow[] = [];
  try {
    for (const flood of floods(floodCount, mixedItems)) {
      await harness.reload();
      await harness.page.evaluate(`new Promise((resolve) => { window.postMessage(${JSON.stringify(snapshot)}, '*'); requestAnimationFrame(() => requestAnimationFrame(() => resolve())); })`);
      const messages = flood.patches.map((patch, i) => ({ type: 'patches', runKey: RUN_KEY, firstSeq: snapshot.seq + 1 + i, patches: [patch] }));
      // In the page before the trace starts: compiling the literal is the harness's task, not the webview's.
      await harness.page.evaluate(`window.__flood = ${JSON.stringify(messages)}; 0`);
      await harness.browser.startTracing(harness.page, { categories: ['disabled-by-default-devtools.timeline', 'devtools.timeline'] });
      const result = await harness.page.evaluate<FloodResult>(
        call(FLOOD_SCRIPT, { perTask: PER_TASK, lastText: flood.lastText, idId: flood.patches[0]?.op === 'add' }),
      );
      const tasks = longestTasks(await harness.browser.stopTracing());
      if (harness.errors.length > 0 || result.resyncs > 0) {
        throw new Error(`webview errors: ${harness.errors.join(' | ')}; resyncs: ${result.resyncs}`);
      }
      rows.push({
        id: flood.id,
        name: `Webview: longest main-thread task while ${floodCount.toLocaleString('en-US')} patch messages flood a ${count.toLocaleString('en-US')}-item run (${flood.what}; ${PER_TASK} per turn)`,
        value: tasks.flood.thread,
        unit: 'ms',
        baseline: { label: 'the same page idle as long', value: tasks.idle.thread, unit: 'ms' },
        target: `≤ ${TARGET_MS} ms`,
        met: tasks.flood.thread <= TARGET_MS,
        note:
          `thread time (trace RunTask tdur); wall: longest task ${tasks.flood.wall.toFixed(0)} ms (idle ${tasks.idle.wall.toFixed(0)} ms); ` +
          `Chromium longtask entries: ${result.flood.count}, longest ${result.flood.longest.toFixed(0)} ms (idle: ${result.idle.count}); flood painted in ${result.ms.toFixed(0)} ms`,
      });
    }
  } finally {
    await harness.close();
  }
  return rows;
}
