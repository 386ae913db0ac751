/** The run board's projection: which group each run is in, the order and the cap (a row's text: boardRows.test.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardSources } from '../../../extension/model/boardGroups';
import { boardGroups, DEFAULT_FAILED_WINDOW_MS } from '../../../extension/model/boardGroups';
import { boardStructure, placedRows, rowSignature } from '../../../extension/model/boardRows';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { CHANGE_SET_REFUSED_DISPLAY, runDisplay } from '../../../extension/protocol/runStateDisplay';
import { AP, keysOf, noSources, NOW, options, world } from './boardKit';

test('runs go to Needs you, Working or Done by what they need, in a fixed group order', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  const waiting = w.run('ap', 'waiting', 'waiting_approval', 1);
  w.approve(waiting, 'ap-1', 100);
  w.run('ap', 'idle', 'idle', 2);
  w.run('ap', 'failed', 'failed', NOW - 10);
  w.run('ap', 'lost', 'lost', NOW - 20);
  w.run('ap', 'interrupted', 'interrupted', NOW - 30);
  w.run('ap', 'running', 'running', 3);
  w.run('ap', 'starting', 'starting', 4);
  w.run('ap', 'finishing', 'finishing', 5);
  w.run('ap', 'unconfirmed', 'waiting_approval', 6); // restored: no live approval
  w.run('ap', 'completed', 'completed', 7);
  w.run('ap', 'canceled', 'canceled', 8);
  w.run('ap', 'stopped', 'stopped', 9);
  const groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(groups.map((g) => g.label), ['Needs you', 'Working', 'Done']);
  assert.deepEqual(keysOf(groups), {
    needsYou: ['waiting', 'idle', 'failed', 'lost'],
    working: ['unconfirmed', 'finishing', 'starting', 'running'],
    // Interrupted by a reload or a restart: nothing there for the user to decide.
    done: ['interrupted', 'stopped', 'canceled', 'completed'],
  });
  assert.deepEqual(groups[0]!.rows.map((r) => r.need), ['approval', 'message', 'failed', 'failed']);
});

test('approvals: oldest request first, only those waiting for a person, listed under their run', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  const young = w.run('ap', 'young', 'waiting_approval', 50);
  const old = w.run('ap', 'old', 'waiting_approval', 10);
  w.approve(young, 'a1', 200);
  w.approve(old, 'b1', 300);
  w.approve(young, 'a2', 400);
  let groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(keysOf(groups).needsYou, ['young', 'old'], 'the run whose oldest request is oldest comes first');
  assert.deepEqual(groups[0]!.rows[0]!.approvals.map((a) => a.approvalId), ['a1', 'a2']);
  // Deciding takes a request off the board; the run is Working again once none waits.
  w.store.dispatch({ type: 'approvalChange', runKey: young, approvalId: 'a1', change: { kind: 'deciding', decision: 'allow_once', by: 'board' } });
  groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(groups[0]!.rows.find((r) => r.runKey === young)!.approvals.map((a) => a.approvalId), ['a2']);
  w.store.dispatch({ type: 'approvalChange', runKey: young, approvalId: 'a2', change: { kind: 'deciding', decision: 'deny', by: 'board' } });
  w.store.dispatch({ type: 'runUpserted', connectionId: 'ap', runId: 'young', fields: { state: 'running' } });
  groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(keysOf(groups), { needsYou: ['old'], working: ['young'], done: [] });
  // A request whose delivery failed still waits for a person.
  w.store.dispatch({ type: 'approvalChange', runKey: old, approvalId: 'b1', change: { kind: 'deciding', decision: 'allow_once', by: 'board' } });
  assert.deepEqual(keysOf(boardGroups(w.store.state, noSources, options())).needsYou, []);
  w.store.dispatch({ type: 'approvalChange', runKey: old, approvalId: 'b1', change: { kind: 'failed', reason: 'socket closed' } });
  const row = boardGroups(w.store.state, noSources, options())[0]!.rows[0]!;
  assert.equal(row.runKey, old);
  assert.equal(row.approvals[0]!.status, 'failed');
});

test('an approval on a run in any state (an ACP session keeps running) puts it under Needs you', () => {
  const w = world();
  w.connect('acp', 'Gemini', 'acp', ['run.start', 'run.inject', 'run.cancel', 'approvals']);
  const session = w.run('acp', 's1', 'running', 1, 'Refactor the parser');
  w.approve(session, 'p1', 5);
  const row = boardGroups(w.store.state, noSources, options())[0]!.rows[0]!;
  assert.equal(row.need, 'approval');
  assert.equal(row.daemon, 'ACP');
  assert.equal(row.connectionName, 'Gemini');
  assert.equal(row.title, 'Refactor the parser');
});

test('a subagent is under its parent\'s row, not in a group; its request puts the parent under Needs you; it takes no message', () => {
  const w = world();
  w.connect('acp', 'Claude Code', 'acp', ['run.start', 'run.queue', 'run.cancel', 'approvals']);
  const parent = w.run('acp', 'p', 'running', 1, 'Fix the build');
  w.store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'k1', fields: { title: 'Explore', state: 'idle', createdAt: 2, parentRunId: 'p' } });
  w.store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'k2', fields: { title: 'Test', state: 'running', createdAt: 3, parentRunId: 'p' } });
  w.store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'orphan', fields: { title: 'Gone parent', state: 'running', createdAt: 4, parentRunId: 'nope' } });
  let groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(keysOf(groups), { needsYou: [], working: ['orphan', 'p'], done: [] }, 'children nest; a child whose parent is gone stands alone');
  const row = groups[1]!.rows.find((r) => r.runKey === parent)!;
  assert.deepEqual(row.children?.map((c) => [c.title, c.canReply, c.need]), [['Test', false, undefined], ['Explore', false, undefined]], 'newest first; an idle child waits for nobody');
  assert.equal(runDisplay(row.children![1]!.look).label, 'Idle', 'not "Waiting for your message": it takes none');
  assert.deepEqual([...placedRows(groups)].map(([k, p]) => [k.split('::')[1], p.group, p.parentKey?.split('::')[1]]), [['orphan', 'working', undefined], ['p', 'working', undefined], ['k2', 'working', 'p'], ['k1', 'working', 'p']]);
  const before = boardStructure(groups);
  w.approve(runKeyOf('acp', 'k2'), 'q1', 5);
  groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(keysOf(groups).needsYou, ['p'], 'the parent needs you for its child\'s request');
  assert.equal(groups[0]!.rows[0]!.children?.[0]?.approvals[0]?.approvalId, 'q1', 'the request is under the child');
  assert.notEqual(boardStructure(groups), before);
  w.event(runKeyOf('acp', 'k1'), { kind: 'usage', used: 10, size: 100 });
  const child = placedRows(boardGroups(w.store.state, noSources, options())).get(runKeyOf('acp', 'k1'))!;
  assert.deepEqual(child.row.usage, { used: 10, size: 100 }, 'rows carry the usage');
});

test('a run whose agent waits for an answer to its question is under Needs you (after approvals, before messages), also for a subagent\'s question', () => {
  const w = world();
  w.connect('acp', 'Claude Code', 'acp', ['run.start', 'run.queue', 'run.cancel', 'approvals']);
  const asking = w.run('acp', 'asking', 'running', 1, 'Set up the project');
  const approving = w.run('acp', 'approving', 'running', 2);
  w.approve(approving, 'p1', 5);
  w.run('acp', 'idle', 'idle', 3);
  const parent = w.run('acp', 'parent', 'running', 4);
  w.store.dispatch({ type: 'runUpserted', connectionId: 'acp', runId: 'child', fields: { title: 'Explore', state: 'running', createdAt: 5, parentRunId: 'parent' } });
  const waiting = new Map<string, number>([[asking, 1]]);
  const sources: BoardSources = { ...noSources, questions: (key) => waiting.get(key) ?? 0 };
  let groups = boardGroups(w.store.state, sources, options());
  assert.deepEqual(keysOf(groups), { needsYou: ['approving', 'asking', 'idle'], working: ['parent'], done: [] });
  assert.equal(groups[0]!.rows[1]!.need, 'question');
  assert.deepEqual(groups[0]!.rows[1]!.approvals, [], 'nothing to allow or deny: the question is answered in its form');
  const before = rowSignature(groups[0]!.rows[1]!);

  waiting.set(runKeyOf('acp', 'child'), 1);
  groups = boardGroups(w.store.state, sources, options());
  const parentRow = groups[0]!.rows.find((r) => r.runKey === parent);
  assert.equal(parentRow?.need, 'question', 'the parent needs you for its child\'s question');
  assert.equal(parentRow?.children?.[0]?.need, 'question');

  waiting.clear();
  groups = boardGroups(w.store.state, sources, options());
  assert.deepEqual(keysOf(groups), { needsYou: ['approving', 'idle'], working: ['parent', 'asking'], done: [] }, 'answered: back to Working');
  assert.notEqual(rowSignature(groups[1]!.rows.find((r) => r.runKey === asking)!), before, 'the row is re-rendered');
});

test('an idle run waits for a message only where its connected daemon takes one', () => {
  const w = world();
  w.connect('acp', 'Claude Code', 'acp', ['run.start', 'run.inject', 'run.cancel']);
  w.connect('scv', 'SCV', 'scv', ['run.queue']);
  w.connect('a3s', 'A3S', 'a3s', ['run.start']);
  w.connect('off', 'Offline', 'acp', ['run.inject'], false);
  w.run('acp', 'session', 'idle', 4);
  w.run('scv', 'queued', 'idle', 3);
  w.run('a3s', 'noinput', 'idle', 2);
  w.run('off', 'offline', 'idle', 1);
  const groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(keysOf(groups), { needsYou: ['session', 'queued'], working: [], done: ['noinput', 'offline'] });
  assert.deepEqual(groups[0]!.rows.map((r) => r.canReply), [true, true]);
  assert.deepEqual(groups[2]!.rows.map((r) => r.canReply), [false, false]);
});

test('failed runs need you until looked at, and only recently', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  const seen = w.run('ap', 'seen', 'failed', NOW - 100);
  w.run('ap', 'fresh', 'failed', NOW - 200);
  w.run('ap', 'ancient', 'failed', NOW - DEFAULT_FAILED_WINDOW_MS - 1);
  const groups = boardGroups(w.store.state, noSources, options({ acknowledged: new Set([seen]) }));
  assert.deepEqual(keysOf(groups), { needsYou: ['fresh'], working: [], done: ['seen', 'fresh', 'ancient'].filter((k) => k !== 'fresh') });
});

test('after a reload and a daemon restart, Needs you holds only what can be acted on now (the badge counts those rows)', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  w.connect('scv', 'SCV', 'scv', ['run.start', 'run.queue', 'run.cancel', 'approvals']);
  // SCV sessions interrupted by the reload and by the daemon's restart; their requests expired with them.
  for (const [i, id] of ['s1@a', 's2@b', 's3@c'].entries()) {
    const key = w.run('scv', id, 'running', NOW - 500 + i);
    w.approve(key, `scv-${i}`, NOW - 400 + i);
    w.event(key, { kind: 'approvalSettled', approvalId: `scv-${i}`, expired: true, reason: 'Its SCV session ended with the earlier window.' });
    w.event(key, { kind: 'stateChanged', state: 'interrupted', detail: 'reloaded', announce: true });
  }
  // A run the restarted daemon lost while it asked "Edit", then continued in a new run that finished.
  const lost = w.run('ap', 'lost', 'waiting_approval', NOW - 300);
  w.approve(lost, 'edit', NOW - 290);
  w.event(lost, { kind: 'approvalSettled', approvalId: 'edit', expired: true, reason: 'The daemon no longer knows this run.' });
  w.event(lost, { kind: 'stateChanged', state: 'lost', announce: true });
  w.run('ap', 'continued', 'completed', NOW - 100);
  // The one thing that waits for the user.
  const asking = w.run('ap', 'asking', 'waiting_approval', NOW - 50);
  w.approve(asking, 'live', NOW - 40);
  const acknowledged = new Set([lost]); // continued in a new run: acted on (ui/board acknowledges it, stored)
  const groups = boardGroups(w.store.state, noSources, options({ acknowledged }));
  assert.deepEqual(keysOf(groups).needsYou, ['asking']);
  assert.equal(groups[0]!.rows.length, 1, 'the badge is this count');
  assert.deepEqual(keysOf(groups).done, ['continued', 'lost', 's3@c', 's2@b', 's1@a']);
  // Not yet continued, the lost run is something to act on (Continue in a New Run).
  assert.deepEqual(keysOf(boardGroups(w.store.state, noSources, options())).needsYou, ['asking', 'lost']);
});

test('a refused change set makes a finished run a failure on the board: its look says so, and it needs you until looked at', () => {
  const w = world();
  w.connect('a3s', 'A3S', 'a3s', ['run.start', 'changeSets.remote']);
  const bad = w.run('a3s', 'bad', 'completed', NOW - 10);
  const good = w.run('a3s', 'good', 'completed', NOW - 20);
  w.store.dispatch({ type: 'changeSet', changeSet: { runKey: bad, source: 'daemon', status: 'refused', reason: 'The digest check failed' } });
  w.store.dispatch({ type: 'changeSet', changeSet: { runKey: good, source: 'daemon', status: 'ready', patch: '' } });
  let groups = boardGroups(w.store.state, noSources, options());
  assert.deepEqual(keysOf(groups), { needsYou: ['bad'], working: [], done: ['good'] });
  const row = groups[0]!.rows[0]!;
  assert.equal(row.need, 'failed');
  assert.equal(row.look.changeSetRefused, 'The digest check failed');
  assert.deepEqual(runDisplay(row.look), CHANGE_SET_REFUSED_DISPLAY, 'not the green tick of "Completed"');
  assert.equal(runDisplay(groups[2]!.rows[0]!.look).label, 'Completed');
  groups = boardGroups(w.store.state, noSources, options({ acknowledged: new Set([bad]) }));
  assert.deepEqual(keysOf(groups).done, ['bad', 'good']);
  assert.equal(runDisplay(groups[2]!.rows[0]!.look).label, 'Change set refused', 'still refused in Done');
});

test('Done is newest first and capped; the rest is counted', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  for (let i = 0; i < 25; i++) {
    w.run('ap', `r${String(i).padStart(2, '0')}`, i % 2 ? 'completed' : 'canceled', 1000 + i);
  }
  const done = boardGroups(w.store.state, noSources, options({ doneLimit: 20 }))[2]!;
  assert.equal(done.rows.length, 20);
  assert.equal(done.hidden, 5);
  assert.equal(done.rows[0]!.runKey, runKeyOf('ap', 'r24'));
  assert.equal(done.rows[19]!.runKey, runKeyOf('ap', 'r05'));
  assert.equal(boardGroups(w.store.state, noSources, options({ doneLimit: 40 }))[2]!.hidden, 0);
  assert.equal(boardGroups(w.store.state, noSources, options({ doneLimit: 0 }))[2]!.hidden, 25);
  // Only the rows shown are built: the last line and change stats of a run past the cap are never asked for.
  const asked = new Set<string>();
  const counting: BoardSources = { ...noSources, lastLine: (key) => (asked.add(key), undefined), changeStats: (key) => (asked.add(key), undefined) };
  boardGroups(w.store.state, counting, options({ doneLimit: 3 }));
  assert.deepEqual([...asked].sort(), ['r22', 'r23', 'r24'].map((id) => runKeyOf('ap', id)));
});

test('a run without its connection is not on the board', () => {
  const w = world();
  w.connect('ap', 'AgencyProxy', 'agency-proxy', AP);
  w.run('ap', 'a', 'running', 1);
  w.store.dispatch({ type: 'connectionRemoved', connectionId: 'ap' });
  assert.deepEqual(keysOf(boardGroups(w.store.state, noSources, options())), { needsYou: [], working: [], done: [] });
});
