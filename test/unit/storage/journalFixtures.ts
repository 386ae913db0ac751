/**
 * Reloads a stored journal fixture with a fresh driver, as a window reload does (the daemon is gone: nothing
 * listens where the profile points), and snapshots what came back (journalSnapshot.ts).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { A3sDriver } from '../../../extension/drivers/a3s/a3sDriver';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import type { ConnectionProfile } from '../../../extension/drivers/driver';
import { ScvDriver } from '../../../extension/drivers/scv/scvDriver';
import { DEFAULT_RELEASE } from '../../fixtures/a3s/harnessWire';
import { FAST } from '../drivers/a3s/a3sDriverKit';
import { a3sBooks, agencyProxyBooks, copyOfFixture, fixtureContext, modelSnapshot, scvBooks } from './journalSnapshot';

export const AGENCY_PROXY_PROFILE: ConnectionProfile = { name: 'fixture', protocol: 'agency-proxy', socketPath: '/nonexistent/agency-proxy-fixture.sock' };
export const SCV_PROFILE: ConnectionProfile = { name: 'fixture', protocol: 'scv', socketPath: '/nonexistent/scv-fixture.sock' };
/** Port 9 (discard): nothing answers on loopback, so the driver stays offline after loading. */
export const A3S_PROFILE: ConnectionProfile = { name: 'fixture', protocol: 'a3s', url: 'http://127.0.0.1:9', releaseIdentity: DEFAULT_RELEASE };

export type FixtureName = 'agencyProxy' | 'scv' | 'a3s';

export interface ReloadResult {
  readonly snapshot: { readonly model: unknown; readonly books: unknown };
  /** Warnings and errors the drivers logged while loading. */
  readonly logs: readonly string[];
}

/** Loads a copy of `fixtureDir` (the storage root: `transcripts/<connection>/…`) and snapshots model and books. */
export async function reloadSnapshot(name: FixtureName, fixtureDir: string): Promise<ReloadResult> {
  const storage = copyOfFixture(fixtureDir);
  const logs: string[] = [];
  try {
    switch (name) {
      case 'agencyProxy': {
        const ctx = fixtureContext({ ...AGENCY_PROXY_PROFILE, socketPath: `${storage}/none.sock` }, storage, logs);
        const driver = new AgencyProxyDriver(ctx);
        await driver.connect();
        const runIds = [...ctx.store.state.runs.values()].map((r) => r.runId).sort();
        const snapshot = { model: modelSnapshot(ctx.store), books: agencyProxyBooks(driver, runIds) };
        await driver.disconnect();
        await driver.dispose(); // flushes the journal, then closes it
        return { snapshot, logs };
      }
      case 'scv': {
        const ctx = { ...fixtureContext({ ...SCV_PROFILE, socketPath: `${storage}/none.sock` }, storage, logs), workspaceFolder: storage };
        const driver = new ScvDriver(ctx, { reconnectBaseMs: 50 });
        await driver.connect();
        await driver.flushStorage();
        const runIds = [...ctx.store.state.runs.values()].map((r) => r.runId).sort();
        const snapshot = { model: modelSnapshot(ctx.store), books: scvBooks(driver, runIds) };
        await driver.disconnect();
        await driver.dispose();
        return { snapshot, logs };
      }
      case 'a3s': {
        const ctx = fixtureContext(A3S_PROFILE, storage, logs);
        const driver = new A3sDriver(ctx, FAST);
        await driver.connect();
        const snapshot = { model: modelSnapshot(ctx.store), books: a3sBooks(driver) };
        await driver.disconnect();
        await driver.dispose();
        return { snapshot, logs };
      }
    }
  } finally {
    await new Promise((r) => setTimeout(r, 100)); // the disposed drivers' last writes land before removal
    rmSync(dirname(storage), { recursive: true, force: true, maxRetries: 20 });
  }
}
