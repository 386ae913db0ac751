/**
 * The connect's digest of the run index (issue #25 §2, storage/runIndexDigest.ts): written with every merge once the
 * kit says which entries may stay out of the model; a connect reads it — every entry but the older finished runs',
 * which it lists by id — while it names the index on disk; an index written without it (an older version, another
 * writer) makes it unused, the connect reads the index whole and writes it again; two windows' merges keep it true.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { OlderStubs } from '../../../extension/storage/olderStubs';
import { HEAD_COLD, readDigest } from '../../../extension/storage/runIndexDigest';
import type { StoredRun } from '../../../extension/storage/runIndexFile';
import { RunJournal } from '../../../extension/storage/runJournal';

const base = mkdtempSync(join(tmpdir(), 'digest-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

/** Finished runs are "cold" (their activity is their creation time, times ten); a running one never is. */
const coldAt = (entry: StoredRun): number | undefined => (entry.state === 'completed' ? entry.createdAt * 10 : undefined);

function entry(i: number, state = 'completed'): StoredRun {
  return { runId: `r${i}`, title: `Run ${i}`, state, createdAt: i, bytes: 100 };
}

async function storedIndex(dir: string, runs: number): Promise<void> {
  const journal = new RunJournal(dir);
  journal.index.coldAt = coldAt;
  await Promise.all(Array.from({ length: runs }, (_, i) => journal.saveRun(entry(i, i === 2 ? 'running' : 'completed'))));
  await journal.close();
}

test('the digest holds every entry but the older finished runs, which it lists by id, creation and activity, the most recently active first', async () => {
  const dir = mkdtempSync(join(base, 'a'));
  await storedIndex(dir, 200);
  const digest = await readDigest(dir);
  assert.ok(digest, 'written with the merge');
  assert.equal(digest.runs.length, HEAD_COLD + 1, 'the newest finished runs and the running one');
  assert.ok(digest.runs.some((run) => run.runId === 'r2'), 'a run still going is always whole');
  assert.deepEqual(digest.older.all().slice(0, 2), [['r159', 159, 1590], ['r158', 158, 1580]]);
  assert.equal(digest.older.count, 200 - HEAD_COLD - 1);
  assert.deepEqual([digest.bytes, digest.unmeasured], [0, 0], 'the sizes as the writer measured them (no run files here), summed');

  const journal = new RunJournal(dir);
  journal.index.coldAt = coldAt;
  const view = await journal.index.connect();
  assert.deepEqual(view.runs.map((run) => run.runId), digest.runs.map((run) => run.runId), 'a connect reads the digest');
  assert.equal((await journal.loadRun('r5'))?.title, 'Run 5', 'an older one is read from the index (whole, once, when first asked)');
  await journal.close();
});

test('an index written without the digest (an older version) is read whole at connect, and the digest written again', async () => {
  const dir = mkdtempSync(join(base, 'b'));
  await storedIndex(dir, 60);
  const index = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as StoredRun[];
  writeFileSync(join(dir, 'runs.json'), JSON.stringify([...index, entry(500)])); // another writer, no digest
  assert.equal(await readDigest(dir), undefined, 'the digest names another file: unused');

  const journal = new RunJournal(dir);
  journal.index.coldAt = coldAt;
  const view = await journal.index.connect();
  assert.ok(view.runs.some((run) => run.runId === 'r500'), 'read whole: the new entry is there');
  assert.equal(view.runs.length + view.older.count, 61);
  await journal.close();
  const digest = await readDigest(dir);
  assert.ok(digest?.runs.some((run) => run.runId === 'r500'), 'the next connect reads a digest of it');
});

test('two windows merging into one index keep its digest true', async () => {
  const dir = mkdtempSync(join(base, 'c'));
  const a = new RunJournal(dir);
  const b = new RunJournal(dir);
  a.index.coldAt = coldAt;
  b.index.coldAt = coldAt;
  await Promise.all([
    ...Array.from({ length: 50 }, (_, i) => a.saveRun(entry(i))),
    ...Array.from({ length: 50 }, (_, i) => b.saveRun(entry(100 + i))),
  ]);
  await Promise.all([a.close(), b.close()]);
  const digest = await readDigest(dir);
  assert.ok(digest);
  const ids = new Set([...digest.runs.map((run) => run.runId), ...digest.older.all().map(([runId]) => runId)]);
  assert.equal(ids.size, 100, 'both windows\' runs, each once');
  assert.equal(digest.runs.length, HEAD_COLD);
  assert.equal(digest.runs[0]?.runId !== undefined && digest.older.at(0)?.[0], 'r109', 'the older list starts below the newest forty');
});

test('after a connect from the digest, the first whole read is shared: a run asked for meanwhile is found, not "not stored"', async () => {
  const dir = mkdtempSync(join(base, 'd'));
  await storedIndex(dir, 60);
  const journal = new RunJournal(dir);
  journal.index.coldAt = coldAt;
  const view = await journal.index.connect();
  assert.equal(view.older.count, 60 - 1 - HEAD_COLD, 'from the digest: the older runs by id only');
  // Two asks at once (a save's and a view's): the second must wait for the first read, not see an empty index.
  const [all, one] = await Promise.all([journal.loadRuns(), journal.loadRun('r0')]);
  assert.equal(all.length, 60);
  assert.equal(one?.runId, 'r0');
  await journal.close();
});

test('a run removed for good is not in the connect\'s view, even when the index still holds its entry (a crash between the two writes)', async () => {
  const dir = mkdtempSync(join(base, 'e'));
  await storedIndex(dir, 60);
  writeFileSync(join(dir, 'removed.json'), JSON.stringify({ v: 1, runs: [['r59', 1], ['r0', 1]] }));
  const journal = new RunJournal(dir);
  journal.index.coldAt = coldAt;
  const view = await journal.index.connect();
  const ids = [...view.runs.map((run) => run.runId), ...view.older.all().map(([runId]) => runId)];
  assert.equal(ids.length, 58);
  assert.ok(!ids.includes('r59') && !ids.includes('r0'));
  assert.equal(journal.removals.removed('r59'), true, 'and the journal knows them as removed');
  await journal.close();
});

test('after a removal the digest leaves the run out, and a connect looks for no removed run among the older ones', async () => {
  const dir = mkdtempSync(join(base, 'f'));
  await storedIndex(dir, 80);
  const writer = new RunJournal(dir);
  writer.index.coldAt = coldAt;
  assert.equal((await writer.removeRun('r3')).kind, 'removed');
  await writer.close();
  const { without } = OlderStubs.prototype;
  let looked = 0;
  OlderStubs.prototype.without = function (this: OlderStubs, runIds) {
    looked += 1;
    return without.call(this, runIds);
  };
  try {
    const journal = new RunJournal(dir);
    journal.index.coldAt = coldAt;
    const view = await journal.index.connect();
    assert.equal(looked, 0, 'removed.json is the one the digest was made with');
    assert.equal(view.older.has('r3'), false);
    assert.equal(view.runs.length + view.older.count, 79);
    await journal.close();
  } finally {
    OlderStubs.prototype.without = without;
  }
});

test('a digest of the format before (the older runs as JSON arrays) is not used: the index is read whole and the digest written anew', async () => {
  const dir = mkdtempSync(join(base, 'g'));
  await storedIndex(dir, 60);
  const digestFile = join(dir, 'runs.head.json');
  const current = readFileSync(digestFile, 'utf8');
  const head = JSON.parse(current.slice(0, current.indexOf('\n'))) as { of: unknown; runs: unknown };
  writeFileSync(digestFile, JSON.stringify({ v: 1, of: head.of, runs: head.runs, older: [['r0', 0, 0]], bytes: 0, unmeasured: 0 }));
  assert.equal(await readDigest(dir), undefined);
  const journal = new RunJournal(dir);
  journal.index.coldAt = coldAt;
  const view = await journal.index.connect();
  assert.equal(view.runs.length + view.older.count, 60, 'every run, from the index read whole');
  await journal.close();
  assert.equal((await readDigest(dir))?.older.count, 60 - 1 - HEAD_COLD, 'written again in this format');
});

test('a digest whose count of older runs its lines cannot hold is not used (a damaged file allocates nothing for it)', async () => {
  const dir = mkdtempSync(join(base, 'h'));
  await storedIndex(dir, 60);
  const digestFile = join(dir, 'runs.head.json');
  const current = readFileSync(digestFile, 'utf8');
  const newline = current.indexOf('\n');
  const head = JSON.parse(current.slice(0, newline)) as { older: number };
  assert.ok((await readDigest(dir))!.older.count > 0);
  // Rewritten in place: the index's stamp (which the digest names) is unchanged, so only the count says it is damaged.
  writeFileSync(digestFile, `${JSON.stringify({ ...head, older: 2 ** 40 })}${current.slice(newline)}`);
  assert.equal(await readDigest(dir), undefined);
});
