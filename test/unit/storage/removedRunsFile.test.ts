/**
 * The removed run ids beside the run index (removedRunsFile.ts): written with the index under its lock, an entry saved
 * for a removed run refused, an entry of one written anyway (a window of an older version) left out on reading, ids
 * that are only strings (whatever a daemon names its runs), the newest kept past the cap, unreadable text as none.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MAX_REMOVED_RUNS, mergedRemovedRuns, readRemovedRuns, REMOVED_RUNS_FILE } from '../../../extension/storage/removedRunsFile';
import { mergeRunIndex, readRunIndexState } from '../../../extension/storage/runIndexFile';
import type { StoredRun } from '../../../extension/storage/runIndexFile';

const base = mkdtempSync(join(tmpdir(), 'removed-file-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

const entry = (runId: string): StoredRun => ({ runId, title: runId, state: 'completed', createdAt: 1 });

test('a removal takes the entry out and keeps the id in one locked step; the entry saved again is refused; no temporary file is left', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await mergeRunIndex(dir, { saved: new Map([['a', entry('a')], ['b', entry('b')]]), removed: new Set() });
  const state = await mergeRunIndex(dir, { saved: new Map(), removed: new Set(['a']), removedForGood: { added: new Map([['a', 5]]) } });
  assert.deepEqual(state.entries.map((r) => r.runId), ['b']);
  assert.deepEqual([...state.removed], [['a', 5]]);
  // Another window that still shows `a` saves it: refused.
  const again = await mergeRunIndex(dir, { saved: new Map([['a', entry('a')]]), removed: new Set() });
  assert.deepEqual(again.entries.map((r) => r.runId), ['b']);
  assert.deepEqual(readdirSync(dir).sort(), [REMOVED_RUNS_FILE, 'runs.json'].sort());
  // Dropped (its daemon no longer lists it): a run of that id may be indexed again.
  await mergeRunIndex(dir, { saved: new Map(), removed: new Set(), removedForGood: { dropped: new Set(['a']) } });
  const back = await mergeRunIndex(dir, { saved: new Map([['a', entry('a')]]), removed: new Set() });
  assert.deepEqual(back.entries.map((r) => r.runId).sort(), ['a', 'b']);
  assert.equal(back.removed.size, 0);
});

test('an entry of a removed run written by a window that does not know removed ids is left out on reading', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  writeFileSync(join(dir, 'runs.json'), JSON.stringify([entry('old'), entry('gone')]));
  writeFileSync(join(dir, REMOVED_RUNS_FILE), JSON.stringify({ v: 1, runs: [['gone', 1]] }));
  assert.deepEqual((await readRunIndexState(dir)).entries.map((r) => r.runId), ['old']);
  const merged = await mergeRunIndex(dir, { saved: new Map(), removed: new Set() });
  assert.deepEqual(merged.entries.map((r) => r.runId), ['old'], 'and the next write takes it out of the file');
});

test('ids are plain strings (__proto__ included); malformed pairs and unreadable files count as none', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await mergeRunIndex(dir, { saved: new Map(), removed: new Set(), removedForGood: { added: new Map([['__proto__', 3], ['constructor', 4]]) } });
  assert.deepEqual([...(await readRemovedRuns(dir))].sort(), [['__proto__', 3], ['constructor', 4]]);
  writeFileSync(join(dir, REMOVED_RUNS_FILE), JSON.stringify({ v: 1, runs: [['ok', 1], [2, 2], ['nan', 'x'], 'loose', null] }));
  assert.deepEqual([...(await readRemovedRuns(dir))], [['ok', 1]]);
  writeFileSync(join(dir, REMOVED_RUNS_FILE), '{"v":1,"runs":[["torn"');
  assert.equal((await readRemovedRuns(dir)).size, 0);
});

test('past the cap the oldest removals are dropped, the newest kept', () => {
  const onDisk = new Map(Array.from({ length: MAX_REMOVED_RUNS }, (_, i) => [`r${i}`, i] as const));
  const merged = mergedRemovedRuns(onDisk, { added: new Map([['new', MAX_REMOVED_RUNS + 1]]) })!;
  assert.equal(merged.size, MAX_REMOVED_RUNS);
  assert.equal(merged.has('new'), true);
  assert.equal(merged.has('r0'), false, 'the oldest went');
  assert.equal(merged.has('r1'), true);
  assert.equal(mergedRemovedRuns(onDisk, { dropped: new Set(['absent']) }), undefined, 'nothing changed: nothing to write');
});
