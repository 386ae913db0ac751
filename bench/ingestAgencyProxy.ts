/**
 * Ingest, AgencyProxy: 200k recorded event frames, length-prefixed and cut into 64 KiB reads, through the client's
 * whole read path — decoder (UTF-8 + JSON.parse) → zod (`parseServerFrame`) → `mapAgencyProxyEvent` → RunStore
 * dispatch (reducer + transcript patches), as `AgencyProxyDriver.fold` does — against bare `JSON.parse` of the same
 * payloads (UTF-8 bytes → string → JSON.parse, frame by frame). Target: at least half of JSON.parse's throughput.
 */
import { mapAgencyProxyEvent } from '../extension/drivers/agencyProxy/eventMapping';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import { parseServerFrame } from '../extension/protocol/agencyProxy';
import { LengthPrefixedDecoder } from '../extension/transport/lengthPrefixed';
import type { BenchRow } from './benchKit';
import { sideBySide } from './benchKit';
import { BENCH_RUN_ID, agencyProxyFrames, encodeAsReads } from './agencyProxyStream';

const CONNECTION = 'agency-proxy:bench';

/** The read path of one connection, from socket bytes to the store. Returns the store (for checks). */
export function ingestAgencyProxy(reads: readonly Buffer[]): RunStore {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'agency-proxy' } });
  store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId: BENCH_RUN_ID, fields: { title: 'bench', state: 'running' } });
  const key = runKeyOf(CONNECTION, BENCH_RUN_ID);
  const decoder = new LengthPrefixedDecoder();
  for (const read of reads) {
    for (const result of decoder.push(read)) {
      if (result.type !== 'message') {
        throw new Error(`decoder: ${result.type}`);
      }
      const parsed = parseServerFrame(result.value);
      if (!parsed.ok || parsed.frame.kind !== 'event') {
        throw new Error('not an event frame');
      }
      const frame = parsed.frame;
      const mapped = mapAgencyProxyEvent(frame.event);
      const events = mapped.events.length > 0 ? mapped.events : [{ kind: 'messageBoundary' } as const];
      for (let i = 0; i < events.length; i++) {
        store.dispatch({ type: 'runEvent', runKey: key, ...(i === 0 ? { sequence: frame.sequence } : {}), event: events[i]! });
      }
      if (mapped.fields) {
        store.dispatch({ type: 'runUpserted', connectionId: CONNECTION, runId: frame.run_id, fields: mapped.fields });
      }
    }
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
      target: '≥ 0.5× JSON.parse',
      met: ratio >= 0.5,
      note: `${itemCount.toLocaleString('en-US')} transcript items; CPU ${subjectMs.toFixed(0)} ms vs ${baselineMs.toFixed(0)} ms`,
    },
  ];
}
