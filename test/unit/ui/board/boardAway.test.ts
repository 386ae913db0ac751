/**
 * A board row's "since you looked": the files changed since the user last looked at the run — by content of its
 * change set and by what its agent reported — with who changed them on a shared tree; nothing while it is looked at;
 * cleared by looking.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcknowledgementMemento } from '../../../../extension/ui/board/boardAcknowledgements';
import { AwaySource, awayOf, currentSignatures } from '../../../../extension/ui/board/boardAway';
import { SeenRuns } from '../../../../extension/ui/board/seenRuns';
import { boardGroups, DEFAULT_FAILED_WINDOW_MS } from '../../../../extension/model/boardGroups';
import { rowSignature } from '../../../../extension/model/boardRows';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';

const REPO = '/w/repo';
const section = (path: string, to = 'b') => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+${to}\n`;

function memento(): AcknowledgementMemento {
  const data: Record<string, unknown> = {};
  return { get: <T>(k: string) => data[k] as T | undefined, update: (k: string, v: unknown) => ((data[k] = v), Promise.resolve()) };
}

function world() {
  const store = new RunStore(() => 0, (e) => assert.fail(String(e)));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'acp', name: 'acp', protocol: 'acp' } });
  store.dispatch({ type: 'connectionAdded', connection: { id: 'ap', name: 'ap', protocol: 'agency-proxy' } });
  const seen = new SeenRuns(memento(), 0);
  let looking: string | undefined;
  const source = new AwaySource(store, { runs: seen, looking: () => looking });
  const run = (connectionId: string, runId: string, title: string, createdAt: number) => {
    store.dispatch({ type: 'runUpserted', connectionId, runId, fields: { title, state: 'running', createdAt } });
    return runKeyOf(connectionId, runId);
  };
  const changeSet = (runKey: string, patch: string) => store.dispatch({ type: 'changeSet', changeSet: { runKey, source: 'local', status: 'ready', patch, repo: REPO } });
  const look = (runKey: string, at: number) => seen.mark(runKey, currentSignatures(store.state.runs.get(runKey)!, store.state.changeSets.get(runKey)), at);
  const away = (runKey: string) => {
    const result = source.of(runKey);
    source.projected(new Map([[runKey, null]]));
    return result;
  };
  return { store, seen, run, changeSet, look, away, setLooking: (k: string | undefined) => (looking = k) };
}

test('a run changes files while another is looked at: its row counts them, names them with their authors, and looking clears it', () => {
  const w = world();
  const acp = w.run('acp', 's', 'Docs session', 100);
  const ap = w.run('ap', 'r', 'Parser run', 100);
  w.changeSet(ap, section('src/p.ts'));
  w.look(ap, 200);
  w.setLooking(acp);
  // Meanwhile: the ACP agent edits the README (and says so); the AgencyProxy run's tree diff picks that edit up too.
  w.store.dispatch({ type: 'runEvent', runKey: acp, event: { kind: 'filesEdited', paths: [`${REPO}/README.md`], at: 300 } });
  w.changeSet(ap, section('src/p.ts', 'c') + section('README.md') + section('src/q.ts'));
  const away = w.away(ap);
  assert.equal(away?.count, 3);
  assert.equal(away?.seenAt, 200);
  assert.deepEqual(
    away?.files.map((f) => [f.path, f.by?.kind === 'run' ? f.by.title : f.by?.kind]),
    [['README.md', 'Docs session'], ['src/p.ts', 'shared'], ['src/q.ts', 'shared']],
  );
  assert.equal(w.away(acp), undefined, 'the run looked at now has nothing waiting: its changes are seen as they come');
  w.setLooking(ap);
  assert.equal(w.away(ap), undefined);
  w.look(ap, 400);
  w.setLooking(undefined);
  assert.equal(w.away(ap), undefined, 'looked at: nothing new since');
  w.changeSet(ap, section('src/p.ts', 'c') + section('README.md') + section('src/q.ts')); // computed again, same content
  assert.equal(w.away(ap), undefined, 'a change set computed again with the same content is nothing new');
});

test('reported edits after the look count, earlier ones do not; a file undone since counts; a run from before seen state has nothing', () => {
  const w = world();
  const acp = w.run('acp', 's', 'Session', 100);
  w.store.dispatch({ type: 'runEvent', runKey: acp, event: { kind: 'filesEdited', paths: [`${REPO}/a.ts`], at: 150 } });
  w.changeSet(acp, section('a.ts') + section('b.ts'));
  w.look(acp, 200);
  w.store.dispatch({ type: 'runEvent', runKey: acp, event: { kind: 'filesEdited', paths: [`${REPO}/c.ts`], at: 250 } });
  w.changeSet(acp, section('a.ts') + section('c.ts'));
  const away = w.away(acp);
  assert.deepEqual(away?.files.map((f) => f.path), ['c.ts', 'b.ts'], 'the newest report first, then b.ts, whose change was undone');
  const old = w.store.state.runs.get(acp)!;
  assert.equal(awayOf({ run: old, changeSet: undefined, tree: REPO, seen: undefined, since: 1000 }, () => new Map()), undefined);
  assert.equal(awayOf({ run: old, changeSet: undefined, tree: REPO, seen: undefined, since: 0 }, () => new Map())?.count, 2, 'never looked at: all its reports');
});

test('the board row carries the summary, and computing it again reads no transcript (the cached object comes back)', () => {
  const w = world();
  const ap = w.run('ap', 'r', 'Parser run', 100);
  w.look(ap, 150);
  w.changeSet(ap, section('x.ts'));
  const sources = { lastLine: () => undefined, changeStats: () => undefined, questions: () => 0, away: (k: string) => w.away(k) };
  const options = { doneLimit: 20, acknowledged: new Set<string>(), failedWindowMs: DEFAULT_FAILED_WINDOW_MS, now: 1000 };
  const row = boardGroups(w.store.state, sources, options).flatMap((g) => g.rows).find((r) => r.runKey === ap);
  assert.equal(row?.away?.count, 1);
  assert.equal(w.away(ap), w.away(ap), 'cached while nothing it depends on changed');
  assert.notEqual(rowSignature(row!), rowSignature({ ...row!, away: undefined }), 'the view re-renders the row when it changes');
  // Only the rows shown are asked: a run capped off Done costs nothing.
  const asked: string[] = [];
  boardGroups(w.store.state, { ...sources, away: (k: string) => (asked.push(k), undefined) }, { ...options, doneLimit: 0 });
  w.store.dispatch({ type: 'runEvent', runKey: ap, event: { kind: 'stateChanged', state: 'completed' } });
  asked.length = 0;
  boardGroups(w.store.state, { ...sources, away: (k: string) => (asked.push(k), undefined) }, { ...options, doneLimit: 0 });
  assert.deepEqual(asked, []);
});
