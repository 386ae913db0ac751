/**
 * A removed A3S run stays removed (issue #25 §2 follow-up), against the reference harness. The harness lists no runs
 * (WIRE.md §3: the client pages the events of the runs it names), and still holds the removed run's events: after a
 * reload the editor neither shows the run nor asks the harness anything about it, while a new run is followed as ever;
 * a second window that showed it drops it and puts it back neither in the run index nor on disk.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { safeFileName } from '../../../../extension/storage/runFileName';
import { until } from '../driverKit';
import { connected, driverTestBed } from './a3sDriverKit';

const { startHarness, makeDriver } = driverTestBed('a3srm-');

const dirOf = (storage: string, connectionId: string): string => join(storage, 'transcripts', safeFileName(connectionId));
const indexed = (dir: string): string[] => (JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { runId: string }[]).map((r) => r.runId);
const filesOf = (dir: string, runId: string): string[] => readdirSync(dir).filter((name) => name.startsWith(`${safeFileName(runId)}.`));

type Window = ReturnType<typeof makeDriver>;

async function completedRun(w: Window, prompt: string): Promise<string> {
  const runId = await w.driver.startRun({ prompt, workspaceRoots: [] });
  const key = runKeyOf(w.connectionId, runId);
  await until('the closing line', () => w.store.transcript(key)?.snapshot().some((i) => i.kind === 'notice' && i.state === 'completed'), 60_000);
  await until('its change set', () => w.store.state.changeSets.get(key)?.status === 'ready');
  return runId;
}

async function open(url: string, storageDir: string, windowId: string): Promise<Window> {
  const w = makeDriver(url, storageDir, {}, {}, windowId);
  await w.driver.connect();
  await connected(w.store, w.connectionId);
  return w;
}

test('removed, the run is not shown after a reload nor asked about, a second window drops it and does not put it back, and a new run is followed', async () => {
  const { harness } = await startHarness();
  const a = await open(harness.url, makeDriver(harness.url).storageDir, 'window-A');
  const dir = dirOf(a.storageDir, a.connectionId);
  const gone = await completedRun(a, 'edit the files please');
  await a.driver.flushStorage?.();
  const b = await open(harness.url, a.storageDir, 'window-B');
  await until('B shows A\'s run', () => b.store.state.runs.has(runKeyOf(b.connectionId, gone)));

  assert.equal(await a.driver.history!.remove(gone), 'removed');
  await until('B dropped it (the removed ids\' file changed)', () => !b.store.state.runs.has(runKeyOf(b.connectionId, gone)));
  await a.driver.dispose();
  await b.driver.dispose(); // B saves every run's summary as it closes
  assert.equal(indexed(dir).includes(gone), false, 'not put back in the index');
  assert.deepEqual(filesOf(dir, gone), [], 'no file of it (journal, checkpoint, change set, lease)');

  const reloaded = await open(harness.url, a.storageDir, 'window-A');
  const fresh = await completedRun(reloaded, 'edit the files again');
  assert.equal(reloaded.store.state.runs.has(runKeyOf(reloaded.connectionId, gone)), false, 'the removed run is not shown');
  assert.equal(reloaded.store.state.runs.get(runKeyOf(reloaded.connectionId, fresh))?.state, 'completed', 'the new run is');
  const askedAbout = reloaded.frames.filter((f) => f.dir === 'out' && JSON.stringify(f.frame).includes(gone));
  assert.deepEqual(askedAbout, [], 'nothing was asked of the harness about it');
  await reloaded.driver.dispose();
});
