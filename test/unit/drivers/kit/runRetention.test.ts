/**
 * Retention at connect (drivers/kit/runRetention.ts `retainedRuns`) decides which finished runs are archived from the
 * index entries it has and the digest's older runs, which it does not decode (a binary search over their lines). It
 * must decide exactly what ranking every finished run by its last activity decides — the plain rule, written out here
 * — for any mix of entries and stubs, ties, limits and clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retainedRuns } from '../../../../extension/drivers/kit/runRetention';
import type { HistoryRetention } from '../../../../extension/drivers/kit/runRetention';
import { OlderStubs } from '../../../../extension/storage/olderStubs';
import type { OlderStub } from '../../../../extension/storage/olderStubs';
import type { StoredRun } from '../../../../extension/storage/runJournal';

const DAY = 24 * 60 * 60 * 1000;

function finished(runId: string, activeAt: number): StoredRun {
  return { runId, title: runId, state: 'completed', createdAt: activeAt, summary: { v: 1, items: 1, lastSequence: 1, pendingApprovals: 0, activeAt } };
}

/** The rule: every finished run ranked by last activity (entries before stubs of the same time, stubs by id); past a limit, archived. */
function plainRule(entries: readonly StoredRun[], stubs: readonly OlderStub[], retention: HistoryRetention, now: number): Set<string> {
  const all = [...entries.map((run) => ({ runId: run.runId, at: (run.summary as { activeAt: number }).activeAt, stub: false })), ...stubs.map(([runId, , at]) => ({ runId, at, stub: true }))];
  all.sort((a, b) => b.at - a.at || Number(a.stub) - Number(b.stub) || (a.stub && b.stub ? (a.runId < b.runId ? -1 : 1) : 0));
  return new Set(all.filter((run, rank) => (retention.keepRuns > 0 && rank >= retention.keepRuns) || (retention.keepDays > 0 && now - run.at > retention.keepDays * DAY)).map((run) => run.runId));
}

function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

test('the archived runs and the older runs kept are what ranking every run decides', () => {
  const next = random(25);
  for (let round = 0; round < 300; round++) {
    const now = 100 * DAY;
    // Times on a coarse grid, so that ties between entries and stubs are common.
    const at = (): number => now - Math.floor(next() * 60) * DAY / 2;
    const entries = Array.from({ length: Math.floor(next() * 30) }, (_, i) => finished(`e${i}`, at()));
    const stubs: OlderStub[] = Array.from({ length: Math.floor(next() * 200) }, (_, i) => [`s${i}`, i, at()]);
    const retention = { keepRuns: Math.floor(next() * 3) === 0 ? 0 : Math.floor(next() * 250), keepDays: Math.floor(next() * 3) === 0 ? 0 : Math.floor(next() * 40), keepMegabytes: 0 };
    const expected = plainRule(entries, stubs, retention, now);
    const packed = OlderStubs.of(stubs);
    const got = retainedRuns(entries, retention, now, new OlderStubs(packed.text, packed.count));
    const all = [...entries.map((run) => run.runId), ...stubs.map(([runId]) => runId)];
    assert.deepEqual(all.filter((runId) => got.archived.has(runId)).sort(), [...expected].sort(), `round ${round}: ${JSON.stringify(retention)}`);
    assert.deepEqual(got.older.all().map(([runId]) => runId).sort(), stubs.map(([runId]) => runId).filter((runId) => !expected.has(runId)).sort(), `round ${round}: the older runs kept`);
  }
});

test('with limits, a connect decodes a few of a thousand older runs; without, none', () => {
  const stubs: OlderStub[] = Array.from({ length: 1000 }, (_, i) => [`s${i}`, i, 1000 * DAY - i * 60_000]);
  const packed = OlderStubs.of(stubs);
  let decoded = 0;
  const counting = new (class extends OlderStubs {
    override at(line: number): OlderStub | undefined {
      decoded += 1;
      return super.at(line);
    }
    override all(): readonly OlderStub[] {
      throw new Error('decoded every line');
    }
  })(packed.text, packed.count);
  const kept = retainedRuns([finished('e', 1000 * DAY)], { keepRuns: 200, keepDays: 30, keepMegabytes: 0 }, 1000 * DAY, counting);
  assert.equal(kept.older.count, 199, 'the entry ranks first');
  assert.ok(decoded <= 2 * Math.ceil(Math.log2(1000)) + 2, `${decoded} lines decoded`);
  assert.equal(retainedRuns([], { keepRuns: 0, keepDays: 0, keepMegabytes: 0 }, 0, counting).older, counting, 'no limit: the stubs as they are');
});
