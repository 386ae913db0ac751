/**
 * Shared by the SCV driver tests under test/unit/drivers/scv: an `ScvDriver` on a fresh store against the in-process
 * reference daemon (which can be restarted on the same socket), with its frames and log lines recorded.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScvDriver } from '../../../../extension/drivers/scv/scvDriver';
import type { ScvDriverOptions } from '../../../../extension/drivers/scv/scvDriver';
import type { RunInfo } from '../../../../extension/model/modelTypes';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { ScvReferenceDaemon } from '../../../fixtures/scv/daemon';
import type { ScvReferenceDaemonOptions } from '../../../fixtures/scv/daemon';
import { driverSetup, loudLog, until } from '../driverKit';

export const CONNECTION = 'scv:test';

export interface DriverUnderTest {
  readonly store: RunStore;
  readonly driver: ScvDriver;
  /** Every frame, both directions. */
  readonly frames: unknown[];
  /** `level: message` for every log line. */
  readonly logs: string[];
}

export interface ScvDriverSetup extends DriverUnderTest {
  readonly dir: string;
  readonly workspace: string;
  readonly socketPath: string;
  readonly storage: string;
  readonly daemon: ScvReferenceDaemon;
  /** Stops the daemon (every connection drops) and starts a new one on the same socket: its counters start again. */
  restartDaemon(options?: Partial<ScvReferenceDaemonOptions>): Promise<ScvReferenceDaemon>;
  /** A second driver on the same storage and socket: what a window reload makes. */
  reload(): DriverUnderTest;
  cleanup(): Promise<void>;
}

export function makeDriver(socketPath: string, storageDir: string, workspaceFolder: string, options: ScvDriverOptions = {}): DriverUnderTest {
  const frames: unknown[] = [];
  const logs: string[] = [];
  const { store, ctx } = driverSetup({ name: 'test', protocol: 'scv', socketPath }, storageDir, {
    tap: (_dir, frame) => frames.push(frame),
    log: {
      info: (m) => logs.push(`info: ${m}`),
      warn: (m) => logs.push(`warn: ${m}`),
      error: (m) => {
        logs.push(`error: ${m}`);
        loudLog.error(m);
      },
    },
    workspaceFolder,
  });
  return { store, frames, logs, driver: new ScvDriver(ctx, { reconnectBaseMs: 50, ...options }) };
}

export async function scvDriverSetup(daemonOptions: Partial<ScvReferenceDaemonOptions> = {}): Promise<ScvDriverSetup> {
  const dir = mkdtempSync(join(tmpdir(), 'scvk-'));
  const workspace = join(dir, 'project');
  mkdirSync(workspace);
  const socketPath = join(dir, 's.sock');
  const storage = join(dir, 'storage');
  const start = async (options: Partial<ScvReferenceDaemonOptions>): Promise<ScvReferenceDaemon> => {
    const d = new ScvReferenceDaemon({ stepDelayMs: 1, slowTurnMs: 600, backgroundDelayMs: 100, ...options, socketPath });
    await d.start();
    return d;
  };
  let daemon = await start(daemonOptions);
  const made = makeDriver(socketPath, storage, workspace);
  const reloads: DriverUnderTest[] = [];
  return {
    dir,
    workspace,
    socketPath,
    storage,
    ...made,
    get daemon() {
      return daemon;
    },
    restartDaemon: async (options = daemonOptions) => {
      await daemon.stop();
      daemon = await start(options);
      return daemon;
    },
    reload: () => {
      const next = makeDriver(socketPath, storage, workspace);
      reloads.push(next);
      return next;
    },
    cleanup: async () => {
      for (const d of [made, ...reloads]) {
        await d.driver.disconnect();
        await d.driver.dispose();
      }
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
    },
  };
}

export function items(s: { store: RunStore }, runId: string): TranscriptItem[] {
  return s.store.transcript(runKeyOf(CONNECTION, runId))?.snapshot() ?? [];
}

export function run(s: { store: RunStore }, runId: string): RunInfo {
  const info = s.store.state.runs.get(runKeyOf(CONNECTION, runId));
  if (!info) {
    throw new Error(`no run ${runId}`);
  }
  return info;
}

export function turns(s: { store: RunStore }, runId: string, phase: string): number {
  return items(s, runId).filter((i) => i.kind === 'turn' && i.phase === phase).length;
}

/** Connects and waits for the session the driver starts by itself; resolves with its run id. */
export async function connected(s: DriverUnderTest): Promise<string> {
  await s.driver.connect();
  await until('connected', () => s.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  return until('a session', () => s.driver.liveSessionRunId);
}

/** The daemon's session id of a run, read from the wire (`session.started` answered the run's `session.start`). */
export function sessionIdsStarted(s: DriverUnderTest): string[] {
  return s.frames.flatMap((f) => {
    const frame = f as { type?: unknown; session_id?: unknown };
    return frame.type === 'session.started' && typeof frame.session_id === 'string' ? [frame.session_id] : [];
  });
}
