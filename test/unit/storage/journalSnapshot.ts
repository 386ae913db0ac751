/**
 * What a reload restores, as one JSON value: the model (runs with the reducer's bookkeeping, approvals, change sets,
 * transcripts) and the drivers' private books that replay rebuilds (ack cursors, activity, ownership, SCV leftovers,
 * A3S cursors and mapping state). The legacy-journal test compares it with what the 0.1.0 code restored from the
 * same files (`fixtures/journal-0.1.0/*.expected.json`), so a change in what comes back fails with a readable diff.
 *
 * The books are private fields of the drivers (or of the parts a driver class is split into): they are read here by
 * name, in one place per driver, so a rename or a move is a one-line fix and never a weaker assertion.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DriverContext } from '../../../extension/drivers/connectionManager';
import type { ConnectionProfile } from '../../../extension/drivers/driver';
import { RunStore } from '../../../extension/model/runStore';

/** A fixed clock: approval cards and runs created during a reload carry `now`, and the snapshot must not drift. */
export const FIXED_NOW = 1_700_000_000_000;

/** Maps become arrays of entries (insertion order kept: it is meaningful for open tools), Sets arrays. */
export function jsonSafe(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Map) {
        return [...v.entries()];
      }
      if (v instanceof Set) {
        return [...v.values()];
      }
      return v;
    }),
  );
}

const byKey = <T extends { key: string }>(items: Iterable<T>): T[] => [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** The model state and every transcript, JSON-safe and in a stable order. */
export function modelSnapshot(store: RunStore): unknown {
  const runs = byKey(store.state.runs.values());
  return jsonSafe({
    runs,
    approvals: byKey(store.state.approvals.values()),
    changeSets: [...store.state.changeSets.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
    transcripts: Object.fromEntries(runs.map((r) => [r.key, store.transcript(r.key)?.snapshot() ?? []])),
  });
}

/** A context like the extension's, on a fixed-clock store, with errors collected (a reload should log none). */
export function fixtureContext(profile: ConnectionProfile, storageDir: string, logs: string[] = []): DriverContext {
  const store = new RunStore(() => FIXED_NOW);
  const connectionId = `${profile.protocol}:${profile.name}`;
  store.dispatch({ type: 'connectionAdded', connection: { id: connectionId, name: profile.name, protocol: profile.protocol } });
  return {
    store,
    connectionId,
    profile,
    tap: () => undefined,
    storageDir,
    log: { info: () => undefined, warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) },
  };
}

/** A scratch copy of a stored fixture (a reload appends to its journal). */
export function copyOfFixture(fixtureDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'jfx-'));
  cpSync(fixtureDir, join(dir, 'storage'), { recursive: true });
  return join(dir, 'storage');
}

type Books = Record<string, unknown>;
const field = (owner: unknown, name: string): unknown => (owner as Record<string, unknown>)[name];

/** The AgencyProxy driver's books after a reload, per stored run (they live in its parts, agencyProxyRunParts.ts). */
export function agencyProxyBooks(driver: unknown, runIds: readonly string[]): Books {
  const parts = field(driver, 'parts');
  const acks = field(parts, 'acks') as { ackableThrough(runId: string): number };
  const ackBooks = field(acks, 'books') as Map<string, { durable: number; acked: number; approvalSeq: Map<string, number>; injected: number }>;
  const activity = field(parts, 'activity') as { present(runId: string, state: 'running'): string; isIdle(runId: string): boolean };
  const activityEntries = field(activity, 'runs') as Map<string, { activity: unknown; interactive: boolean }>;
  const ownership = field(parts, 'ownership') as { owns(runId: string): boolean; sessionOf(runId: string): string | undefined };
  const localRecords = field(field(parts, 'localChanges'), 'records') as Map<string, unknown>;
  return Object.fromEntries(
    runIds.map((runId) => {
      const book = ackBooks.get(runId);
      const entry = activityEntries.get(runId);
      return [
        runId,
        jsonSafe({
          ackableThrough: acks.ackableThrough(runId),
          ack: book ? { durable: book.durable, acked: book.acked, approvalSeq: book.approvalSeq, injected: book.injected } : null,
          activity: entry ? { activity: entry.activity, interactive: entry.interactive } : null,
          presentsRunningAs: activity.present(runId, 'running'),
          idle: activity.isIdle(runId),
          owns: ownership.owns(runId),
          session: ownership.sessionOf(runId) ?? null,
          localChangeSet: localRecords.get(runId) ?? null,
        }),
      ];
    }),
  );
}

/** The SCV driver's books after a reload: the prompts left over in each session's queue. */
export function scvBooks(driver: unknown, runIds: readonly string[]): Books {
  const stored = field(driver, 'stored') as { queuedOf(runId: string): unknown };
  return Object.fromEntries(runIds.map((runId) => [runId, jsonSafe({ queued: stored.queuedOf(runId) })]));
}

/** The A3S driver's books after a reload: cursor, flags, change-set status and the mapping's state, per run. */
export function a3sBooks(driver: unknown): Books {
  const books = field(driver, 'books') as Map<string, Record<string, unknown>>;
  return Object.fromEntries(
    [...books.entries()].map(([runId, book]) => {
      const { poller: _poller, ...rest } = book;
      return [runId, jsonSafe(rest)];
    }),
  );
}
