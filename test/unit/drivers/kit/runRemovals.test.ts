/**
 * A removed run stays removed (issue #25 §2 follow-up), through the door every driver uses (DriverRuns): its id is
 * stored beside the run index, so after a reload news of it brings nothing back and its entry is never saved again;
 * another window that still shows it drops it when it reads the index, and neither indexes nor journals it meanwhile;
 * the ids a daemon no longer lists (asked after the removal) are forgotten, and a run of that id is then shown again.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { Journaling, RestorePolicy } from '../../../../extension/drivers/kit/runJournaling';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { safeFileName } from '../../../../extension/storage/runFileName';
import { quietLog } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'removed-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
const C = 'c';
const policy: RestorePolicy<never> = { open: () => true, state: 'as replayed', lazy: true };

function newStore(): RunStore {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'agency-proxy' } });
  return store;
}

/** One window's door on the shared storage (`told`: the runs the editor was told are gone). */
function window(storageDir: string, windowId: string, told: string[] = []) {
  const store = newStore();
  const runs = new DriverRuns({ store, connectionId: C, storageDir, log: quietLog, windowId, runRemoved: (runKey) => void told.push(runKey) }, () => journaled);
  return { store, runs, told, shows: (runId: string) => store.state.runs.has(runKeyOf(C, runId)) };
}

const dirOf = (storageDir: string): string => join(storageDir, 'transcripts', readdirSync(join(storageDir, 'transcripts'))[0]!);
const indexed = (storageDir: string): string[] => (JSON.parse(readFileSync(join(dirOf(storageDir), 'runs.json'), 'utf8')) as { runId: string }[]).map((r) => r.runId).sort();
const removedIds = (storageDir: string): string[] => {
  const file = join(dirOf(storageDir), 'removed.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { runs: [string, number][] }).runs.map(([id]) => id).sort() : [];
};
const filesOf = (storageDir: string, runId: string): string[] => readdirSync(dirOf(storageDir)).filter((name) => name.startsWith(`${safeFileName(runId)}.`));

/** A finished run with a line of transcript, indexed. */
async function finishedRun(runs: DriverRuns, runId: string): Promise<void> {
  await runs.fields(runId, { title: runId, state: 'running', createdAt: 1 });
  await runs.event(runId, { kind: 'textDelta', text: `answer of ${runId}` }, 1);
  await runs.fields(runId, { state: 'completed' });
  await runs.saveRun(runId);
}

test('after a reload a removed run stays out: its id is stored, news of it brings nothing back, its entry is never saved again', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  let w = window(storageDir, 'w');
  await finishedRun(w.runs, 'gone');
  await finishedRun(w.runs, 'kept');
  assert.equal(await w.runs.history.remove('gone'), 'removed');
  await w.runs.close();
  assert.deepEqual(removedIds(storageDir), ['gone']);

  w = window(storageDir, 'w'); // the window reloads
  await w.runs.replay(policy);
  assert.equal(w.shows('kept'), true);
  assert.equal(w.shows('gone'), false);
  assert.equal(w.runs.history.leftOut('gone'), true, 'a daemon list naming it is refused');
  // What a driver would record of it after the reload (a daemon's list restating it, a late event): nothing.
  await w.runs.fields('gone', { title: 'gone', state: 'completed', createdAt: 1 });
  await w.runs.event('gone', { kind: 'notice', level: 'info', text: 'Run completed' });
  await w.runs.saveRun('gone');
  assert.equal(w.shows('gone'), false, 'news of it brings it back neither to the tree nor to the board');
  await w.runs.close();
  assert.deepEqual(indexed(storageDir), ['kept']);
  assert.deepEqual(filesOf(storageDir, 'gone'), [], 'no file of it written again');
  assert.deepEqual((await window(storageDir, 'w').runs.history.archived()).map((s) => s.runId), [], 'nor is it found by Search Run History');
});

test('a window still showing a run another window removed neither indexes nor journals it, and drops it at its next read of the index', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  const a = window(storageDir, 'wa');
  await finishedRun(a.runs, 'x');
  await a.runs.flush();
  const b = window(storageDir, 'wb');
  await b.runs.replay({ ...policy, lazy: false });
  assert.equal(b.shows('x'), true, 'B shows A\'s run');

  assert.equal(await a.runs.history.remove('x'), 'removed');
  // B has not read the index since: what it records of the run stays in memory, what it saves is refused.
  await b.runs.event('x', { kind: 'notice', level: 'info', text: 'still here in B' });
  await b.runs.saveRun('x');
  await b.runs.flush();
  assert.deepEqual(filesOf(storageDir, 'x'), [], 'B wrote no journal, lease or checkpoint of it');
  assert.deepEqual(indexed(storageDir), [], 'B did not put it back in the index');

  await b.runs.replay(policy, true); // B reads the index again (the journal directory's watch)
  assert.equal(b.shows('x'), false, 'B dropped it');
  assert.deepEqual(b.told, [runKeyOf(C, 'x')], 'B\'s editor was told (its draft, selection and tab go)');
  await Promise.all([a.runs.close(), b.runs.close()]);
  assert.deepEqual(indexed(storageDir), []);
  assert.deepEqual(filesOf(storageDir, 'x'), []);
  const c = window(storageDir, 'wc');
  await c.runs.replay(policy);
  assert.equal(c.shows('x'), false, 'a third window never sees it');
  await c.runs.close();
});

test('removed ids the daemon no longer lists, in a list asked for after the removal, are forgotten; a run of that id is then shown again', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  const w = window(storageDir, 'w');
  await w.runs.replay(policy);
  for (const runId of ['r1', 'r2']) {
    await finishedRun(w.runs, runId);
  }
  const askedBefore = w.runs.history.removals.beginListing();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await w.runs.history.remove('r1'), 'removed');
  await askedBefore([]); // a list asked for before r1 was removed says nothing of it
  assert.deepEqual(removedIds(storageDir), ['r1']);

  assert.equal(await w.runs.history.remove('r2'), 'removed');
  // Same millisecond as the removal: not "after" it, kept. Wait for the clock to move on, as a later list would.
  const removedAt = Date.now();
  while (Date.now() <= removedAt) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const listed = w.runs.history.removals.beginListing();
  await listed(['r2', 'other']); // the daemon still lists r2, no longer r1 (it restarted since r1 was listed)
  assert.deepEqual(removedIds(storageDir), ['r2'], 'r1 forgotten, r2 kept');
  assert.equal(w.runs.history.leftOut('r2'), true);
  assert.equal(w.runs.history.leftOut('r1'), false);

  // A new run that happens to have r1's id (a restarted daemon may reuse ids): shown and stored like any other.
  await finishedRun(w.runs, 'r1');
  assert.equal(w.shows('r1'), true);
  await w.runs.close();
  assert.deepEqual(indexed(storageDir), ['r1']);
});
