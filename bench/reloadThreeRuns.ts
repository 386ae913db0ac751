/**
 * Window reload (issue #12): three interactive AgencyProxy runs of ~100,000 transcript items each, held by the
 * reference daemon (a child process, `--chunk-ms 1`, prompt `steps:N`), started and journaled by the real extension
 * as it does any run; then the extension is deactivated and a fresh instance activated on the same storage and
 * mementos (what a reload does), with the Transcript view resolved on the real webview bundle in headless Chromium
 * in a process of its own (bench/webviewPage.ts). Measured, wall clock: from `activate()` until every run is back in
 * the store and re-attached (the connection is `connected` only after the journal replay and the attach of every
 * run: BaseDriver.connect, AgencyProxyAttachments.reconcile), the selected run — restored from the workspace state —
 * has been sent to the view, and its last item is painted. The page's `ready` is held until the runs are back (see
 * below). Runs come back from their checkpoints and the journal lines after them (drivers/kit/runCheckpoints.ts;
 * written when a run goes quiet and at deactivate, whose time the note shows). Set-up (streaming the runs once, then
 * an answer into the shown one: bench/reloadThreeRunsSetup.ts) happens on the first call and is not timed; each call
 * times one reload. Target: < 2 s; the host's longest stall in each (its own rows) ≤ 50 ms.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunStore } from '../extension/model/runStore';
import { tailWindow } from '../extension/model/transcriptWindow';
import { hostToWebviewSchema } from '../extension/protocol/webviewMessages';
import type { HostToWebview } from '../extension/protocol/webviewMessages';
import type { BenchRow } from './benchKit';
import { cpuMs, now } from './benchKit';
import { BenchWebviewView } from './benchWebviewView';
import type { ReloadSetup } from './reloadThreeRunsSetup';
import { CONNECTION, createReloadSetup, onStore, when } from './reloadThreeRunsSetup';
import { idleStalls, StallProbe, stallRow } from './stallProbe';

let setup: Promise<ReloadSetup> | undefined;

/** MiB of the files under the extension's storage whose names end with `suffix` (journals, checkpoints). */
function mibOf(dir: string, suffix: string): string {
  const bytes = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  return (bytes / 1048576).toFixed(0);
}

/** What the surface builds for a snapshot of the run (its tail window and schema check), timed on its own. */
function snapshotCost(store: RunStore, runKey: string): number {
  const start = cpuMs();
  const window = tailWindow(store.transcript(runKey));
  const message = { type: 'snapshot', run: null, items: window.items, start: window.start, total: window.total, kinds: window.kinds, seq: window.seq };
  if (!hostToWebviewSchema.safeParse(message).success) {
    throw new Error('the snapshot does not validate');
  }
  return cpuMs() - start;
}

export async function benchReloadThreeRuns(itemsPerRun = 100_000): Promise<BenchRow[]> {
  setup ??= createReloadSetup(itemsPerRun);
  const s = await setup;
  // The window goes away: the old instance deactivates, its view is disposed (not timed).
  s.view?.dispose();
  const deactivateStart = now();
  await s.current.deactivate();
  const deactivateMs = now() - deactivateStart;
  s.extension.problems.length = 0;

  // Host → page in order, serialized for the page's process as VS Code serializes a post for the webview's.
  const viewWakers = new Set<() => void>();
  const view = new BenchWebviewView((message: HostToWebview) => {
    s.page.deliver(message);
    viewWakers.forEach((wake) => wake());
  });
  s.view = view;

  const idle = await idleStalls(500);
  const stalls = new StallProbe().start();
  const cpu0 = cpuMs();
  const t0 = now();
  const instance = await s.extension.activate();
  s.current = instance;
  const { store } = instance.hooks;
  const marks = { activated: now() - t0, replayed: Number.NaN, connected: Number.NaN, pageLoaded: Number.NaN, sent: Number.NaN, painted: Number.NaN };
  const stateWatch = store.onDidChange(() => {
    const kind = store.state.connections.get(CONNECTION)?.state.kind;
    if (Number.isNaN(marks.replayed) && kind !== undefined && kind !== 'idle') {
      marks.replayed = now() - t0;
    }
  });
  // VS Code resolves a visible view once the extension is active, and the fresh page loads meanwhile. Its `ready`
  // is held until the runs are back: a view ready during the replay is sent the selected run's whole replay as
  // patches, which the page does not get through at this size (see the report of issue #12); this figure is of a
  // view that finished loading after the replay.
  instance.transcriptView.resolveWebviewView(view.view);
  const held: unknown[] = [];
  s.fromPage = (message) => held.push(message);
  const pageLoaded = s.page.reload();

  const restored = (): boolean =>
    store.state.connections.get(CONNECTION)?.state.kind === 'connected' &&
    s.runKeys.every((key) => {
      const run = store.state.runs.get(key);
      const want = s.expected.get(key)!;
      return run !== undefined && run.itemCount === want.itemCount && run.lastSequence >= want.lastSequence;
    });
  await when('every run restored and re-attached', restored, onStore(store));
  marks.connected = now() - t0;
  const quiet = s.runKeys.filter((key) => store.state.runs.get(key)?.unloaded !== undefined).length;
  stateWatch.dispose();
  await pageLoaded;
  marks.pageLoaded = now() - t0;
  s.fromPage = (message) => view.receive(message);
  held.splice(0).forEach(s.fromPage);
  // The selected run may come back without its transcript (an idle run: drivers/kit/quietRuns.ts), which the view
  // then loads: read it again at every wake.
  const upToDate = (): boolean => {
    const shown = store.transcript(s.selected);
    return view.shownRun === s.selected && shown !== undefined && view.shownSeq === shown.seq;
  };
  await when('the selected run sent to the view', upToDate, (wake) => {
    viewWakers.add(wake);
    const d = store.onDidPatch(wake);
    return () => {
      viewWakers.delete(wake);
      d.dispose();
    };
  });
  marks.sent = now() - t0;
  const transcript = store.transcript(s.selected)!;
  const lastId = transcript.at(transcript.length - 1)!.id;
  const paint = await s.page.painted(lastId);
  marks.painted = now() - t0;
  const hostCpu = cpuMs() - cpu0;
  const reloadStall = stalls.stop();

  const problems = [...s.extension.problems, ...paint.errors];
  const lost = s.runKeys.filter((key) => store.state.runs.get(key)?.state === 'lost');
  if (problems.length > 0 || lost.length > 0) {
    throw new Error(`the reload was not clean: ${lost.length} run(s) lost; ${problems.join(' | ')}`);
  }
  const items = s.runKeys.reduce((n, key) => n + (store.state.runs.get(key)?.itemCount ?? 0), 0);
  const snapshotMs = snapshotCost(store, s.selected);
  const perRun = `${s.itemsPerRun.toLocaleString('en-US')}`;
  const streamingRows = s.streamingReported
    ? []
    : [
        stallRow('reload.streamingStall', `Stall while 3 runs of ${perRun} items stream in, are journaled and checkpointed (the set-up, once)`, s.streamingStall, idle, 'the real extension and reference daemon (--chunk-ms 1), until the checkpoints taken once the runs went quiet'),
        stallRow('reload.streamIntoStall', `Stall while an answer streams into a shown run of ${perRun} items (the set-up, once)`, s.streamIntoStall, idle, `${s.streamIntoDeltas.toLocaleString('en-US')} events (text deltas) folded, journaled and sent to the Transcript view as patches`),
      ];
  s.streamingReported = true;
  return [
    {
      id: 'reload.threeRuns',
      name: `Window reload with 3 runs of ${perRun} items → all re-attached and the selected one painted (journal replay, daemon attach; view ready after the replay; the selected run loaded by its view)`,
      value: marks.painted,
      unit: 'ms',
      target: '< 2 s',
      met: marks.painted < 2000,
      note:
        `journal replay ${marks.replayed.toFixed(0)} ms (run checkpoints ${mibOf(s.storageDir, '.ckpt')} MiB and the journal lines after them, of ${mibOf(s.storageDir, '.jsonl')} MiB; ` +
        `activate() itself ${marks.activated.toFixed(0)} ms; the deactivate before it ${deactivateMs.toFixed(0)} ms), ` +
        `re-attach ${(marks.connected - marks.replayed).toFixed(0)} ms, ` +
        `${marks.pageLoaded - marks.connected >= 1 ? `waiting for the page to load ${(marks.pageLoaded - marks.connected).toFixed(0)} ms, ` : ''}snapshot posted ${(marks.sent - Math.max(marks.connected, marks.pageLoaded)).toFixed(0)} ms ` +
        `(tail + schema check ${snapshotMs.toFixed(1)} ms CPU; ${view.messages} message, ${(paint.bytes / 1024).toFixed(0)} KiB), paint ${(marks.painted - marks.sent).toFixed(0)} ms; ` +
        `host CPU ${hostCpu.toFixed(0)} ms; ${items.toLocaleString('en-US')} items, ${quiet} of ${s.runKeys.length} runs back idle without their transcript (drivers/kit/quietRuns.ts); the page's ready held until the runs were back; ` +
        `extension modules already loaded (one process: a real reload also loads the bundle); set-up ${(s.setupMs / 1000).toFixed(0)} s`,
    },
    stallRow('reload.stall', `Stall during that reload (activate → the selected run painted)`, reloadStall, idle, 'the host: journal replay from checkpoints, attach, snapshot'),
    ...streamingRows,
  ];
}
