/**
 * Two editor windows of one machine on one reference AgencyProxy daemon, sharing one storage directory (issue #25
 * §1): each window is a driver with its own store and window id, in this process; what the tests read of the shared
 * journal files. Used by twoWindows.test.ts and takeoverGap.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import { safeFileName } from '../../../../extension/storage/runJournal';
import { driverSetup, quietLog, until } from '../driverKit';
import type { DaemonFixture } from './agencyProxyKit';

const NAME = 'shared';
export const connectionId = `agency-proxy:${NAME}`;

/** `ack_events` each window sent, per run (every instance of a window, across its reloads). */
export type AckBook = Map<string, number>;

/** One editor window (a new extension host after each reload: same window id, same storage, new driver). */
export async function openWindow(fx: DaemonFixture, storage: string, windowId: string, acks: AckBook) {
  const { store, ctx } = driverSetup({ name: NAME, protocol: 'agency-proxy', socketPath: fx.socketPath }, storage, {
    log: quietLog,
    tap: (dir, frame) => {
      const f = frame as { type?: string; run_id?: string };
      if (dir === 'out' && f.type === 'ack_events' && f.run_id) {
        acks.set(f.run_id, (acks.get(f.run_id) ?? 0) + 1);
      }
    },
  });
  const driver = new AgencyProxyDriver({ ...ctx, windowId });
  await driver.connect();
  await until(`${windowId} connected`, () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  return { store, driver, windowId };
}
export type Window = Awaited<ReturnType<typeof openWindow>>;

export const runOf = (w: Window, runId: string) => w.store.state.runs.get(runKeyOf(connectionId, runId));
export const latest = (fx: DaemonFixture, runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)?.latestSequence ?? -1;
export const acked = (fx: DaemonFixture, runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)?.acknowledgedSequence ?? -1;

/** A window reload: flush, dispose (its leases are released), then the same window comes back. */
export async function reload(fx: DaemonFixture, storage: string, w: Window, acks: AckBook): Promise<Window> {
  await w.driver.flushStorage();
  await w.driver.dispose();
  return openWindow(fx, storage, w.windowId, acks);
}

export const journalDir = (storage: string): string => path.join(storage, 'transcripts', safeFileName(connectionId));

/** The daemon sequences a run's journal file holds, in file order (a folded record stands for each of its own). */
export function journaledSequences(storage: string, runId: string): number[] {
  const text = readFileSync(path.join(journalDir(storage), `${safeFileName(runId)}.jsonl`), 'utf8');
  const out: number[] = [];
  for (const line of text.split('\n').filter((l) => l !== '')) {
    const record = JSON.parse(line) as { q?: number; s?: number };
    if (typeof record.q === 'number') {
      for (let q = record.s ?? record.q; q <= record.q; q++) {
        out.push(q);
      }
    }
  }
  return out;
}

export function assertOnceInOrder(sequences: readonly number[], through: number, what: string): void {
  assert.deepEqual(sequences, Array.from({ length: through }, (_, i) => i + 1), `${what}: every sequence once, in order`);
}

/** The run's closing notices ("Run completed", …) as the window shows them. */
export function closingNotices(store: RunStore, runId: string): number {
  return (store.transcript(runKeyOf(connectionId, runId))?.snapshot() ?? []).filter((item) => item.kind === 'notice' && 'state' in item && item.state === 'completed').length;
}
