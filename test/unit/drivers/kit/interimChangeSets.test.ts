/**
 * Change sets recomputed while a run is open: one computation per run at a time (a burst costs at most two), and
 * an interim result never replaces the final one computed at the run's end.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { CoalescedTasks } from '../../../../extension/drivers/kit/coalescedTasks';
import { LocalChangeSets } from '../../../../extension/changeSets/localChangeSet';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import { runsChangeSetSink } from '../../../../extension/drivers/kit/localChangeSetSink';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { TempGitRepo } from '../../changeSets/tempGitRepo';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('coalesced tasks', () => {
  it('runs once more after a burst of requests during a run, and never concurrently', async () => {
    const tasks = new CoalescedTasks();
    const gates = [deferred(), deferred(), deferred()];
    let started = 0;
    let running = 0;
    let maxRunning = 0;
    const task = async (): Promise<void> => {
      const gate = gates[started++]!;
      running++;
      maxRunning = Math.max(maxRunning, running);
      await gate.promise;
      running--;
    };
    const first = tasks.run('r', task);
    const during = [tasks.run('r', task), tasks.run('r', task), tasks.run('r', task)];
    gates[0]!.resolve();
    await Promise.resolve();
    gates[1]!.resolve();
    await Promise.all([first, ...during]);
    assert.equal(started, 2, 'the burst of three became one rerun');
    assert.equal(maxRunning, 1);
    const other = tasks.run('other-key', task);
    gates[2]!.resolve();
    await other;
    assert.equal(started, 3, 'another key runs on its own');
  });

  it('a failing task does not stop the rerun or reject the callers', async () => {
    const tasks = new CoalescedTasks();
    let calls = 0;
    const gate = deferred();
    const task = async (): Promise<void> => {
      calls++;
      if (calls === 1) {
        await gate.promise;
        throw new Error('git failed');
      }
    };
    const first = tasks.run('r', task);
    const second = tasks.run('r', task);
    gate.resolve();
    await Promise.all([first, second]);
    assert.equal(calls, 2);
  });
});

describe('interim local change sets', () => {
  const repos: TempGitRepo[] = [];
  after(() => repos.forEach((r) => r.dispose()));
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

  it('a refresh still running when the run ends does not overwrite the final change set', async () => {
    const repo = new TempGitRepo();
    repos.push(repo);
    repo.write('a.txt', 'one\n');
    repo.commitAll();
    const store = new RunStore();
    store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'c', protocol: 'agency-proxy' } });
    store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r', fields: { title: 'r' } });
    const changes = new LocalChangeSets(runsChangeSetSink(new DriverRuns({ store, connectionId: 'c', storageDir: '/nonexistent', log }, () => 'not journaled'), log));
    const record = (await changes.begin('r', repo.dir))!;
    repo.write('a.txt', 'two\n');
    // Interim and final start together; the final one (later snapshot, `final.txt`) must be what stays.
    const interim = changes.refresh('r', record);
    repo.write('final.txt', 'at the end\n');
    const final = changes.finish('r', record);
    await Promise.all([interim, final]);
    const shown = store.state.changeSets.get(runKeyOf('c', 'r'))!;
    assert.equal(shown.status, 'ready');
    assert.equal(shown.resultTree, (await final).resultTree, 'the final trees are the ones shown');
    // And refreshing after the end changes nothing either.
    repo.write('after.txt', 'after the end\n');
    await changes.refresh('r', record);
    assert.equal(store.state.changeSets.get(runKeyOf('c', 'r'))!.resultTree, (await final).resultTree);
  });
});
