/**
 * What a run board row says (model/boardRows.ts): the last line, change stats, review progress and the daemon's label;
 * its signature and the board's structure.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardSources } from '../../../extension/model/boardGroups';
import { boardGroups } from '../../../extension/model/boardGroups';
import { boardStructure, changeStatsText, reviewCountText, rowSignature } from '../../../extension/model/boardRows';
import { AP, noSources, options, world } from './boardKit';

test('rows carry the last line and the change stats from the sources, and the daemon label per protocol', () => {
  const w = world();
  w.connect('ap', 'work', 'agency-proxy', AP);
  w.connect('hive', 'hive', 'hive', ['hive.operatorMessage']);
  const a = w.run('ap', 'a', 'running', 1, 'Tidy up');
  const b = w.run('hive', 'b', 'completed', 2, 'Agent b');
  const sources: BoardSources = {
    lastLine: (key) => (key === a ? 'Reading README.md' : undefined),
    changeStats: (key) => (key === b ? { added: 12, removed: 3 } : undefined),
    questions: () => 0,
  };
  const groups = boardGroups(w.store.state, sources, options());
  const rowA = groups[1]!.rows[0]!;
  const rowB = groups[2]!.rows[0]!;
  assert.equal(rowA.lastLine, 'Reading README.md');
  assert.equal('changes' in rowA, false);
  assert.deepEqual(rowB.changes, { added: 12, removed: 3 });
  assert.equal('lastLine' in rowB, false);
  assert.deepEqual([rowA.daemon, rowB.daemon], ['AgencyProxy', 'hyperhive']);
  assert.equal(changeStatsText(rowB.changes!), '+12 \u22123');
});

test('rows carry "N of M hunks reviewed" when it is known and there is something to review; it changes the signature', () => {
  const w = world();
  w.connect('ap', 'work', 'agency-proxy', AP);
  const a = w.run('ap', 'a', 'completed', 1, 'Reviewed in part');
  const b = w.run('ap', 'b', 'completed', 2, 'Nothing to review');
  const c = w.run('ap', 'c', 'completed', 3, 'Marks not read yet');
  let reviewed = 2;
  const sources: BoardSources = {
    ...noSources,
    reviewProgress: (key) => (key === a ? { reviewed, total: 5 } : key === b ? { reviewed: 0, total: 0 } : undefined),
  };
  const rows = new Map(boardGroups(w.store.state, sources, options())[2]!.rows.map((r) => [r.runKey, r]));
  assert.deepEqual(rows.get(a)!.review, { reviewed: 2, total: 5 });
  assert.equal(reviewCountText(rows.get(a)!.review!), '2 of 5 hunks reviewed');
  assert.equal('review' in rows.get(b)!, false);
  assert.equal('review' in rows.get(c)!, false);
  const before = rowSignature(rows.get(a)!);
  reviewed = 3;
  const after = boardGroups(w.store.state, sources, options())[2]!.rows.find((r) => r.runKey === a)!;
  assert.notEqual(rowSignature(after), before, 'a new count re-renders the row');
  assert.equal(reviewCountText({ reviewed: 1, total: 1 }), '1 of 1 hunk reviewed');
});

test('signatures change with what a row shows; the structure only with where rows sit', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  const a = w.run('ap', 'a', 'running', 1);
  let line = 'one';
  const sources: BoardSources = { lastLine: () => line, changeStats: () => undefined, questions: () => 0 };
  const first = boardGroups(w.store.state, sources, options());
  line = 'two';
  const second = boardGroups(w.store.state, sources, options());
  assert.equal(boardStructure(first), boardStructure(second));
  assert.notEqual(rowSignature(first[1]!.rows[0]!), rowSignature(second[1]!.rows[0]!));
  w.approve(a, 'x', 5);
  const third = boardGroups(w.store.state, sources, options());
  assert.notEqual(boardStructure(second), boardStructure(third));
});
