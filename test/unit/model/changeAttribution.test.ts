/**
 * Who changed each file when runs share a working tree (issue #26): two runs overlapping in time on one repository,
 * one of them an agent that reports its edits (ACP), the other computed from the tree alone (AgencyProxy). The
 * issue's case: the other agent's README edit inside a local change set.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attributeFiles, authorText, windowsOverlap } from '../../../extension/model/changeAttribution';
import type { AttributionRun } from '../../../extension/model/changeAttribution';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { SharedTrees } from '../../../extension/model/sharedTrees';
import type { RunState } from '../../../extension/protocol/transcriptTypes';

const REPO = '/work/repo';
const section = (path: string) => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;

function world() {
  const store = new RunStore(() => 0, (e) => assert.fail(String(e)));
  for (const [id, protocol] of [['acp', 'acp'], ['ap', 'agency-proxy'], ['a3s', 'a3s']] as const) {
    store.dispatch({ type: 'connectionAdded', connection: { id, name: id, protocol } });
  }
  const run = (connectionId: string, runId: string, title: string, createdAt: number, state: RunState = 'running') => {
    store.dispatch({ type: 'runUpserted', connectionId, runId, fields: { title, state, createdAt } });
    return runKeyOf(connectionId, runId);
  };
  const changeSet = (runKey: string, files: readonly string[], source: 'local' | 'daemon' = 'local') =>
    store.dispatch({ type: 'changeSet', changeSet: { runKey, source, status: 'ready', patch: files.map(section).join(''), ...(source === 'local' ? { repo: REPO } : {}) } });
  const report = (runKey: string, paths: readonly string[], at: number) => store.dispatch({ type: 'runEvent', runKey, event: { kind: 'filesEdited', paths, at } });
  return { store, run, changeSet, report };
}

test('two overlapping runs on one tree: each reported file goes to the run that reported it, the rest is a shared-tree guess', () => {
  const w = world();
  const acp = w.run('acp', 's1', 'Fix the README', 100);
  const ap = w.run('ap', 'r1', 'Refactor parser', 150);
  // Both local change sets hold README.md: the ACP agent edited it (it said so) while the AgencyProxy run was active.
  w.report(acp, [`${REPO}/README.md`, `${REPO}/docs/a.md`], 200);
  w.changeSet(acp, ['README.md', 'docs/a.md', 'src/parser.ts']);
  w.changeSet(ap, ['README.md', 'docs/a.md', 'src/parser.ts']);
  const trees = new SharedTrees(w.store.state);
  assert.deepEqual(trees.sharing(ap).map((r) => r.runKey), [acp]);

  const forAp = trees.authors(ap, ['README.md', 'docs/a.md', 'src/parser.ts']);
  assert.deepEqual(forAp.get('README.md'), { kind: 'run', runKey: acp, title: 'Fix the README' }, 'the issue case: not silently the AgencyProxy run');
  assert.deepEqual(forAp.get('docs/a.md'), { kind: 'run', runKey: acp, title: 'Fix the README' });
  assert.deepEqual(forAp.get('src/parser.ts'), { kind: 'shared' }, 'nobody reported it and the tree was shared');

  const forAcp = trees.authors(acp, ['README.md', 'docs/a.md', 'src/parser.ts']);
  assert.deepEqual(forAcp.get('README.md'), { kind: 'self' });
  assert.deepEqual(forAcp.get('src/parser.ts'), { kind: 'shared' }, 'its own set also holds the change nobody reported');
  assert.equal(authorText(forAp.get('README.md')), 'by Fix the README');
  assert.equal(authorText(forAp.get('src/parser.ts')), 'shared tree');
  assert.equal(authorText(forAcp.get('README.md')), undefined);
});

test('a run alone in its tree, a run that ended before the other started, and a delivered change set keep their files', () => {
  const w = world();
  const early = w.run('ap', 'early', 'Earlier run', 10, 'completed');
  const acp = w.run('acp', 's1', 'Later session', 100);
  w.report(acp, [`${REPO}/README.md`], 120);
  w.changeSet(early, ['README.md']);
  w.changeSet(acp, ['README.md']);
  const a3s = w.run('a3s', 'x', 'Delivered', 110);
  w.store.dispatch({ type: 'runUpserted', connectionId: 'a3s', runId: 'x', fields: { workspaceRoots: [REPO] } });
  w.changeSet(a3s, ['README.md', 'z.ts'], 'daemon');
  const trees = new SharedTrees(w.store.state);
  assert.deepEqual(trees.sharing(early), [], 'it ended (its last known work at its start) before the others started');
  assert.deepEqual(trees.authors(early, ['README.md']).get('README.md'), { kind: 'self' });
  assert.deepEqual(trees.authors(a3s, ['README.md', 'z.ts']).get('z.ts'), { kind: 'self' }, 'the daemon delivered it: its own account');
  assert.deepEqual(trees.authors(a3s, ['README.md']).get('README.md'), { kind: 'self' });
});

test('an edit another run reported before this run started is in its base, not its change: a guess, not theirs', () => {
  const run = (runKey: string, start: number, reported: Record<string, number>, end?: number): AttributionRun => ({
    runKey, title: runKey, tree: REPO, start, ...(end !== undefined ? { end } : {}), reported: new Map(Object.entries(reported)), delivered: false,
  });
  const me = run('me', 100, {});
  const other = run('other', 50, { 'a.ts': 60, 'b.ts': 150 });
  const authors = attributeFiles(me, ['a.ts', 'b.ts'], [other]);
  assert.deepEqual(authors.get('a.ts'), { kind: 'shared' });
  assert.deepEqual(authors.get('b.ts'), { kind: 'run', runKey: 'other', title: 'other' });
  assert.equal(windowsOverlap({ start: 0, end: 10 }, { start: 11 }), false);
  assert.equal(windowsOverlap({ start: 0 }, { start: 11, end: 12 }), true);
});
