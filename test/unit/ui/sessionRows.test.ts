import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunInfo } from '../../../extension/model/modelTypes';
import type { RunState } from '../../../extension/protocol/transcriptTypes';
import { sessionRows } from '../../../extension/ui/sessionRows';

const run = (id: string, title: string, state: RunState, createdAt: number): RunInfo => ({ key: `scv:x::${id}`, title, state, createdAt }) as unknown as RunInfo;

test('SCV: the live session of a name goes first, its ended ones collapse into one row', () => {
  const runs = [
    run('s1', 'SCV session — ws', 'interrupted', 1),
    run('s2', 'SCV session — ws', 'interrupted', 2),
    run('s3', 'SCV session — ws', 'idle', 3),
    run('t1', 'SCV session — other', 'interrupted', 0),
  ];
  assert.deepEqual(sessionRows(runs, true), [
    { kind: 'run', key: 'scv:x::s3' },
    { kind: 'ended', title: 'SCV session — ws', keys: ['scv:x::s2', 'scv:x::s1'] },
    { kind: 'run', key: 'scv:x::t1' },
  ]);
});

test('SCV: a name with only ended sessions still collapses them; a single session stays a row', () => {
  const runs = [run('a', 'A', 'interrupted', 1), run('b', 'A', 'interrupted', 2), run('c', 'B', 'running', 3)];
  assert.deepEqual(sessionRows(runs, true), [
    { kind: 'run', key: 'scv:x::c' },
    { kind: 'ended', title: 'A', keys: ['scv:x::b', 'scv:x::a'] },
  ]);
});

test('SCV: one ended session beside the live one stays a row below it', () => {
  const runs = [run('old', 'A', 'interrupted', 1), run('new', 'A', 'idle', 2)];
  assert.deepEqual(sessionRows(runs, true), [
    { kind: 'run', key: 'scv:x::new' },
    { kind: 'run', key: 'scv:x::old' },
  ]);
});

test('other daemons: one row per run, newest first, nothing grouped', () => {
  const runs = [run('a', 'A', 'completed', 1), run('b', 'A', 'completed', 2)];
  assert.deepEqual(sessionRows(runs, false), [
    { kind: 'run', key: 'scv:x::b' },
    { kind: 'run', key: 'scv:x::a' },
  ]);
});
