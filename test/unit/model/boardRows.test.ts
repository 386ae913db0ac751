/**
 * What a run board row says (model/boardRows.ts): the last line, change stats, review progress and the daemon's label;
 * its signature and the board's structure.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardSources } from '../../../extension/model/boardGroups';
import { boardGroups } from '../../../extension/model/boardGroups';
import { boardStructure, changeStatsText, reviewCountText, rowSignature, rowTimeText, startedText, ticksElapsed } from '../../../extension/model/boardRows';
import { clockText } from '../../../extension/model/elapsedText';
import { AP, NOW, noSources, options, world } from './boardKit';

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

test('only a live row without children that needs nobody ticks: a row with requests (or subagents) under it, or awaiting a message, says since when', () => {
  const w = world();
  w.connect('ap', 'work', 'agency-proxy', AP);
  w.connect('acp', 'acp', 'acp', ['run.start', 'approvals']);
  w.run('ap', 'leaf', 'running', NOW - 42_000);
  const asking = w.run('ap', 'asking', 'running', NOW - 90_000);
  w.approve(asking, 'x', NOW - 30_000);
  w.approve(asking, 'y', NOW - 10_000);
  w.run('acp', 'parent', 'running', NOW - 5_000);
  w.store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'kid', fields: { title: 'Explore', state: 'running', createdAt: NOW - 2_000, parentRunId: 'parent' } });
  w.run('ap', 'done', 'completed', NOW - 180_000);
  // Under Needs you, waiting for the user's next message: its inline Reply / End must not be redrawn under a click.
  w.run('ap', 'idle', 'idle', NOW - 60_000);
  const rows = new Map(boardGroups(w.store.state, noSources, options()).flatMap((g) => g.rows).flatMap((r) => [r, ...(r.children ?? [])]).map((r) => [r.runKey.split('::')[1], r]));
  assert.deepEqual(
    [...rows].map(([k, r]) => [k, ticksElapsed(r)]).sort(),
    [['asking', false], ['done', false], ['idle', false], ['kid', true], ['leaf', true], ['parent', false]],
    'the leaf and the subagent tick; the row with requests, the one awaiting a message, the parent of a subagent and the finished run do not',
  );
  assert.equal(rowTimeText(rows.get('leaf')!, NOW), '42s');
  assert.equal(rowTimeText(rows.get('asking')!, NOW), `waiting since ${clockText(NOW - 30_000, NOW)}`, 'since its oldest request');
  assert.equal(rowTimeText(rows.get('asking')!, NOW + 3_600_000), rowTimeText(rows.get('asking')!, NOW), 'its text does not change with time');
  assert.equal(rowTimeText(rows.get('parent')!, NOW), `started ${clockText(NOW - 5_000, NOW)}`);
  assert.equal(rowTimeText(rows.get('done')!, NOW), '3m ago');
  assert.equal(rows.get('idle')!.need, 'message');
  assert.equal(rowTimeText(rows.get('idle')!, NOW), `started ${clockText(NOW - 60_000, NOW)}`);
  assert.deepEqual([startedText(rows.get('leaf')!, NOW), startedText(rows.get('asking')!, NOW)], ['started 42s ago', `started ${clockText(NOW - 90_000, NOW)}`]);
});
