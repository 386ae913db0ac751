/**
 * The set-up of bench/reloadThreeRuns.ts, once per group process (not timed): the reference AgencyProxy daemon as a
 * child process, the real extension under the bench stub with a Transcript view attached, three interactive runs of
 * ~100,000 items each streamed in and checkpointed, then one more answer streamed into the last of them (a 100k-item
 * run). The host's longest stall is probed over both streams (bench/stallProbe.ts).
 *
 * Robust on a loaded machine: every wait is for a state (the store, the view, the checkpoint files), never a fixed
 * delay. The daemon runs with `--chunk-ms 1`: it sleeps 1 ms between bursts of 50 tool calls, as an agent's events
 * reach a socket (with 0 it produced a run's 200,000 events in one turn of its loop). The runs are started one after
 * the other, each once the one before has streamed in: they share one socket, so a `start_run` sent while a run
 * streams is answered only after everything queued before the answer — on this 2-core machine under load, later than
 * the client's 15 s request timeout ("AgencyProxy did not answer start_run within 15000 ms").
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStore } from '../extension/model/runStore';
import { spawnAgencyProxy } from '../test/unit/chaos/agencyProxyProcess';
import { now } from './benchKit';
import { BenchWebviewView } from './benchWebviewView';
import type { StallSample } from './stallProbe';
import { StallProbe } from './stallProbe';
import type { ExtensionInstance } from './stubbedExtension';
import { StubbedExtension } from './stubbedExtension';
import { WebviewPage } from './webviewPage';

export const CONNECTION = 'agency-proxy:AgencyProxy';
const TIMEOUT_MS = 900_000;
/** The streamed answer's length: ~5,000 text deltas (3–9 characters each) into the 100k-item run. */
const ANSWER_CHARS = 30_000;
/** How the reference daemon's reply to a message ends (test/fixtures/agencyProxy/scriptedProvider.ts). */
const REPLY_END = 'here is my follow-up answer.';

export interface Expected {
  readonly itemCount: number;
  readonly lastSequence: number;
}

export interface ReloadSetup {
  readonly extension: StubbedExtension;
  readonly storageDir: string;
  readonly page: WebviewPage;
  readonly runKeys: readonly string[];
  readonly selected: string;
  readonly expected: ReadonlyMap<string, Expected>;
  readonly itemsPerRun: number;
  readonly setupMs: number;
  /** The stall probe's figure while the three runs streamed in and were checkpointed. */
  readonly streamingStall: StallSample;
  /** The same while one answer streamed into the (shown) 100k-item run: its deltas and the view's patches. */
  readonly streamIntoStall: StallSample;
  readonly streamIntoDeltas: number;
  /** Whether the first call reported the set-up's rows. */
  streamingReported: boolean;
  current: ExtensionInstance;
  view: BenchWebviewView | undefined;
  /** Where the page's posts go (the current view, or held until it may have them). */
  fromPage: (message: unknown) => void;
}

/** Resolves once `check` holds, checked on every store change and view post (no polling, no sleeps). */
export function when(what: string, check: () => boolean, subscribe: (wake: () => void) => () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let unsubscribe = (): void => undefined;
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`reload bench timed out waiting for ${what}`));
    }, TIMEOUT_MS);
    const wake = (): void => {
      if (check()) {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    };
    unsubscribe = subscribe(wake);
    wake();
  });
}

export const onStore = (store: RunStore) => (wake: () => void) => {
  const d = store.onDidChange(wake);
  return () => d.dispose();
};

export async function createReloadSetup(itemsPerRun: number): Promise<ReloadSetup> {
  const started = now();
  const dir = mkdtempSync(join(tmpdir(), 'sb-rl-'));
  const socketPath = join(dir, 'd.sock');
  const daemon = await spawnAgencyProxy(['--socket', socketPath, '--chunk-ms', '1']);
  const child: ChildProcess = daemon.child;
  process.once('exit', () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  await daemon.listening;
  const storageDir = join(dir, 'storage');
  const extension = new StubbedExtension(storageDir, {
    connections: [{ name: 'AgencyProxy', protocol: 'agency-proxy', socketPath }],
    autoConnect: true,
  });
  const first = await extension.activate();
  const { store, connections, selection } = first.hooks;
  // The first window's Transcript view is open (what it is sent is only counted): the host builds the shown run's
  // snapshot and patches as it would for a real page.
  const firstView = new BenchWebviewView(() => undefined);
  first.transcriptView.resolveWebviewView(firstView.view);
  firstView.receive({ type: 'ready' });
  await when('the first connection', () => store.state.connections.get(CONNECTION)?.state.kind === 'connected', onStore(store));
  const driver = connections.driver(CONNECTION);
  if (!driver?.startRun || !driver.sendMessage) {
    throw new Error('no AgencyProxy driver');
  }
  // The host's longest stall while the runs stream in and are checkpointed (every EVERY_RECORDS records, and once
  // they have gone quiet: until then the probe watches).
  const probe = new StallProbe().start();
  // Started by the editor (owned: acknowledged once journaled), interactive: they stay open, so a reload re-attaches.
  // One after the other, each once the one before has streamed in: all runs share one socket, in order, so a
  // `start_run` sent while another run streams is answered only after the host has read every event queued before
  // the answer — 200,000 of them, longer than the request's 15 s timeout on a loaded machine.
  const settled = (key: string): boolean => {
    const run = store.state.runs.get(key);
    return run !== undefined && run.itemCount >= itemsPerRun && run.state === 'idle';
  };
  const runKeys: string[] = [];
  const streamStart = Date.now();
  for (let i = 1; i <= 3; i++) {
    const runId = await driver.startRun({ prompt: `Reload bench run ${i}: steps:${itemsPerRun} notools`, workspaceRoots: [], approvals: false, interactive: true });
    const key = `${CONNECTION}::${runId}`;
    runKeys.push(key);
    await when(`streamed run ${i}`, () => settled(key), onStore(store));
  }
  await checkpointedSince(storageDir, runKeys.length, streamStart);
  const streamingStall = probe.stop();

  // The run the user looked at last (the workspace state remembers it): the last started, the last replayed. An
  // answer streams into it while it is shown: ~10,000 deltas into a 100k-item run.
  const selected = runKeys[runKeys.length - 1]!;
  selection.select(selected);
  const before = store.state.runs.get(selected)!;
  const deltasBefore = firstView.messages;
  const transcript = store.transcript(selected)!;
  const answerDone = (): boolean => {
    const last = Array.from({ length: 4 }, (_, i) => transcript.at(transcript.length - 1 - i));
    return store.state.runs.get(selected)?.state === 'idle' && last.some((item) => item?.kind === 'text' && item.text.endsWith(REPLY_END));
  };
  const intoProbe = new StallProbe().start();
  await driver.sendMessage(selected.slice(`${CONNECTION}::`.length), `Stream into the big run: ${'word '.repeat(ANSWER_CHARS / 5)}`);
  await when('the answer streamed into the 100k-item run', answerDone, onStore(store));
  const streamIntoStall = intoProbe.stop();
  const streamIntoDeltas = store.state.runs.get(selected)!.lastSequence - before.lastSequence;
  if (firstView.messages === deltasBefore || firstView.shownRun !== selected) {
    throw new Error('the view was sent nothing while the answer streamed into the shown run');
  }

  const expected = new Map(runKeys.map((key) => [key, { itemCount: store.state.runs.get(key)!.itemCount, lastSequence: store.state.runs.get(key)!.lastSequence }]));
  const page = await WebviewPage.open();
  const state: ReloadSetup = {
    extension,
    storageDir,
    page,
    runKeys,
    selected,
    expected,
    itemsPerRun,
    setupMs: now() - started,
    streamingStall,
    streamIntoStall,
    streamIntoDeltas,
    streamingReported: false,
    current: first,
    view: firstView,
    fromPage: () => undefined,
  };
  page.onPost = (message) => state.fromPage(message);
  return state;
}

/**
 * Resolves once `count` checkpoint files were written at or after `since` (the runs went quiet: QUIET_MS, then the
 * write). Checked every 100 ms: the bench has no hook into the extension's timers.
 */
async function checkpointedSince(dir: string, count: number, since: number): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const fresh = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ckpt') && statSync(join(dir, name)).mtimeMs >= since - 5);
    if (fresh.length >= count) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error('reload bench timed out waiting for the checkpoints of the streamed runs');
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 100));
  }
}
