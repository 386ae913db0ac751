/**
 * Issue #25 §2, through the door every driver uses (DriverRuns): a finished run's summary is saved in the run index
 * and comes back at connect without its journal being read; opening it replays it (checkpoint or journal) and
 * releasing it drops the transcript again; retention archives the oldest finished runs (left out, still on disk,
 * found by `archived`, brought back by `unarchive`); removal deletes the journal, the checkpoint and the entry.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { HistoryRetention } from '../../../../extension/drivers/kit/runRetention';
import type { Journaling, RestorePolicy } from '../../../../extension/drivers/kit/runJournaling';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { safeFileName } from '../../../../extension/storage/runFileName';
import { runFileOf } from '../../../../extension/storage/runFiles';
import { heldElsewhereText } from '../../../../extension/ui/commands/historyTexts';
import { DraftStore } from '../../../../extension/ui/draftStore';
import { RemovedRuns } from '../../../../extension/ui/removedRuns';
import { quietLog } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'hist-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };
const C = 'c';
const DAY = 24 * 60 * 60 * 1000;

function newStore(): RunStore {
  const store = new RunStore(() => 1000);
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'agency-proxy' } });
  return store;
}

function door(store: RunStore, storageDir: string, options: { retention?: HistoryRetention; now?: number; runRemoved?: (runKey: string) => void } = {}) {
  return new DriverRuns({
    store, connectionId: C, storageDir, log: quietLog, ...(options.retention ? { retention: () => options.retention! } : {}), now: () => options.now ?? 10 * DAY,
    ...(options.runRemoved ? { runRemoved: options.runRemoved } : {}),
  }, () => journaled);
}

/** The journal directory of the connection (one per profile). */
function journalDir(storageDir: string): string {
  const transcripts = join(storageDir, 'transcripts');
  return join(transcripts, readdirSync(transcripts)[0]!);
}

/** Records `runs` finished runs of a few items each (the newest last), saved and closed. */
async function storedRuns(storageDir: string, runs: number, now = 10 * DAY): Promise<void> {
  const store = newStore();
  const runsDoor = door(store, storageDir, { now });
  for (let i = 0; i < runs; i++) {
    const runId = `r${i}`;
    await runsDoor.fields(runId, { title: `Run ${i}`, state: 'running', createdAt: i });
    await runsDoor.event(runId, { kind: 'userPrompt', text: `task ${i}` }, 1);
    await runsDoor.event(runId, { kind: 'textDelta', text: `line one\nanswer ${i}` }, 2);
    await runsDoor.event(runId, { kind: 'stateChanged', state: 'completed' }, 3);
    await runsDoor.fields(runId, { state: 'completed' });
    await runsDoor.saveRun(runId);
  }
  await runsDoor.replay(lazyPolicy()); // the door keeps summaries only once it knows how its runs come back
  await runsDoor.close();
}

/** What a policy was asked: whose index entries it restored (`open`), whose records were replayed, and how many. */
interface PolicyCalls {
  readonly indexed: string[];
  readonly replayed: string[];
  records: number;
}

function lazyPolicy(calls: PolicyCalls = { indexed: [], replayed: [], records: 0 }): RestorePolicy<never> {
  return {
    open: (stored) => (calls.indexed.push(stored.runId), true),
    replaying: (stored) => void calls.replayed.push(stored.runId),
    record: () => void (calls.records += 1),
    state: 'as replayed',
    lazy: true,
  };
}

test('a finished run comes back from its summary, its journal unread; opening replays it; releasing drops it again', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  await storedRuns(storageDir, 3);
  const index = JSON.parse(readFileSync(join(journalDir(storageDir), 'runs.json'), 'utf8')) as { runId: string; summary?: { lastLine?: string; items?: number } }[];
  assert.deepEqual(index.map((entry) => [entry.runId, entry.summary?.lastLine, entry.summary?.items]), [['r0', 'answer 0', 2], ['r1', 'answer 1', 2], ['r2', 'answer 2', 2]], 'the summaries are in the index');

  const store = newStore();
  const calls: PolicyCalls = { indexed: [], replayed: [], records: 0 };
  const runs = door(store, storageDir);
  await runs.replay(lazyPolicy(calls));
  const key = runKeyOf(C, 'r1');
  assert.deepEqual(calls.indexed, ['r0', 'r1', 'r2'], 'every run’s index entry is restored at connect (ownership, session)');
  assert.deepEqual([calls.replayed, calls.records], [[], 0], 'no journal was read at connect');
  assert.equal(store.transcript(key), undefined);
  const summarized = store.state.runs.get(key)!;
  assert.deepEqual([summarized.title, summarized.state, summarized.itemCount, summarized.lastSequence, summarized.unloaded], ['Run 1', 'completed', 2, 3, { lastLine: 'answer 1' }]);

  let changes = 0;
  store.onDidChange(() => (changes += 1));
  await Promise.all([runs.history.load('r1'), runs.history.load('r1')]);
  assert.deepEqual([calls.replayed, calls.records], [['r1'], 5], 'opened twice at once: its journal is read once');
  assert.equal(changes, 1, 'the views hear of the load once');
  const loaded = store.state.runs.get(key)!;
  assert.equal(loaded.unloaded, undefined);
  assert.deepEqual([loaded.itemCount, loaded.lastSequence, loaded.state], [2, 3, 'completed']);
  assert.deepEqual(store.transcript(key)!.snapshot().map((item) => item.kind), ['user', 'text']);

  assert.equal(await runs.history.release('r1'), true);
  assert.equal(store.transcript(key), undefined, 'released: the transcript left memory');
  assert.deepEqual(store.state.runs.get(key)?.unloaded, { lastLine: 'answer 1' });
  await runs.history.load('r1');
  assert.equal(store.transcript(key)!.length, 2, 'opened again: replayed again');
  assert.deepEqual([calls.indexed.length, calls.replayed], [3, ['r1', 'r1']], 'its index entry is not restored twice');
  await runs.close();
});

test('a run still going, or without a summary, is replayed at connect; a release of it is refused', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  const first = newStore();
  const live = door(first, storageDir);
  await live.replay(lazyPolicy());
  await live.fields('going', { title: 'Going', state: 'running', createdAt: 1 });
  await live.event('going', { kind: 'textDelta', text: 'working' }, 1);
  await live.saveRun('going');
  await live.close();
  const store = newStore();
  const calls: PolicyCalls = { indexed: [], replayed: [], records: 0 };
  const runs = door(store, storageDir);
  await runs.replay(lazyPolicy(calls));
  assert.deepEqual([calls.indexed, calls.replayed], [['going'], ['going']], 'its journal is read at connect');
  assert.equal(store.transcript(runKeyOf(C, 'going'))!.length, 1);
  assert.equal(await runs.history.release('going'), false);
  await runs.close();
});

test('news for a run shown from its summary replays it first, then folds the news after its items', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  await storedRuns(storageDir, 1);
  const store = newStore();
  const runs = door(store, storageDir);
  await runs.replay(lazyPolicy());
  await runs.fields('r0', { state: 'completed' }); // a daemon's run list restating it: no load
  assert.notEqual(store.state.runs.get(runKeyOf(C, 'r0'))?.unloaded, undefined);
  await runs.event('r0', { kind: 'userPrompt', text: 'continued' }, 4);
  assert.deepEqual(store.transcript(runKeyOf(C, 'r0'))!.snapshot().map((item) => item.kind), ['user', 'text', 'user']);
  assert.equal(store.state.runs.get(runKeyOf(C, 'r0'))?.lastSequence, 4);
  await runs.close();
});

test('retention archives the oldest and the stale finished runs; archived ones are found and brought back', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  await storedRuns(storageDir, 2, 1 * DAY); // active on day 1
  const later = newStore();
  const more = door(later, storageDir, { now: 9 * DAY });
  await more.replay(lazyPolicy());
  for (const runId of ['r2', 'r3', 'r4']) {
    await more.fields(runId, { title: runId, state: 'running', createdAt: 9 });
    await more.event(runId, { kind: 'textDelta', text: runId }, 1);
    await more.fields(runId, { state: 'completed' });
    await more.saveRun(runId);
  }
  await more.close();

  const store = newStore();
  const runs = door(store, storageDir, { retention: { keepDays: 5, keepRuns: 2, keepMegabytes: 0 }, now: 10 * DAY });
  await runs.replay(lazyPolicy());
  const shown = [...store.state.runs.values()].map((run) => run.runId).sort();
  assert.equal(shown.length, 2, `two kept by count: ${shown.join(', ')}`);
  assert.ok(!shown.includes('r0') && !shown.includes('r1'), 'the stale ones are archived');
  const archived = (await runs.history.archived()).map((stored) => stored.runId);
  assert.equal(archived.length, 3);
  assert.ok(archived.includes('r0') && archived.includes('r1'));
  assert.equal(await runs.history.unarchive('r0'), true);
  assert.notEqual(store.state.runs.get(runKeyOf(C, 'r0'))?.unloaded, undefined);
  await runs.history.load('r0');
  assert.equal(store.transcript(runKeyOf(C, 'r0'))!.length, 2);
  await runs.close();
});

test('removing a finished run deletes its journal, its checkpoint and its index entry; a run still going is refused', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  await storedRuns(storageDir, 2);
  const dir = journalDir(storageDir);
  const store = newStore();
  const told: string[] = [];
  const runs = door(store, storageDir, { runRemoved: (runKey) => void told.push(runKey) });
  await runs.replay(lazyPolicy());
  await runs.fields('going', { title: 'Going', state: 'running', createdAt: 1 });
  const before = readdirSync(dir).filter((name) => name.endsWith('.jsonl')).length;
  // A checkpoint file beside the journal, as runCheckpoints writes them (its name is the journal's).
  const journalFile = readdirSync(dir).find((name) => name.startsWith('r0') && name.endsWith('.jsonl'))!;
  const checkpoint = join(dir, journalFile.replace(/\.jsonl$/, '.ckpt'));
  writeFileSync(checkpoint, 'x');
  assert.equal(await runs.history.remove('going'), 'not finished');
  assert.ok(store.state.runs.has(runKeyOf(C, 'going')));
  assert.equal(await runs.history.remove('r0'), 'removed');
  assert.equal(store.state.runs.has(runKeyOf(C, 'r0')), false);
  assert.deepEqual(told, [runKeyOf(C, 'r0')], 'the editor is told once, of the run removed only');
  assert.equal(existsSync(join(dir, journalFile)), false, 'the journal is gone');
  assert.equal(existsSync(checkpoint), false, 'the checkpoint is gone');
  assert.equal(readdirSync(dir).filter((name) => name.endsWith('.jsonl')).length, before - 1);
  await runs.close();
  const index = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { runId: string }[];
  assert.deepEqual(index.map((entry) => entry.runId).sort(), ['r1']);
});

/** The index entries of the connection as they are on disk. */
function indexOf(storageDir: string): { runId: string; bytes?: number }[] {
  return JSON.parse(readFileSync(join(journalDir(storageDir), 'runs.json'), 'utf8')) as { runId: string; bytes?: number }[];
}

test('removal leaves nothing of the run in its directory (a driver\'s cache too), and the driver forgets it', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  await storedRuns(storageDir, 2);
  const dir = journalDir(storageDir);
  const of = (runId: string): string[] => readdirSync(dir).filter((name) => name.startsWith(`${safeFileName(runId)}.`));
  // What else a run may have beside its journal: a checkpoint, a driver's cache (A3S's change set), a lease.
  writeFileSync(runFileOf(dir, 'r0', 'ckpt'), 'x');
  writeFileSync(runFileOf(dir, 'r0', 'changes.json'), '{}');
  const r1Before = of('r1');
  const removed: string[] = [];
  const store = newStore();
  const runs = new DriverRuns({ store, connectionId: C, storageDir, log: quietLog, windowId: 'w', now: () => 10 * DAY }, () => ({ ...journaled, removed: (runId) => removed.push(runId) }));
  await runs.replay(lazyPolicy());
  await runs.claim('r0'); // its lease, as the window that wrote it holds it
  assert.ok(of('r0').some((name) => name.endsWith('.lease')));
  assert.equal(await runs.history.remove('r0'), 'removed');
  assert.deepEqual(of('r0'), [], 'no file of the run is left');
  assert.deepEqual(of('r1'), r1Before, 'the other run\'s files are untouched');
  assert.deepEqual(removed, ['r0'], 'the driver was told');
  assert.deepEqual(indexOf(storageDir).map((entry) => entry.runId), ['r1']);
  await runs.close();
  assert.deepEqual(of('r0'), [], 'closing the connection writes nothing of it back');
});

test('the size limit deletes the least recently active finished runs at connect, never a run still going', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  await storedRuns(storageDir, 4); // r0 … r3, r3 the newest
  const setup = door(newStore(), storageDir);
  await setup.replay(lazyPolicy());
  await setup.fields('going', { title: 'Going', state: 'running', createdAt: 9 });
  await setup.event('going', { kind: 'userPrompt', text: 'x'.repeat(2000) }, 1);
  await setup.saveRun('going');
  await setup.close();
  const sizes = new Map(indexOf(storageDir).map((entry) => [entry.runId, entry.bytes ?? 0]));
  assert.ok([...sizes.values()].every((bytes) => bytes > 0), `every entry has its size: ${JSON.stringify([...sizes])}`);
  // Room for the run still going and the two newest finished runs, not more.
  const limit = (sizes.get('going')! + sizes.get('r3')! + sizes.get('r2')! + 1) / (1024 * 1024);
  const store = newStore();
  // The editor's side, as extension.ts wires it: what it keeps per run (a draft here) goes with a run removed.
  const removedRuns = new RemovedRuns();
  const drafts = new DraftStore({ get: <T>(_key: string, fallback?: T) => fallback as T, update: () => Promise.resolve() });
  removedRuns.onDidRemove((runKey) => drafts.set(runKey, ''));
  for (const runId of ['r0', 'r1', 'r2', 'going']) {
    drafts.set(runKeyOf(C, runId), `draft of ${runId}`);
  }
  const told: string[] = [];
  const runs = door(store, storageDir, { retention: { keepDays: 0, keepRuns: 0, keepMegabytes: limit }, runRemoved: (runKey) => (told.push(runKey), removedRuns.removed(runKey)) });
  await runs.replay(lazyPolicy());
  assert.deepEqual(told.sort(), [runKeyOf(C, 'r0'), runKeyOf(C, 'r1')], 'the editor is told of each run the limit removed, as for Remove Run');
  assert.deepEqual(['r0', 'r1', 'r2', 'going'].map((runId) => drafts.get(runKeyOf(C, runId))), ['', '', 'draft of r2', 'draft of going'], 'the removed runs\' drafts are gone, the others kept');
  drafts.dispose();
  removedRuns.dispose();
  assert.deepEqual(indexOf(storageDir).map((entry) => entry.runId).sort(), ['going', 'r2', 'r3']);
  assert.deepEqual([...store.state.runs.values()].map((run) => run.runId).sort(), ['going', 'r2', 'r3']);
  const dir = journalDir(storageDir);
  for (const runId of ['r0', 'r1']) {
    assert.deepEqual(readdirSync(dir).filter((name) => name.startsWith(`${safeFileName(runId)}.`)), [], `${runId}'s files are gone`);
  }
  await runs.close();
  // With no limit nothing goes.
  const unlimited = door(newStore(), storageDir, { retention: { keepDays: 0, keepRuns: 0, keepMegabytes: 0 } });
  await unlimited.replay(lazyPolicy());
  assert.equal(indexOf(storageDir).length, 3);
  await unlimited.close();
});

test('a run another window records is kept, and the refusal names that window', async () => {
  const storageDir = mkdtempSync(join(base, 's'));
  const storeA = newStore();
  const a = new DriverRuns({ store: storeA, connectionId: C, storageDir, log: quietLog, windowId: 'wa', windowName: 'my-project' }, () => journaled);
  await a.fields('r', { title: 'R', state: 'running', createdAt: 1 });
  await a.fields('r', { state: 'completed' });
  await a.saveRun('r');
  const storeB = newStore();
  const b = new DriverRuns({ store: storeB, connectionId: C, storageDir, log: quietLog, windowId: 'wb', windowName: 'other' }, () => journaled);
  await b.replay({ open: () => true, state: 'as replayed' });
  const outcome = await b.history.remove('r');
  assert.equal(typeof outcome, 'object');
  const holder = typeof outcome === 'object' ? outcome.heldBy : undefined;
  assert.equal(holder?.name, 'my-project');
  assert.equal(heldElsewhereText('R', holder!), `“R” is kept: the editor window “my-project” (extension host ${process.pid}) is recording it. Remove it there, or once that window is closed.`);
  assert.ok(storeB.state.runs.has(runKeyOf(C, 'r')), 'still shown');
  await Promise.all([a.close(), b.close()]);
});
