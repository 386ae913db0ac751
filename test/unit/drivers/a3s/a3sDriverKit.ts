/** Shared by the A3S driver tests: a reference harness in a fresh git workspace, and a driver with its frames and log. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { A3sDriver } from '../../../../extension/drivers/a3s/a3sDriver';
import type { A3sDriverOptions } from '../../../../extension/drivers/a3s/a3sDriver';
import type { ConnectionProfile } from '../../../../extension/drivers/driver';
import type { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { A3sHarness } from '../../../fixtures/a3s/harness';
import type { A3sHarnessOptions } from '../../../fixtures/a3s/harness';
import { DEFAULT_RELEASE } from '../../../fixtures/a3s/harnessWire';
import { driverSetup, until } from '../driverKit';

export const FAST: A3sDriverOptions = { healthIntervalMs: 50, pollActiveMs: 5, pollMaxMs: 40, reconnectBaseMs: 20, changeSetInitialDelayMs: 20, changeSetMaxDelayMs: 80 };

export interface Frame {
  readonly dir: 'in' | 'out';
  readonly frame: unknown;
  readonly path?: string;
}

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
}

/** A temp directory per test file, with cleanups run (newest first) after the file's tests. */
export function driverTestBed(prefix: string) {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) {
      await c();
    }
    await removeWhenQuiet(base);
  });

  /** The harness defaults to zero latency: nothing a test waits for depends on a delay. */
  async function startHarness(options: A3sHarnessOptions = {}): Promise<{ harness: A3sHarness; workspace: string }> {
    const workspace = mkdtempSync(join(base, 'ws-'));
    const paced = options.stepMs !== undefined || options.captureMs !== undefined;
    const harness = new A3sHarness({ workspace, gitInit: true, ...(paced ? {} : { zeroLatency: true }), ...options });
    await harness.start();
    cleanups.push(() => harness.stop());
    return { harness, workspace };
  }

  /** `windowId`: the editor window it runs in (its runs are then written under writer leases, as in the extension). */
  function makeDriver(url: string, storageDir = mkdtempSync(join(base, 's-')), profile: Partial<ConnectionProfile> = {}, options: A3sDriverOptions = {}, windowId?: string) {
    const frames: Frame[] = [];
    const logs: LogLine[] = [];
    const { store, connectionId, ctx } = driverSetup({ name: 'test', protocol: 'a3s', url, releaseIdentity: DEFAULT_RELEASE, ...profile }, storageDir, {
      tap: (dir, frame, http) => frames.push({ dir, frame, ...(http ? { path: http.path } : {}) }),
      log: {
        info: (message) => logs.push({ level: 'info', message }),
        warn: (message) => logs.push({ level: 'warn', message }),
        // Printed as well: a driver error in a test is worth seeing even when the assertion passes.
        error: (message) => {
          logs.push({ level: 'error', message });
          console.error(message);
        },
      },
    });
    const driver = new A3sDriver(windowId !== undefined ? { ...ctx, windowId } : ctx, { ...FAST, ...options });
    cleanups.push(() => driver.dispose());
    return { store, driver, connectionId, frames, logs, storageDir };
  }

  return { base, cleanups, startHarness, makeDriver };
}

/**
 * Removes a directory a disposed driver may still be writing into (its storage closes asynchronously: the last
 * index or change-set write can land while the tree is being removed, failing with ENOTEMPTY). Retries until a
 * removal finds nothing new, i.e. until the writers are done.
 */
export async function removeWhenQuiet(dir: string): Promise<void> {
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 20 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') {
        throw error;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** Like `until`, for a probe that has to read something (e.g. the journal on disk). */
export async function untilAsync(what: string, probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function connected(store: RunStore, connectionId: string): Promise<void> {
  await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
}

export function items(store: RunStore, key: string): readonly TranscriptItem[] {
  return store.transcript(key)?.snapshot() ?? [];
}

export function allText(store: RunStore, key: string): string {
  return items(store, key)
    .filter((i) => i.kind === 'text')
    .map((i) => (i.kind === 'text' ? i.text : ''))
    .join('');
}

export function notices(store: RunStore, key: string): { text: string; level: string }[] {
  return items(store, key).flatMap((i) => (i.kind === 'notice' ? [{ text: i.text, level: i.level }] : []));
}
