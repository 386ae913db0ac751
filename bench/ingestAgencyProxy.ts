/**
 * Ingest, AgencyProxy: 200k recorded event frames, length-prefixed and cut into 64 KiB reads, through the client's
 * whole read path — the framing's decoder as `StreamConnection` runs it (UTF-8 + JSON.parse) → zod
 * (`parseServerFrame`, as `AgencyProxyConnection` does) → the read's event frames into the driver's own
 * `AgencyProxyEventFolder` (mapping, activity and session books, the chunks of a read folded by the kit's
 * `StreamedChunks`) → the kit's door folding the inputs into the RunStore (reducer + transcript patches; the
 * journal's disk writes are left out) — against bare `JSON.parse` of the same payloads (UTF-8 bytes → string → JSON.parse, frame
 * by frame). Target: at least half of JSON.parse's throughput.
 */
import { AckTracker } from '../extension/drivers/agencyProxy/ackTracker';
import { AgencyProxyEventFolder } from '../extension/drivers/agencyProxy/agencyProxyEventFolder';
import { AgencyProxyLocalChanges } from '../extension/drivers/agencyProxy/agencyProxyLocalChanges';
import type { AgencyProxyRunParts } from '../extension/drivers/agencyProxy/agencyProxyRunParts';
import type { AgencyProxyCursor } from '../extension/drivers/agencyProxy/agencyProxyRecords';
import { RunActivityBook } from '../extension/drivers/agencyProxy/runActivityBook';
import { RunOwnership } from '../extension/drivers/agencyProxy/runOwnership';
import { DriverRuns } from '../extension/drivers/kit/driverRuns';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import { parseServerFrame } from '../extension/protocol/agencyProxy';
import type { EventFrame } from '../extension/protocol/agencyProxy';
import { lengthPrefixedFraming } from '../extension/transport/lengthPrefixedFraming';
import type { BenchRow } from './benchKit';
import { sideBySide } from './benchKit';
import { TurnCheckpoints } from '../extension/drivers/kit/turnCheckpoints';
import { BENCH_RUN_ID, agencyProxyFrames, encodeAsReads } from './agencyProxyStream';

const CONNECTION = 'agency-proxy:bench';

/** The driver's folder over a store holding the bench run, with its books; the journal only dispatches. */
export function benchFolder(): { readonly store: RunStore; readonly folder: AgencyProxyEventFolder } {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId: BENCH_RUN_ID, fields: { title: 'bench', state: 'running' } });
  const log = { info: () => undefined, warn: () => undefined, error: (message: string) => { throw new Error(message); } };
  // The door of a driver that does not journal: every input folded as a journaling driver folds it, no disk writes.
  const runs = new DriverRuns<AgencyProxyCursor>({ store, connectionId: CONNECTION, storageDir: '/nonexistent', log }, () => 'not journaled');
  const parts: AgencyProxyRunParts = {
    runs,
    log,
    acks: new AckTracker(() => undefined, () => undefined),
    ownership: new RunOwnership(),
    activity: new RunActivityBook(),
    localChanges: new AgencyProxyLocalChanges(runs, log, () => Promise.resolve()),
    // The bench run has no workspace folder: no checkpoint is taken.
    checkpoints: new TurnCheckpoints({ storageDir: '/nonexistent', connectionId: CONNECTION, log }, runs),
    storeEvent: (runId, _sequence, inputs) => void runs.record(runId, inputs),
    saveRun: () => Promise.resolve(),
    recordLocal: () => Promise.resolve(),
    expireApprovals: () => Promise.resolve(),
  };
  return { store, folder: new AgencyProxyEventFolder(parts, () => Promise.resolve()) };
}

/** The read path of one connection, from socket bytes to the store. Returns the store (for checks). */
export function ingestAgencyProxy(reads: readonly Buffer[]): RunStore {
  const { store, folder } = benchFolder();
  const decoder = lengthPrefixedFraming({ ignorePingPong: true }).createDecoder();
  for (const read of reads) {
    // One socket read: its event frames go to the folder together, as `AgencyProxyConnection.onEvents` hands them.
    const frames: EventFrame[] = [];
    for (const result of decoder.push(read)) {
      if (result.kind !== 'frame') {
        throw new Error(`decoder: ${result.kind}`);
      }
      const parsed = parseServerFrame(result.value);
      if (!parsed.ok || parsed.frame.kind !== 'event') {
        throw new Error('not an event frame');
      }
      frames.push(parsed.frame);
    }
    folder.foldRead(frames);
  }
  return store;
}

export function benchIngestAgencyProxy(count = 200_000): BenchRow[] {
  const frames = agencyProxyFrames(count);
  const reads = encodeAsReads(frames);
  // The baseline gets what the decoder gets: each frame's UTF-8 JSON payload.
  const payloads = frames.map((f) => Buffer.from(JSON.stringify(f), 'utf8'));
  const bytes = payloads.reduce((n, p) => n + p.length, 0);
  // Only numbers survive a repetition: a retained store would make the next one pay for a bigger heap.
  let lastSequence = 0;
  let itemCount = 0;
  const { subjectMs, baselineMs } = sideBySide(
    () => {
      const run = ingestAgencyProxy(reads).state.runs.get(runKeyOf(CONNECTION, BENCH_RUN_ID))!;
      lastSequence = run.lastSequence;
      itemCount = run.itemCount;
    },
    () => {
      for (const payload of payloads) {
        JSON.parse(payload.toString('utf8'));
      }
    },
  );
  if (lastSequence !== count) {
    throw new Error(`ingest lost events: lastSequence ${lastSequence} of ${count}`);
  }
  const perSecond = (ms: number): number => count / (ms / 1000);
  const ratio = baselineMs / subjectMs;
  return [
    {
      id: 'ingest.agencyProxy',
      name: `Ingest AgencyProxy (${count.toLocaleString('en-US')} frames, ${(bytes / 1048576).toFixed(1)} MiB): decode+parse+zod+map+store`,
      value: perSecond(subjectMs),
      unit: 'frames/s',
      baseline: { label: 'JSON.parse of each payload', value: perSecond(baselineMs), unit: 'frames/s' },
      ratio,
      // A context row since issue #25 (its target of 0.5× retired): what is left is V8's parse and GC of text the
      // extension keeps, and no user waits on it; the effort went to stalls and history.
      met: null,
      note: `context, no target; ${itemCount.toLocaleString('en-US')} transcript items; CPU ${subjectMs.toFixed(0)} ms vs ${baselineMs.toFixed(0)} ms`,
    },
  ];
}
