/**
 * The extension host never stalls (issue #25 §3): the longest main-thread stall (bench/stallProbe.ts) while the host
 * does each of the heavy things a long run asks of it, against the same probe on an idle host in the same process.
 * The code is the extension's own, driven directly (no VS Code): a run of 100,000 items in a RunStore,
 *
 * - its checkpoint written (drivers/kit/runCheckpoints.ts, a real RunJournal and checkpoint file in a temp dir),
 * - restored into a fresh store,
 * - Find over it (the surface's answer to a `find` request, with no hit: the whole run is searched),
 * - opened and scrolled (the snapshot the surface posts, then range requests across the run, each schema-checked as
 *   the surface does before posting),
 *
 * A 4 MiB change set arriving, shown and applied has its own group (bench/changeSetStalls.ts, `stalls.changeSet`).
 *
 * Streaming into a 100k-item run and a reload with three of them are measured with the real extension, where they
 * happen: bench/reloadThreeRuns.ts. Target: no stall over 50 ms; the idle host's figure is each row's baseline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../extension/drivers/kit/clock';
import { MIN_RECORDS, RunCheckpoints } from '../extension/drivers/kit/runCheckpoints';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import { tailWindow } from '../extension/model/transcriptWindow';
import { hostToWebviewSchema } from '../extension/protocol/webviewMessages';
import type { HostToWebview } from '../extension/protocol/webviewMessages';
import { RunJournal } from '../extension/storage/runJournal';
import { answerViewRequest } from '../extension/ui/transcript/viewRequests';
import type { BenchRow } from './benchKit';
import { collectGarbage } from './benchKit';
import { idleStalls, stallRow, stallsDuring } from './stallProbe';
import { CONNECTION, fill } from './streamingCost';

const RUN = 'big';
const RUN_KEY = runKeyOf(CONNECTION, RUN);

interface Setup {
  readonly dir: string;
  readonly store: RunStore;
  readonly journal: RunJournal;
  readonly items: number;
}

let setup: Setup | undefined;

async function createSetup(items: number): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-stall-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'agency-proxy' } });
  fill(store, RUN, items, { open: false });
  store.dispatch({ type: 'runEvent', runKey: RUN_KEY, sequence: store.state.runs.get(RUN_KEY)!.lastSequence + 1, event: { kind: 'messageBoundary' } });
  // A journal the checkpoint stands for (its records are not what the store holds: only its bytes are checked).
  const journal = new RunJournal(dir);
  await Promise.all(Array.from({ length: 10 }, (_, i) => journal.append(RUN, { v: 2, e: { kind: 'textDelta', text: `line ${i}` } })));
  return { dir, store, journal, items };
}

function checkpointsOf(s: Setup, store: RunStore): RunCheckpoints {
  const checkpoints = new RunCheckpoints({
    source: store,
    journal: s.journal,
    dir: s.dir,
    connectionId: CONNECTION,
    timeouts: systemClock,
    now: () => Date.now(),
    warn: (message) => {
      throw new Error(`checkpoint warning: ${message}`);
    },
  });
  checkpoints.enable(undefined);
  return checkpoints;
}

function validated(message: HostToWebview): void {
  if (!hostToWebviewSchema.safeParse(message).success) {
    throw new Error(`a ${message.type} message does not validate`);
  }
}

export async function benchStalls(items = 100_000): Promise<BenchRow[]> {
  setup ??= await createSetup(items);
  const s = setup;
  const count = s.store.state.runs.get(RUN_KEY)!.itemCount;
  const transcript = s.store.transcript(RUN_KEY)!;
  collectGarbage();
  const idle = await idleStalls(500);

  collectGarbage();
  const writer = checkpointsOf(s, s.store);
  writer.note(RUN, MIN_RECORDS);
  const write = await stallsDuring(() => writer.writeDue(true));
  await writer.close();

  collectGarbage();
  const fresh = new RunStore();
  fresh.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'agency-proxy' } });
  const reader = checkpointsOf(s, fresh);
  let restoredFrom = 0;
  const restore = await stallsDuring(async () => {
    restoredFrom = await reader.restore(RUN);
  });
  if (restoredFrom === 0 || fresh.state.runs.get(RUN_KEY)?.itemCount !== count) {
    throw new Error('the checkpoint was not restored');
  }
  await reader.close();

  collectGarbage();
  let hits = -1;
  const find = await stallsDuring(async () => {
    const answer = await answerViewRequest({ type: 'find', runKey: RUN_KEY, query: 'no such words in this run', matchCase: false }, RUN_KEY, transcript);
    hits = answer?.type === 'findResult' ? answer.hits.length : -1;
  });
  if (hits !== 0) {
    throw new Error(`find found ${hits}`);
  }

  collectGarbage();
  const ranges = 40;
  const openScroll = await stallsDuring(async () => {
    const window = tailWindow(transcript);
    validated({ type: 'snapshot', run: null, items: window.items, start: window.start, total: window.total, kinds: window.kinds, seq: window.seq });
    for (let i = 0; i < ranges; i++) {
      // One request per turn of the loop, as they come from the view while the user drags the scrollbar.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const start = Math.floor((count * i) / ranges);
      const answer = await answerViewRequest({ type: 'range', runKey: RUN_KEY, start, end: start + 200 }, RUN_KEY, transcript);
      validated(answer!);
    }
  });

  const n = count.toLocaleString('en-US');
  return [
    {
      id: 'stalls.idle',
      name: 'Idle host: the most the main thread ran between two probe ticks in 500 ms (the baseline of every stall row)',
      value: idle.stallMs,
      unit: 'ms',
      met: null,
      note: `wall: longest gap ${idle.maxGapMs.toFixed(0)} ms (of it ${idle.waitInMaxGapMs.toFixed(0)} ms waiting for a CPU); monitorEventLoopDelay max ${idle.loopDelayMaxMs.toFixed(1)} ms; probe: a 1 ms timer chain (bench/stallProbe.ts)`,
    },
    stallRow('stalls.checkpointWrite', `Stall while the checkpoint of a ${n}-item run is written`, write, idle, 'serialise, digest, write, rename'),
    stallRow('stalls.checkpointRestore', `Stall while the checkpoint of a ${n}-item run is restored`, restore, idle, 'read, digest check, parse, shape checks, install in the store'),
    stallRow('stalls.find', `Stall during Find over ${n} items (no hit: all searched)`, find, idle, 'the surface\'s answer to a find request'),
    stallRow('stalls.openScroll', `Stall opening a ${n}-item run and scrolling through it`, openScroll, idle, `snapshot + ${ranges} range requests, each schema-checked`),
  ];
}
