/**
 * "New Run…" on SCV (scvNewRun.ts): the prompt is the first turn of a session — the one the connection opened by
 * itself while it is unused, otherwise a new session (`session.start`) after the user confirmed ending the live one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { until } from '../driverKit';
import { CONNECTION, connected, items, run, scvDriverSetup, sessionIdsStarted, turns } from './scvDriverKit';

describe('New Run on SCV', () => {
  it('declares run.start; an unused session takes the prompt, a used one is replaced after a confirmation', async () => {
    const s = await scvDriverSetup();
    try {
      const first = await connected(s);
      assert.ok(s.store.state.connections.get(CONNECTION)!.capabilities.includes('run.start'));
      assert.equal(s.driver.startRunConfirmation(), undefined, 'nothing to confirm: nothing ran in the session yet');
      const runId = await s.driver.startRun({ prompt: 'hello from New Run', workspaceRoots: [s.workspace] });
      assert.equal(runId, first, 'the unused session took the prompt');
      await until('answered', () => turns(s, first, 'completed') === 1);
      assert.ok(items(s, first).some((i) => i.kind === 'user' && i.text === 'hello from New Run'));

      assert.match(s.driver.startRunConfirmation()?.message ?? '', /End the current SCV session/);
      const next = await s.driver.startRun({ prompt: 'second run', workspaceRoots: [s.workspace] });
      assert.notEqual(next, first, 'a new session');
      assert.equal(sessionIdsStarted(s).length, 2, 'started with session.start');
      await until('the new session answered', () => turns(s, next, 'completed') === 1);
      assert.ok(items(s, next).some((i) => i.kind === 'user' && i.text === 'second run'));
      await until('the first session ended', () => run(s, first).state === 'interrupted');
    } finally {
      await s.cleanup();
    }
  });
});
