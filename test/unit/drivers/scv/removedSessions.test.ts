/**
 * A removed SCV session stays removed (issue #25 §2 follow-up), against the reference daemon. SCV lists no sessions
 * (WIRE.md §2: a session belongs to its connection and ends with it), so only the editor's own storage could bring one
 * back: after a reload it is not shown (the next session is), and a second window of this machine that showed it
 * drops it, puts it back neither in the run index nor on disk as it closes, and no window shows it again.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ScvDriver } from '../../../../extension/drivers/scv/scvDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { safeFileName } from '../../../../extension/storage/runFileName';
import { driverSetup, quietLog, until } from '../driverKit';
import { CONNECTION, connected, run, scvDriverSetup } from './scvDriverKit';
import type { ScvDriverSetup } from './scvDriverKit';

const dirOf = (storage: string): string => join(storage, 'transcripts', safeFileName(CONNECTION));
const indexed = (storage: string): string[] => (JSON.parse(readFileSync(join(dirOf(storage), 'runs.json'), 'utf8')) as { runId: string }[]).map((r) => r.runId);
const filesOf = (storage: string, runId: string): string[] => readdirSync(dirOf(storage)).filter((name) => name.startsWith(`${safeFileName(runId)}.`));

/** An editor window on the same storage (its own window id: writer leases as in the extension). */
async function windowOn(s: ScvDriverSetup, windowId: string) {
  const { store, ctx } = driverSetup({ name: 'test', protocol: 'scv', socketPath: s.socketPath }, s.storage, { log: quietLog, workspaceFolder: s.workspace });
  const driver = new ScvDriver({ ...ctx, windowId }, { reconnectBaseMs: 50 });
  await connected({ store, driver, frames: [], logs: [] });
  return { store, driver, shows: (runId: string) => store.state.runs.has(runKeyOf(CONNECTION, runId)) };
}

/** A session that answered a turn and then ended with its daemon (interrupted: finished, so removable). */
async function endedSession(s: ScvDriverSetup, driver: ScvDriver, store: ScvDriverSetup['store']): Promise<{ ended: string; next: string }> {
  const ended = await until('a session', () => driver.liveSessionRunId);
  await driver.sendMessage(ended, 'hello');
  await until('the turn answered', () => run({ store }, ended).state === 'idle' && run({ store }, ended).itemCount > 1);
  await s.restartDaemon();
  await until('the session ended with its daemon', () => run({ store }, ended).state === 'interrupted');
  const next = await until('the next session', () => (driver.liveSessionRunId !== ended ? driver.liveSessionRunId : undefined));
  return { ended, next };
}

describe('a removed SCV session', () => {
  it('is not shown after a reload; the sessions after it are', async () => {
    const s = await scvDriverSetup();
    try {
      await connected(s);
      const { ended, next } = await endedSession(s, s.driver, s.store);
      assert.equal(await s.driver.history.remove(ended), 'removed');
      await s.driver.flushStorage();
      await s.driver.disconnect();
      await s.driver.dispose();

      const reloaded = s.reload();
      await connected(reloaded);
      await until('the session before the reload is back', () => reloaded.store.state.runs.has(runKeyOf(CONNECTION, next)));
      assert.equal(reloaded.store.state.runs.has(runKeyOf(CONNECTION, ended)), false, 'the removed one is not');
      await reloaded.driver.flushStorage();
      assert.equal(indexed(s.storage).includes(ended), false);
      assert.deepEqual(filesOf(s.storage, ended), []);
    } finally {
      await s.cleanup();
    }
  });

  it('removed in one window is dropped by another that showed it, put back by none, and shown by no window after a reload', async () => {
    const s = await scvDriverSetup();
    const a = await windowOn(s, 'window-A');
    let b: Awaited<ReturnType<typeof windowOn>> | undefined;
    let c: Awaited<ReturnType<typeof windowOn>> | undefined;
    try {
      const { ended } = await endedSession(s, a.driver, a.store);
      await a.driver.flushStorage();
      b = await windowOn(s, 'window-B');
      await until('B shows A\'s ended session', () => b!.shows(ended));
      assert.equal(await a.driver.history.remove(ended), 'removed');
      await until('B dropped it (the removed ids\' file changed)', () => !b!.shows(ended));
      // B closes (it saves every run's summary as it goes) and comes back.
      await b.driver.flushStorage();
      await b.driver.disconnect();
      await b.driver.dispose();
      assert.equal(indexed(s.storage).includes(ended), false, 'B did not put it back in the index');
      assert.deepEqual(filesOf(s.storage, ended), [], 'nor wrote a file of it');
      c = await windowOn(s, 'window-B');
      assert.equal(c.shows(ended), false, 'B, reloaded, does not show it');
      assert.equal(a.shows(ended), false);
      assert.ok(existsSync(join(dirOf(s.storage), 'removed.json')));
    } finally {
      for (const w of [a, b, c]) {
        await w?.driver.disconnect();
        await w?.driver.dispose();
      }
      await s.cleanup();
    }
  });
});
