/**
 * The host's one owner of review marks (ui/changeSets/reviewMarks.ts): marks set through it are on disk beside the
 * run's journal and come back in a new instance (a reload, a new window); a toggle for a hunk the change set no
 * longer has is refused as stale; "N of M" for the board waits for the patch and the marks to be read; a removed run
 * is forgotten.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, test } from 'node:test';
import { parseGitPatch } from '../../../../extension/changeSets/patchParser';
import { journalDirOf } from '../../../../extension/drivers/kit/runJournaling';
import type { ChangeSetInfo, ModelState, RunInfo } from '../../../../extension/model/modelTypes';
import { reviewMarksFileOf } from '../../../../extension/storage/reviewMarksFile';
import { readChangeSet } from '../../../../extension/ui/changeSets/changeSetReading';
import { ReviewMarksStore, StaleReviewError, unitsOf } from '../../../../extension/ui/changeSets/reviewMarks';
import { SAMPLE_PATCH } from '../../changeSets/samplePatch';

const storageDir = mkdtempSync(`${tmpdir()}/review-store-`);
after(() => rmSync(storageDir, { recursive: true, force: true }));

const RUN_KEY = 'acp:Ref::session-1';
const run = { key: RUN_KEY, connectionId: 'acp:Ref', runId: 'session-1' } as unknown as RunInfo;
const info: ChangeSetInfo = { runKey: RUN_KEY, source: 'local', status: 'ready', patch: SAMPLE_PATCH };
const state = { runs: new Map([[RUN_KEY, run]]), changeSets: new Map([[RUN_KEY, info]]) } as unknown as ModelState;
const FILES = parseGitPatch(SAMPLE_PATCH).files;

test('marks are written beside the run’s journal and read back by a new instance', async () => {
  const first = new ReviewMarksStore(storageDir, { state }, () => 42);
  const changed: string[] = [];
  first.onDidChange((key) => changed.push(key));
  await first.setReviewed(RUN_KEY, FILES, 0, true, [unitsOf(FILES)[0]![1]!.key]);
  await first.setReviewed(RUN_KEY, FILES, 4, true);
  assert.ok(changed.includes(RUN_KEY));
  assert.ok(existsSync(reviewMarksFileOf(journalDirOf({ storageDir, connectionId: 'acp:Ref' }), 'session-1')));

  const second = new ReviewMarksStore(storageDir, { state });
  const progress = await second.progress(RUN_KEY, FILES);
  assert.equal(progress.reviewed, 2);
  assert.deepEqual(progress.files[0]!.reviewed, [false, true]);
  assert.deepEqual(progress.files[4]!.reviewed, [true]);
});

test('a toggle for a key the file does not have now is refused as stale, and nothing changes', async () => {
  const store = new ReviewMarksStore(storageDir, { state });
  await assert.rejects(store.setReviewed(RUN_KEY, FILES, 0, true, ['not-a-key']), StaleReviewError);
  await assert.rejects(store.setReviewed(RUN_KEY, FILES, 99, true), StaleReviewError);
  assert.equal((await store.progress(RUN_KEY, FILES)).reviewed, 2);
});

test('the board’s count waits for the patch and the marks, then answers without waiting', async () => {
  const store = new ReviewMarksStore(storageDir, { state });
  const fresh: ChangeSetInfo = { ...info };
  const freshState = { runs: state.runs, changeSets: new Map([[RUN_KEY, fresh]]) } as unknown as ModelState;
  const board = new ReviewMarksStore(storageDir, { state: freshState });
  assert.equal(board.progressNow(RUN_KEY, fresh), undefined, 'the patch is still being read');
  await readChangeSet(fresh);
  const loaded = new Promise<void>((resolve) => board.onDidChange(() => resolve()));
  assert.equal(board.progressNow(RUN_KEY, fresh), undefined, 'the marks are still being read');
  await loaded;
  assert.deepEqual(board.progressNow(RUN_KEY, fresh), { reviewed: 2, total: 9 });
  assert.equal(board.progressNow(RUN_KEY, { ...fresh, status: 'capturing' }), undefined);
  store.forget(RUN_KEY);
});
