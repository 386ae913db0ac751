/** The hyperhive driver tests' set-up: a FakeHive, a driver on it with stepped timers, and lookups. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { HiveDriver } from '../../../../extension/drivers/hive/hiveDriver';
import type { HiveDriverOptions } from '../../../../extension/drivers/hive/hiveDriver';
import type { Timeouts } from '../../../../extension/drivers/kit/clock';
import type { ConnectionProfile } from '../../../../extension/drivers/driver';
import type { Panel } from '../../../../extension/model/modelTypes';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunStore } from '../../../../extension/model/runStore';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { FakeHive } from '../../../fixtures/hive/hive';
import { driverSetup, until } from '../driverKit';

export const CONNECTION = 'hive:test';
export const base = mkdtempSync(join(tmpdir(), 'hvdrv-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));


/** Timers the test steps by hand: `fire()` runs the armed poll and waits until the next one is armed. */
export class SteppedTimers implements Timeouts {
  readonly delays: number[] = [];
  private armed: { fn: () => void; ms: number; id: number } | undefined;
  private nextId = 1;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.armed = { fn, ms, id };
    this.delays.push(ms);
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (this.armed?.id === handle) {
      this.armed = undefined;
    }
  }

  get pendingDelay(): number | undefined {
    return this.armed?.ms;
  }

  /** Runs the armed poll without waiting for a next one (a poll that gives the connection up arms none). */
  fireOnce(): void {
    const armed = this.armed;
    assert.ok(armed, 'a poll is armed');
    this.armed = undefined;
    armed.fn();
  }

  async fire(): Promise<void> {
    const armed = this.armed;
    assert.ok(armed, 'a poll is armed');
    this.armed = undefined;
    armed.fn();
    await until('the next poll to be armed', () => this.armed !== undefined && this.armed.id !== armed.id);
  }
}

export interface Session {
  readonly hive: FakeHive;
  readonly store: RunStore;
  readonly driver: HiveDriver;
  readonly timers: SteppedTimers;
  readonly warnings: string[];
  items(agent: string): TranscriptItem[];
  panel(agent: string, id: string): Panel;
}

export async function withDriver(fn: (s: Session) => Promise<void>, profile: Partial<ConnectionProfile> = {}, options: HiveDriverOptions = {}): Promise<void> {
  const hive = new FakeHive({ recvMaxWaitSeconds: 1 });
  await hive.start();
  const warnings: string[] = [];
  const { store, ctx } = driverSetup({ name: 'test', protocol: 'hive', hiveDir: hive.dir, ...profile }, base, {
    log: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
  });
  const timers = new SteppedTimers();
  const driver = new HiveDriver(ctx, { timers, requestTimeoutMs: 3000, reconnectBaseMs: 20, ...options });
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(CONNECTION)?.state.kind === 'connected');
    await fn({
      hive,
      store,
      driver,
      timers,
      warnings,
      items: (agent) => store.transcript(runKeyOf(CONNECTION, agent))?.snapshot() ?? [],
      panel: (agent, id) => {
        const panel = store.state.runs.get(runKeyOf(CONNECTION, agent))?.panels?.find((p) => p.id === id);
        assert.ok(panel, `${agent} has panel ${id}`);
        return panel;
      },
    });
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await hive.stop();
  }
}

export const messages = (items: readonly TranscriptItem[]) => items.filter((i): i is Extract<TranscriptItem, { kind: 'message' }> => i.kind === 'message');
