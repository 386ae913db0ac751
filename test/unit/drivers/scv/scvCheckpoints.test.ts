/**
 * File checkpoints of an SCV session (issue #26), against the reference daemon, in a workspace folder that is not a
 * git repository: one when the session starts and one at each `turn.completed`, kept in a private git dir under the
 * extension's storage; rewinding to the start removes what the turn added.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { until } from '../driverKit';
import { connected, setup } from './scvStoredDriverKit';

describe('SCV file checkpoints', () => {
  it('a session is checkpointed at its start and at the end of each turn, in a private git dir, and rewinds', async () => {
    const s = await setup();
    try {
      const recorded: number[] = [];
      s.driver.checkpoints.onRecorded((r) => recorded.push(r.checkpoint.turn ?? -1));
      const runId = await connected(s);
      await until('the start checkpoint', () => recorded.length === 1);
      writeFileSync(join(s.workspace, 'a.txt'), 'what "the agent" adds during the turn\n');
      await s.driver.sendMessage(runId, 'hello there');
      await until('the end-of-turn checkpoint', () => recorded.length === 2);
      assert.deepEqual(recorded, [0, 1]);

      const [start] = await s.driver.checkpoints.store.list(runId);
      assert.ok(start?.trees[0]?.gitDir?.startsWith(join(s.storage, 'fileCheckpoints')), JSON.stringify(start));
      assert.deepEqual(readdirSync(s.workspace), ['a.txt'], 'no file of ours in the folder');
      const outcome = await s.driver.checkpoints.store.rewind(runId, start!.id);
      assert.ok(outcome.status === 'rewound', JSON.stringify(outcome));
      assert.equal(existsSync(join(s.workspace, 'a.txt')), false);
    } finally {
      await s.cleanup();
    }
  });
});
