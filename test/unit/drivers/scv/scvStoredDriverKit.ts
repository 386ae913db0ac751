/** The SCV driver tests' set-up: the in-process reference daemon (or none), a driver on fresh storage, and lookups. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { ScvDriver } from '../../../../extension/drivers/scv/scvDriver';
import type { RunInfo } from '../../../../extension/model/modelTypes';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { ScvReferenceDaemon } from '../../../fixtures/scv/daemon';
import type { ScvReferenceDaemonOptions } from '../../../fixtures/scv/daemon';
import { makeDriver } from './scvDriverKit';
import { until } from '../driverKit';

export const base = mkdtempSync(join(tmpdir(), 'scvd-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
export const CONNECTION = 'scv:test';


export interface Setup {
  readonly dir: string;
  readonly workspace: string;
  readonly socketPath: string;
  readonly storage: string;
  daemon: ScvReferenceDaemon | undefined;
  readonly store: RunStore;
  readonly driver: ScvDriver;
  readonly frames: unknown[];
  readonly logs: string[];
  cleanup(): Promise<void>;
}

export async function setup(daemonOptions: Partial<ScvReferenceDaemonOptions> | null = {}, storage?: string): Promise<Setup> {
  const dir = mkdtempSync(join(base, 'c'));
  const workspace = join(dir, 'project');
  mkdirSync(workspace);
  const socketPath = join(dir, 's.sock');
  let daemon: ScvReferenceDaemon | undefined;
  if (daemonOptions) {
    daemon = new ScvReferenceDaemon({ stepDelayMs: 1, slowTurnMs: 600, backgroundDelayMs: 100, ...daemonOptions, socketPath });
    await daemon.start();
  }
  const made = makeDriver(socketPath, storage ?? join(dir, 'storage'), workspace);
  const s: Setup = {
    dir,
    workspace,
    socketPath,
    storage: storage ?? join(dir, 'storage'),
    daemon,
    ...made,
    cleanup: async () => {
      await made.driver.disconnect();
      await made.driver.dispose();
      await s.daemon?.stop();
    },
  };
  return s;
}

export function items(s: { store: RunStore }, runId: string): TranscriptItem[] {
  return s.store.transcript(runKeyOf(CONNECTION, runId))?.snapshot() ?? [];
}

export function run(s: { store: RunStore }, runId: string): RunInfo {
  return s.store.state.runs.get(runKeyOf(CONNECTION, runId))!;
}

export async function connected(s: Setup): Promise<string> {
  await s.driver.connect();
  await until('connected', () => s.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  return until('a session', () => s.driver.liveSessionRunId);
}

export function turns(s: Setup, runId: string, phase: string): number {
  return items(s, runId).filter((i) => i.kind === 'turn' && i.phase === phase).length;
}
