/**
 * A replayed run equals what the user saw live, for every row of the reducer table whose inputs a driver journals
 * (reducerRowsKit.ts) and for the approval paths (requested, then decided by a person or by a rule, expired, or
 * settled by the daemon): each row is folded through a journaled `DriverRuns` — the one door every driver uses —
 * then a second door on the same storage replays it into a fresh store, and run, transcript and approvals must be
 * the same (but for what a reload changes by design: a restored approval is not live until its daemon says so).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as z from 'zod/mini';
import { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import type { RunInput } from '../../../../extension/drivers/kit/journalRecords';
import type { Journaling } from '../../../../extension/drivers/kit/runJournaling';
import type { ModelAction, RunEvent } from '../../../../extension/model/modelActions';
import { RunStore } from '../../../../extension/model/runStore';
import { quietLog } from '../driverKit';
import type { Row } from '../../model/reducerRowsKit';
import { C, K, NOW, actionRows, eventRows, isEvent } from '../../model/reducerRowsKit';

const base = mkdtempSync(join(tmpdir(), 'rel-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
const journaled: Journaling<never> = { cursor: z.never(), books: 'none' };

/** The journal input a row's action stands for, with the run it is for; undefined: not a run input a driver folds. */
function inputOf(a: ModelAction | RunEvent): { runId: string; input: RunInput } | undefined {
  if (isEvent(a)) {
    return { runId: 'r', input: { event: a } };
  }
  const runId = 'runKey' in a && a.runKey.startsWith(`${C}::`) ? a.runKey.slice(C.length + 2) : 'runId' in a ? a.runId : undefined;
  switch (a.type) {
    case 'runEvent':
      return a.runKey === K ? { runId: 'r', input: { event: a.event, ...(a.sequence !== undefined ? { sequence: a.sequence } : {}), ...(a.firstSequence !== undefined ? { firstSequence: a.firstSequence } : {}) } } : undefined;
    case 'runUpserted':
      return a.connectionId === C ? { runId: a.runId, input: { fields: a.fields } } : undefined;
    case 'runGap':
      return runId === 'r' ? { runId, input: { gap: { from: a.from, to: a.to, reason: a.reason } } } : undefined;
    case 'runPanels':
      return runId === 'r' ? { runId, input: a.merge ? { panels: a.panels } : { panels: a.panels, replace: true } } : undefined;
    default:
      return undefined;
  }
}

/** What a user sees: every run of the connection (fields; the views sort them), its transcript items, its approvals but `live`. */
function seen(store: RunStore) {
  const runs = [...store.state.runs.values()].sort((a, b) => a.key.localeCompare(b.key)).map((run) => ({ ...run, openTools: [...run.openTools], transcript: store.transcript(run.key)?.snapshot() }));
  const approvals = [...store.state.approvals.values()].map(({ live: _live, ...rest }) => rest);
  return { runs, approvals };
}

function newStore(): RunStore {
  const store = new RunStore(() => NOW);
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'agency-proxy' } });
  return store;
}

/** Folds `steps` live through a journaled door, then replays them into a fresh store; returns both views. */
async function liveAndReplayed(name: string, steps: readonly (ModelAction | RunEvent)[]) {
  const storageDir = mkdtempSync(join(base, 'r'));
  const live = newStore();
  const door = new DriverRuns({ store: live, connectionId: C, storageDir, log: quietLog }, () => journaled);
  await door.fields('r', { title: 'T', state: 'running', createdAt: 1 });
  for (const step of steps) {
    const input = inputOf(step);
    assert.ok(input, `${name}: a run input`);
    await door.record(input.runId, [input.input]);
  }
  await Promise.all([...live.state.runs.values()].map((run) => door.saveRun(run.runId)));
  await door.close();
  const replayed = newStore();
  const again = new DriverRuns({ store: replayed, connectionId: C, storageDir, log: quietLog }, () => journaled);
  await again.replay({ open: () => true, state: 'as replayed' });
  await again.close();
  return { live: seen(live), replayed: seen(replayed) };
}

const journaledRows = [...eventRows, ...actionRows].filter((row: Row) => [...(row.given ?? []), row.action].every((a) => inputOf(a) !== undefined));

test('every RunEvent row and every run-input action row of the reducer table is covered', () => {
  assert.equal(journaledRows.filter((r) => eventRows.includes(r)).length, eventRows.length, 'every event row');
  const types = new Set(journaledRows.filter((r) => actionRows.includes(r)).map((r) => (r.action as ModelAction).type));
  assert.deepEqual([...types].sort(), ['runEvent', 'runGap', 'runPanels', 'runUpserted']);
});

for (const row of journaledRows) {
  test(`replay equals live: ${row.name}`, async () => {
    const { live, replayed } = await liveAndReplayed(row.name, [...(row.given ?? []), row.action]);
    assert.deepEqual(replayed, live);
  });
}

const requested: RunEvent = { kind: 'approvalRequested', approvalId: 'a', title: 'Edit', detail: { file_path: 'README.md', old_string: 'a', new_string: 'b' }, options: ['allow_once', 'allow_similar', 'deny'] };
const approvalPaths: Record<string, readonly RunEvent[]> = {
  'decided by a person': [requested, { kind: 'approvalSettled', approvalId: 'a', decision: 'allow_once', by: 'notification' }],
  'decided by a rule, named': [requested, { kind: 'approvalSettled', approvalId: 'a', decision: 'allow_similar', by: 'rule', rule: 'Edits to README.md' }],
  'settled by the daemon': [requested, { kind: 'approvalSettled', approvalId: 'a', decision: 'deny' }],
  'expired with its reason': [requested, { kind: 'approvalSettled', approvalId: 'a', expired: true, reason: 'The daemon no longer waits for it (answered elsewhere).' }],
  'still waiting': [requested, { kind: 'textDelta', text: 'meanwhile' }],
};

for (const [name, steps] of Object.entries(approvalPaths)) {
  test(`replay equals live: an approval ${name}`, async () => {
    const { live, replayed } = await liveAndReplayed(name, steps);
    assert.ok(live.approvals.length === 1);
    assert.deepEqual(replayed, live);
  });
}
