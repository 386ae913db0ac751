/** Shared by the driver tests: polling for a model condition, and a RunStore with one connection. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverContext, DriverLog } from '../../../extension/drivers/connectionManager';
import type { ConnectionProfile } from '../../../extension/drivers/driver';
import { RunStore } from '../../../extension/model/runStore';
import type { FrameTap } from '../../../extension/transport/frameTap';
import { withSuiteTrace } from '../trace/suiteTrace';
import { mirrorIntoWebview } from './webviewMirror';

/** Polls `probe` every 10 ms until it returns a value (not undefined/false); fails with `what` after `ms`. */
export async function until<T>(what: string, probe: () => T | undefined | false, ms = 15000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const quietLog: DriverLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** Errors are printed: a driver error in a test is worth seeing even when the assertion passes. */
export const loudLog: DriverLog = { info: () => undefined, warn: () => undefined, error: (m) => console.error(m) };

/**
 * A store holding the profile's connection, and the context a driver for it needs. Its patch stream is mirrored
 * into the webview's TranscriptStore (webviewMirror.ts): a patch the webview refuses fails the test file.
 */
export function driverSetup(
  profile: ConnectionProfile,
  storageDir: string,
  options: { tap?: FrameTap; log?: DriverLog; workspaceFolder?: string } = {},
): { store: RunStore; connectionId: string; ctx: DriverContext } {
  const store = new RunStore();
  mirrorIntoWebview(store);
  const connectionId = `${profile.protocol}:${profile.name}`;
  store.dispatch({ type: 'connectionAdded', connection: { id: connectionId, name: profile.name, protocol: profile.protocol } });
  const ctx: DriverContext = {
    store,
    connectionId,
    profile,
    // The suite trace (SWITCHBOARD_TRACE_FILE) sees every frame of every driver a test builds here.
    tap: withSuiteTrace(profile.protocol, profile.name, options.tap) ?? (() => undefined),
    storageDir,
    log: options.log ?? quietLog,
    ...(options.workspaceFolder !== undefined ? { workspaceFolder: options.workspaceFolder } : {}),
  };
  return { store, connectionId, ctx };
}

/**
 * What a crashed extension host leaves behind for the runs it wrote (storage/runWriterLease.ts): leases whose pid is
 * dead. A test that drops a driver "without a goodbye" and starts another in the same process calls this, since
 * the old driver's pid (the test's own) is alive and would otherwise keep its leases.
 */
export function markWritersDead(storageDir: string): void {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  const transcripts = join(storageDir, 'transcripts');
  for (const connection of existsSync(transcripts) ? readdirSync(transcripts) : []) {
    for (const name of readdirSync(join(transcripts, connection)).filter((n) => n.endsWith('.lease'))) {
      const file = join(transcripts, connection, name);
      const lease = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...lease, pid: dead }));
    }
  }
}
