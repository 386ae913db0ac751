/**
 * An agent that writes more than the line limit (64 MiB) without a newline: the driver stops it and the connection
 * fails with that reason (what the Connections view and the *Restart* notification show); nothing crashes, and the
 * extension host's memory for it stays bounded by the limit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AcpDriver } from '../../../../extension/drivers/acp/acpDriver';
import { MAX_LINE_BYTES } from '../../../../extension/transport/lineSplitter';
import { driverSetup, until } from '../driverKit';

test('a line over 64 MiB without a newline stops the agent; the connection says why', { timeout: 60_000 }, async () => {
  const storage = mkdtempSync(join(tmpdir(), 'acp-line-'));
  // Written in 1 MiB pieces, then the agent keeps running: only the limit can end it.
  const script = `const piece = Buffer.alloc(1024 * 1024, 0x61); let n = 0; const more = () => { if (n++ < ${MAX_LINE_BYTES / (1024 * 1024) + 4}) process.stdout.write(piece, more); }; more(); setInterval(() => {}, 1e6);`;
  const setup = driverSetup({ name: 'flood', protocol: 'acp', command: process.execPath, args: ['-e', script] }, storage, { workspaceFolder: storage });
  const driver = new AcpDriver(setup.ctx);
  try {
    await driver.connect().catch(() => undefined);
    const failed = await until('failed', () => {
      const state = setup.store.state.connections.get(setup.connectionId)?.state;
      return state?.kind === 'failed' && state;
    }, 45_000);
    assert.match(failed.reason, /the agent wrote a line longer than 64 MiB without a newline; it was stopped/);
  } finally {
    await driver.dispose();
    rmSync(storage, { recursive: true, force: true });
  }
});
