/**
 * History that costs nothing until it is opened (issue #25 §2): the real extension (bench/stubbedExtension.ts)
 * activated on a global storage holding N finished AgencyProxy runs of RECORDS journal records each, as the extension
 * leaves them — journals, the run index with each run's summary, and (for the first figure) checkpoints. Timed, wall
 * clock: from `activate()` until the board and the Connections tree have what they show — the connection's journal
 * replay is over (the driver starts connecting only after it: BaseDriver.connect; the profile's socket answers nobody,
 * so no daemon work is timed), and the model holds every unfinished run, the newest page of finished ones
 * (drivers/kit/olderRuns.ts: twenty per connection, as many as the board's Done group shows) and the number of the
 * others, which the "N older runs…" rows count and load on demand. It is not "every stored run in the model": the
 * others stay in the run index until a row, a search or their key asks for them (the note says how many runs the
 * model held after the open). The rendering of the two views is not timed (the board's projection is debounced).
 * N = 1,000 against N = 10, side by side in one process; the target is the ratio (≤ 1.2×), with and without
 * checkpoints, and the extension host's heap after GC with 1,000 stored runs against 10.
 *
 * Set-up (untimed, once per process): each run's records are recorded through the kit's door (DriverRuns, one batch
 * per run), its index entry saved with its summary and the door closed (which writes the checkpoints), as a driver does;
 * the fixtures without checkpoints are copies of those without the `.ckpt` files. A last open with the large history
 * is watched by the stall probe (the longest main-thread stall, bench/stallProbe.ts).
 */
import { cpSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { DriverRuns } from '../extension/drivers/kit/driverRuns';
import { OLDER_PAGE } from '../extension/drivers/kit/olderRuns';
import type { RunInput } from '../extension/drivers/kit/journalRecords';
import { RunStore } from '../extension/model/runStore';
import { safeFileName } from '../extension/storage/runJournal';
import type { BenchRow } from './benchKit';
import { collectGarbage, now, prng, prose } from './benchKit';
import { idleStalls, stallRow, stallsDuring, ThreadClock } from './stallProbe';
import { StubbedExtension } from './stubbedExtension';

const CONNECTION = 'agency-proxy:AgencyProxy';
const RECORDS = 2_000;
/**
 * Opens of each storage per process, interleaved. An open takes 4–8 ms, and single opens range from 4 to 17 ms (GC,
 * the file system thread pool, descheduling); with three rounds (until session 15) a run's ratios spread 0.97–1.66×.
 */
const ROUNDS = 25;
/** A quiet host before each open (bench/historyOpen.ts `open`). */
const SETTLE_MS = 50;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** The storage directories made, removed when the group's process exits. */
const made: string[] = [];
process.once('exit', () => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A storage directory with `runs` finished runs of `records` records each (see the file comment). */
async function storedRuns(runs: number, records: number): Promise<string> {
  const storageDir = mkdtempSync(join(tmpdir(), 'bench-history-'));
  made.push(storageDir);
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'AgencyProxy', protocol: 'agency-proxy' } });
  const door = new DriverRuns({ store, connectionId: CONNECTION, storageDir, log: quiet }, () => ({ cursor: z.never(), books: 'none' }));
  // The door checkpoints and keeps summaries once it knows how its runs come back (an empty replay).
  await door.replay({ open: () => true, state: 'as indexed', lazy: true });
  const random = prng(25);
  for (let r = 0; r < runs; r++) {
    const runId = `run-${r}`;
    await door.fields(runId, { title: `Stored run ${r}`, state: 'running', createdAt: Date.now() - (runs - r) * 1000 });
    const inputs: RunInput[] = [];
    for (let i = 1; i <= records; i++) {
      // Prose streamed in deltas, a tool call and its result now and then: the mix a run's journal holds.
      if (i % 50 === 0) {
        inputs.push({ sequence: i, event: { kind: 'toolResult', callId: `t${i}`, ok: true, output: prose(random, 120) } });
      } else if (i % 50 === 49) {
        inputs.push({ sequence: i, event: { kind: 'toolCall', callId: `t${i + 1}`, name: 'read_file', input: { path: `src/file${i}.ts` } } });
      } else {
        inputs.push({ sequence: i, event: { kind: 'textDelta', text: prose(random, 60) } });
      }
    }
    await door.record(runId, inputs);
    await door.fields(runId, { state: 'completed' });
    await door.saveRun(runId);
  }
  await door.close();
  return storageDir;
}

/** A copy of `storageDir` without its checkpoints (what an upgrade, or a checkpoint format change, leaves). */
function withoutCheckpoints(storageDir: string): string {
  const bare = mkdtempSync(join(tmpdir(), 'bench-history-'));
  made.push(bare);
  cpSync(storageDir, bare, { recursive: true, filter: (source) => !source.endsWith('.ckpt') });
  const dir = join(bare, 'transcripts', safeFileName(CONNECTION));
  if (readdirSync(dir).some((name) => name.endsWith('.ckpt'))) {
    throw new Error('the copy kept checkpoints');
  }
  return bare;
}

function heapMb(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed / 1048576;
}

/**
 * One extension home per process (its modules hold the first stub's `vscode`): each open moves a fixture into its
 * storage directory and back afterwards (a rename).
 */
let home: { extension: StubbedExtension; storageDir: string } | undefined;

/** Activates the extension on `fixture`; the time until its runs are back, and the heap then. */
async function open(fixture: string, runs: number, weigh = true): Promise<Opened> {
  if (!home) {
    const root = mkdtempSync(join(tmpdir(), 'bench-history-home-'));
    made.push(root);
    // A socket nobody listens on: the driver replays its journal, then fails to connect and retries later.
    const storageDir = join(root, 'storage');
    home = { storageDir, extension: new StubbedExtension(storageDir, {
      connections: [{ name: 'AgencyProxy', protocol: 'agency-proxy', socketPath: join(root, 'none.sock') }],
      // Every stored run on the board (no retention): the worst case of an open.
      'history.keepRuns': 0,
      'history.keepDays': 0,
    }) };
  }
  const { extension, storageDir } = home;
  renameSync(fixture, storageDir);
  // What the last instance left running (its watchers closing, its timers) does not land in this open's time.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  try {
    return await openHome(extension, runs, weigh);
  } finally {
    renameSync(storageDir, fixture);
  }
}

/** `weigh`: the heap after the open, after two forced GCs — a stall of the bench's own, left out of the stall probe's open. */
async function openHome(extension: StubbedExtension, runs: number, weigh: boolean): Promise<Opened> {
  const clock = new ThreadClock();
  const [ranBefore] = clock.read();
  const started = now();
  const instance = await extension.activate();
  const { store } = instance.hooks;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${runs} stored runs did not come back`)), 600_000);
    // What the board and the tree show: the newest page in the model, the rest counted (every run when fewer).
    const page = Math.min(runs, OLDER_PAGE);
    const check = (): void => {
      const connection = store.state.connections.get(CONNECTION);
      const kind = connection?.state.kind;
      if (store.state.runs.size >= page && (connection?.olderRuns ?? 0) === runs - page && kind !== undefined && kind !== 'idle') {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      }
    };
    const subscription = store.onDidChange(check);
    check();
  });
  const ms = now() - started;
  const cpuMs = clock.read()[0] - ranBefore;
  clock.close();
  const heap = weigh ? heapMb() : Number.NaN;
  const shown = store.state.runs.size;
  await instance.deactivate();
  return { ms, cpuMs, heapMb: heap, shown };
}

interface Opened {
  readonly ms: number;
  /** What the main thread ran meanwhile (its schedstat): the open's own cost, without the waits of a loaded machine. */
  readonly cpuMs: number;
  readonly heapMb: number;
  readonly shown: number;
}

/** The median open by time; the heap is the median heap. */
function medianOpen(opened: readonly Opened[]): Opened {
  const byTime = [...opened].sort((a, b) => a.ms - b.ms);
  const byHeap = [...opened].sort((a, b) => a.heapMb - b.heapMb);
  const byCpu = [...opened].sort((a, b) => a.cpuMs - b.cpuMs);
  const middle = Math.floor(opened.length / 2);
  return { ms: byTime[middle]!.ms, cpuMs: byCpu[middle]!.cpuMs, heapMb: byHeap[middle]!.heapMb, shown: byTime[middle]!.shown };
}

let fixtures: Promise<{ small: string; large: string; smallBare: string; largeBare: string }> | undefined;

export async function benchHistoryOpen(large = 1_000, small = 10, records = RECORDS): Promise<BenchRow[]> {
  fixtures ??= (async () => {
    const smallDir = await storedRuns(small, records);
    const largeDir = await storedRuns(large, records);
    return { small: smallDir, large: largeDir, smallBare: withoutCheckpoints(smallDir), largeBare: withoutCheckpoints(largeDir) };
  })();
  const dirs = await fixtures;
  await open(dirs.small, small); // the extension's modules load on the first activation: not timed
  // Interleaved rounds, the median of each: a ratio of two opens measured under the same load.
  const rounds = { smallOpen: [] as Opened[], largeOpen: [] as Opened[], smallBare: [] as Opened[], largeBare: [] as Opened[] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.smallOpen.push(await open(dirs.small, small));
    rounds.largeOpen.push(await open(dirs.large, large));
    rounds.smallBare.push(await open(dirs.smallBare, small));
    rounds.largeBare.push(await open(dirs.largeBare, large));
  }
  // The longest main-thread stall of one more open with the large history, against the idle host (bench/stallProbe.ts).
  collectGarbage();
  const idle = await idleStalls(500);
  collectGarbage();
  const stall = await stallsDuring(() => open(dirs.large, large, false));
  const smallOpen = medianOpen(rounds.smallOpen);
  const largeOpen = medianOpen(rounds.largeOpen);
  const smallBare = medianOpen(rounds.smallBare);
  const largeBare = medianOpen(rounds.largeBare);
  const row = (id: string, what: string, a: Opened, b: Opened): BenchRow => ({
    id,
    name: `Open with ${large.toLocaleString('en-US')} stored finished runs of ${records.toLocaleString('en-US')} records vs ${small}, ${what}`,
    value: b.ms,
    unit: 'ms',
    baseline: { label: `${small} stored runs`, value: a.ms, unit: 'ms' },
    ratio: b.ms / a.ms,
    target: '≤ 1.2×',
    met: b.ms / a.ms <= 1.2,
    note: `${b.shown} and ${a.shown} runs in the model after the open (from their summaries; transcripts load when opened; the older runs are counted and load from the "older…" rows); the main thread ran ${b.cpuMs.toFixed(1)} ms and ${a.cpuMs.toFixed(1)} ms (${(b.cpuMs / a.cpuMs).toFixed(2)}×: the wall clock less the waits for a CPU of a loaded machine)`,
  });
  return [
    row('history.open', 'with checkpoints', smallOpen, largeOpen),
    row('history.openNoCheckpoints', 'without checkpoints', smallBare, largeBare),
    {
      id: 'history.heap',
      name: `Extension-host heap after opening ${large.toLocaleString('en-US')} stored runs vs ${small} (after GC)`,
      value: largeOpen.heapMb,
      unit: 'MB',
      baseline: { label: `${small} stored runs`, value: smallOpen.heapMb, unit: 'MB' },
      ratio: largeOpen.heapMb / smallOpen.heapMb,
      target: '≤ 1.2×',
      met: largeOpen.heapMb / smallOpen.heapMb <= 1.2,
      note: `+${(largeOpen.heapMb - smallOpen.heapMb).toFixed(1)} MB for ${large - small} more runs`,
    },
    stallRow('history.openStall', `Stall while the extension opens with ${large.toLocaleString('en-US')} stored finished runs`, stall, idle, 'activate, read the run index, the newest page shown from its summaries, the connect begins'),
  ];
}
