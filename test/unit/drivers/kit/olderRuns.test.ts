/**
 * Issue #25 §2, a connect costs what the board and the tree show: with 1,000 stored finished runs the model gets the
 * newest page of them (kit/olderRuns.ts) and the number of the others; their index entries are not validated (the
 * policy's `open` runs for the page only). An "older…" row loads the next page, a run asked for by its key loads on
 * its own, removal and unarchiving keep the count true, unfinished runs always come back, and another window's
 * replay of new runs does not bring the older ones in.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import { OLDER_PAGE } from '../../../../extension/drivers/kit/olderRuns';
import type { Journaling, RestorePolicy } from '../../../../extension/drivers/kit/runJournaling';
import { boardGroups } from '../../../../extension/model/boardGroups';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { RunResidency } from '../../../../extension/ui/runResidency';
import { OlderStubs } from '../../../../extension/storage/olderStubs';
import { quietLog } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'older-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
const C = 'c';
const DAY = 24 * 60 * 60 * 1000;
const STORED = 1_000;
/** Stored runs that were still going when the window closed: always loaded, however old. */
const GOING = ['r3', 'r500'];

function newStore(): RunStore {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'agency-proxy' } });
  return store;
}

function door(store: RunStore, storageDir: string): DriverRuns<never> {
  // No retention limit: every stored run is on the board (the older ones counted).
  return new DriverRuns({ store, connectionId: C, storageDir, log: quietLog, retention: () => ({ keepDays: 0, keepRuns: 0, keepMegabytes: 0 }), now: () => 10 * DAY }, () => journaled);
}

function policy(indexed: string[] = []): RestorePolicy<never> {
  return { open: (stored) => (indexed.push(stored.runId), true), state: 'as replayed', lazy: true };
}

let storageDir = '';

before(async () => {
  storageDir = mkdtempSync(join(base, 's'));
  const store = newStore();
  const runs = door(store, storageDir);
  await runs.replay(policy()); // the door keeps summaries once it knows how its runs come back
  const saves: Promise<void>[] = [];
  for (let i = 0; i < STORED; i++) {
    const runId = `r${i}`;
    await runs.fields(runId, { title: `Run ${i}`, state: 'running', createdAt: i });
    await runs.event(runId, { kind: 'textDelta', text: `answer ${i}` }, 1);
    if (!GOING.includes(runId)) {
      await runs.fields(runId, { state: 'completed' });
    }
    saves.push(runs.saveRun(runId)); // coalesced index writes
  }
  await Promise.all(saves);
  await runs.close();
});

const ids = (store: RunStore): string[] => [...store.state.runs.values()].map((run) => run.runId).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
const newest = (from: number, count: number): string[] => Array.from({ length: count }, (_, i) => `r${from - count + 1 + i}`);

test('with 1,000 stored runs only the newest page and the unfinished runs are in the model; the rest are counted', async () => {
  const store = newStore();
  const indexed: string[] = [];
  const runs = door(store, storageDir);
  await runs.replay(policy(indexed));
  assert.deepEqual(ids(store), [...GOING, ...newest(STORED - 1, OLDER_PAGE)]);
  assert.equal(store.state.connections.get(C)?.olderRuns, STORED - OLDER_PAGE - GOING.length);
  assert.equal(indexed.length, OLDER_PAGE + GOING.length, 'only the entries loaded were restored (validated) at connect');
  assert.equal(store.state.runs.get(runKeyOf(C, 'r500'))?.unloaded, undefined, 'an unfinished run comes back whole');

  // The board's Done group: twenty rows, and a count that is true for every stored run.
  const sources = { lastLine: () => undefined, changeStats: () => undefined, questions: () => 0 };
  const done = boardGroups(store.state, sources, { doneLimit: 20, acknowledged: new Set(), failedWindowMs: DAY, now: 10 * DAY })[2]!;
  assert.equal(done.rows.length, 20);
  assert.deepEqual(done.rows.map((row) => row.runKey), newest(STORED - 1, 20).reverse().map((id) => runKeyOf(C, id)));
  const needsYouOrWorking = GOING.length;
  assert.equal(done.rows.length + done.hidden + needsYouOrWorking, STORED, 'shown + "N older runs" + the live ones = every stored run');
  await runs.close();
});

test('"older…" loads the next page, newest first; the count follows', async () => {
  const store = newStore();
  const runs = door(store, storageDir);
  await runs.replay(policy());
  let changes = 0;
  store.onDidChange(() => (changes += 1));
  assert.equal(await runs.history.showOlder(), OLDER_PAGE);
  assert.equal(changes, 1, 'one action for the page (and its count)');
  assert.deepEqual(ids(store), [...GOING, ...newest(STORED - 1, 2 * OLDER_PAGE)]);
  assert.equal(store.state.connections.get(C)?.olderRuns, STORED - 2 * OLDER_PAGE - GOING.length);
  assert.ok([...store.state.runs.values()].filter((run) => !GOING.includes(run.runId)).every((run) => run.unloaded !== undefined), 'from their summaries');
  await runs.close();
});

test('a connect decodes none of the older runs the digest lists; pages past its head decode them once, in the board\'s order', async () => {
  const store = newStore();
  const runs = door(store, storageDir);
  const { all, at } = OlderStubs.prototype;
  let decoded = 0;
  OlderStubs.prototype.all = function (this: OlderStubs) {
    decoded += 1;
    return all.call(this);
  };
  OlderStubs.prototype.at = function (this: OlderStubs, line: number) {
    decoded += 1;
    return at.call(this, line);
  };
  try {
    await runs.replay(policy());
    assert.equal(decoded, 0, 'their number only');
    for (let page = 1; page <= 4; page++) {
      assert.equal(await runs.history.showOlder(), OLDER_PAGE);
    }
    assert.ok(decoded > 0, 'the head of finished runs the digest keeps whole is two pages: the third reads the rest');
    assert.deepEqual(ids(store), [...GOING, ...newest(STORED - 1, 5 * OLDER_PAGE)]);
    assert.equal(store.state.connections.get(C)?.olderRuns, STORED - 5 * OLDER_PAGE - GOING.length);
  } finally {
    Object.assign(OlderStubs.prototype, { all, at });
  }
  await runs.close();
});

test('a run asked for by its key loads on its own (residency, as a command or a restored tab asks); removal and unarchiving keep the count true', async () => {
  const store = newStore();
  const runs = door(store, storageDir);
  await runs.replay(policy());
  const older = STORED - OLDER_PAGE - GOING.length;
  const key = runKeyOf(C, 'r7');
  const residency = new RunResidency(store, { driver: () => ({ history: runs.history }) as never }, () => [key], quietLog);
  assert.equal(residency.isUnloaded(key), true, 'stored, not in the model: it is unloaded to the views');
  await residency.ensureLoaded(key);
  assert.equal(store.state.runs.get(key)?.unloaded, undefined);
  assert.deepEqual(store.transcript(key)?.snapshot().map((item) => item.kind), ['text']);
  assert.equal(store.state.connections.get(C)?.olderRuns, older - 1);
  residency.dispose();

  // Search Run History lists the runs not in the model; opening one from there brings it in.
  const listed = await runs.history.archived();
  assert.equal(listed.length, older - 1);
  assert.equal(await runs.history.unarchive('r8'), true);
  assert.ok(store.state.runs.has(runKeyOf(C, 'r8')));
  assert.equal(store.state.connections.get(C)?.olderRuns, older - 2);

  // News for a run listed older (a daemon continued it) brings it in and loads it first.
  await runs.event('r9', { kind: 'textDelta', text: 'more' }, 2);
  assert.deepEqual(store.transcript(runKeyOf(C, 'r9'))?.snapshot().map((item) => item.kind), ['text']);
  assert.equal(store.state.connections.get(C)?.olderRuns, older - 3);
  assert.equal(runs.history.leftOut('r10'), true, 'a daemon run list naming a finished older run does not bring it in');

  assert.equal(await runs.history.remove('r11'), 'removed');
  assert.equal(store.state.connections.get(C)?.olderRuns, older - 4);
  assert.equal(runs.history.isOlder('r11'), false);
  await runs.close();
});

test('another window\'s replay of new runs leaves the older ones out', async () => {
  const store = newStore();
  const runs = door(store, storageDir);
  await runs.replay(policy());
  const before = store.state.runs.size;
  await runs.replay(policy(), true);
  assert.equal(store.state.runs.size, before);
  assert.ok(!store.state.runs.has(runKeyOf(C, 'r100')));
  await runs.close();
});

test('another window\'s new run comes in from the index digest: a change of the index does not read it whole', async () => {
  const dir = mkdtempSync(join(base, 'w'));
  const storeA = newStore();
  const a = door(storeA, dir);
  await a.replay(policy());
  const b = door(newStore(), dir);
  await b.replay(policy());
  await b.fields('from-b', { title: 'Started in window B', state: 'running', createdAt: 5 * DAY });
  await b.event('from-b', { kind: 'textDelta', text: 'hello from B' }, 1);
  await b.saveRun('from-b');
  await b.flush();
  const { readFile } = fsPromises;
  let wholeReads = 0;
  fsPromises.readFile = ((path: Parameters<typeof readFile>[0], ...rest: unknown[]) => {
    wholeReads += String(path).endsWith('runs.json') ? 1 : 0;
    return (readFile as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof readFile;
  try {
    await a.replay(policy(), true);
  } finally {
    fsPromises.readFile = readFile;
  }
  assert.deepEqual(storeA.transcript(runKeyOf(C, 'from-b'))?.snapshot().map((item) => item.kind), ['text']);
  assert.equal(wholeReads, 0);
  await Promise.all([a.close(), b.close()]);
});
