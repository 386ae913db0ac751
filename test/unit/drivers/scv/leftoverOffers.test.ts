/**
 * Queued SCV prompts do not vanish when their session ends: they stay with the ended run (on disk too, so a window
 * reload keeps them) and the next session of the connection is offered them — queued on request, or discarded.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DriverError } from '../../../../extension/drivers/driver';
import type { ScvLeftoverOffer } from '../../../../extension/drivers/scv/scvLeftovers';
import { markWritersDead, until } from '../driverKit';
import { CONNECTION, connected, items, run, scvDriverSetup, turns } from './scvDriverKit';

/** The stored run index of the test connection (what a reload reads). */
/** The prompts the index keeps as left over (`extra.queued` of each entry), as text. */
function storedLeftovers(storage: string): string {
  const text = storedIndex(storage);
  const entries = text === '' ? [] : (JSON.parse(text) as { extra?: { queued?: unknown } }[]);
  return JSON.stringify(entries.map((entry) => entry.extra?.queued ?? []));
}

function storedIndex(storage: string): string {
  const dir = join(storage, 'transcripts');
  try {
    const sub = readdirSync(dir).find((d) => d.startsWith('scv_test'));
    return sub ? readFileSync(join(dir, sub, 'runs.json'), 'utf8') : '';
  } catch {
    return ''; // not written yet
  }
}

function notices(s: Parameters<typeof items>[0], runId: string): string[] {
  return items(s, runId).flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
}

describe('SCV leftover queued prompts', () => {
  it('survive a daemon restart and are queued in the next session on request', async () => {
    const s = await scvDriverSetup();
    try {
      const first = await connected(s);
      await s.driver.pauseQueue(first, true);
      await s.driver.sendMessage(first, 'left one');
      await s.driver.sendMessage(first, 'left two');
      assert.equal(run(s, first).queue?.length, 2);
      const offers: ScvLeftoverOffer[] = [];
      s.driver.onLeftoverOffer((offer) => offers.push(offer));
      // Read through a function: the getter changes behind TypeScript's narrowing.
      const offerNow = (): ScvLeftoverOffer | undefined => s.driver.leftoverOffer;

      await s.restartDaemon();
      await until('the first session ended', () => run(s, first).state === 'interrupted');
      assert.ok(notices(s, first).some((t) => /never ran: "left one", "left two"\. They are kept/.test(t)), notices(s, first).join('\n'));
      await until('reconnected', () => s.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
      // The new session the reconnect started (WIRE.md 6.2) is offered the prompts: offered, never sent by itself.
      const second = await until('the new session', () => s.driver.liveSessionRunId);
      const offer = offerNow();
      assert.deepEqual(offer?.prompts.map((p) => p.prompt), ['left one', 'left two']);
      assert.equal(offer?.fromRunId, first);
      assert.equal(offer?.toRunId, second);
      assert.deepEqual(offers, [offer], 'announced once');
      assert.ok(notices(s, second).some((t) => /previous SCV session here ended with 2 queued prompts/.test(t)));
      assert.equal(turns(s, second, 'started'), 0, 'nothing is resent by itself');

      assert.equal(await s.driver.queueLeftoverPrompts(), 2);
      await until('both ran in the new session', () => turns(s, second, 'completed') === 2);
      const users = items(s, second).flatMap((i) => (i.kind === 'user' ? [i.text] : []));
      assert.deepEqual(users, ['left one', 'left two']);
      assert.equal(offerNow(), undefined);
      await assert.rejects(s.driver.queueLeftoverPrompts(), (e: unknown) => e instanceof DriverError && e.code === 'no_leftovers');
      assert.ok(notices(s, first).some((t) => /were queued in a new session/.test(t)));
      await until('the ended run no longer stores them', () => !storedIndex(s.storage).includes('left two'));

      await s.driver.startNewSession({ replace: true });
      assert.equal(offerNow(), undefined, 'an empty queue leaves nothing over');
    } finally {
      await s.cleanup();
    }
  });

  it('are kept across a window reload and can be discarded', async () => {
    const s = await scvDriverSetup();
    try {
      const first = await connected(s);
      await s.driver.pauseQueue(first, true);
      await s.driver.sendMessage(first, 'kept over the reload');
      await until('the waiting prompt is stored with the run', () => storedIndex(s.storage).includes('kept over the reload'));

      // The old window's extension host is gone without a goodbye (its leases now name a dead pid); a new one loads
      // the stored sessions.
      markWritersDead(s.storage);
      const reloaded = s.reload();
      const next = await connected(reloaded);
      assert.equal(run(reloaded, first).state, 'interrupted');
      assert.ok(notices(reloaded, first).some((t) => /never ran: "kept over the reload"/.test(t)));
      const offer = await until('the offer', () => reloaded.driver.leftoverOffer);
      assert.deepEqual(offer.prompts.map((p) => p.prompt), ['kept over the reload']);
      assert.equal(offer.toRunId, next);

      reloaded.driver.discardLeftoverPrompts();
      assert.equal(reloaded.driver.leftoverOffer, undefined);
      assert.ok(notices(reloaded, first).some((t) => /that never ran were discarded/.test(t)));
      await until('forgotten on disk', () => !storedIndex(s.storage).includes('kept over the reload'));
      assert.equal(turns(reloaded, next, 'started'), 0, 'discarded prompts are not sent');
    } finally {
      await s.cleanup();
    }
  });

  it('go with their run when it is removed: the offer is withdrawn and nothing of them is sent', async () => {
    const s = await scvDriverSetup();
    try {
      const first = await connected(s);
      await s.driver.pauseQueue(first, true);
      await s.driver.sendMessage(first, 'never to be sent');
      await s.restartDaemon();
      await until('the first session ended', () => run(s, first).state === 'interrupted');
      const second = await until('the new session', () => s.driver.liveSessionRunId);
      await until('the offer', () => s.driver.leftoverOffer);

      assert.equal(await s.driver.history.remove(first), 'removed');
      assert.equal(s.driver.leftoverOffer, undefined, 'the removed run\'s prompts are not offered any more');
      await assert.rejects(s.driver.queueLeftoverPrompts(), (e: unknown) => e instanceof DriverError && e.code === 'no_leftovers');
      assert.equal(turns(s, second, 'started'), 0, 'nothing was sent');
      // As left over (the new session's own transcript still says which prompts the previous one left: its history).
      assert.ok(!storedLeftovers(s.storage).includes('never to be sent'), 'nor is anything of them stored');
    } finally {
      await s.cleanup();
    }
  });
});
