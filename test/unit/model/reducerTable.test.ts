/**
 * The reducer's table: one row per RunEvent kind and per ModelAction type (approvals are tabled by their owner in
 * their own file). Each row: the actions that build the initial state, the action under test, and what must come
 * out: the run's fields, the exact transcript patches, whether views are told to refresh, and any other state.
 * The rows are in reducerRowsKit.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelAction, RunEvent } from '../../../extension/model/modelActions';
import { reduce } from '../../../extension/model/reducer';
import { K, NOW, actionRows, asAction, baseState, eventRows, runFields } from './reducerRowsKit';

for (const row of [...eventRows, ...actionRows]) {
  test(`reducer: ${row.name}`, () => {
    const before = (row.given ?? []).reduce((s, a) => reduce(s, asAction(a), NOW).state, baseState());
    const frozen = JSON.stringify(runFields(before.runs.get(K), ['itemCount', 'lastSequence', 'openTools', 'openTextId']));
    const result = reduce(before, asAction(row.action), NOW);
    assert.deepEqual(result.patches, row.patches.map((patch) => ({ runKey: K, patch })), 'transcript patches');
    if (row.run) {
      assert.deepEqual(runFields(result.state.runs.get(K), Object.keys(row.run)), row.run, 'run fields');
    }
    assert.equal(result.changed, row.changed, 'changed');
    row.check?.(result.state, before);
    assert.equal(JSON.stringify(runFields(before.runs.get(K), ['itemCount', 'lastSequence', 'openTools', 'openTextId'])), frozen, 'the input state is not mutated');
  });
}

test('the table has a row for every RunEvent kind and ModelAction type (approvals are tabled by their owner)', () => {
  const kinds = new Set(eventRows.map((r) => (r.action as RunEvent).kind));
  const types = new Set(actionRows.map((r) => (r.action as ModelAction).type));
  // Exhaustive (not Partial) records: a kind or type added to modelActions.ts fails the type check until it is listed
  // here, and then this test until it has a row. Approval kinds and types are left to the approval table.
  const allKinds = { userPrompt: 1, textDelta: 1, textCompleted: 1, reasoningDelta: 1, messageBoundary: 1, toolCall: 1, toolInputDelta: 1, toolStarted: 1, toolProgress: 1,
    toolOutputDelta: 1, toolTerminals: 1, toolResult: 1, filesEdited: 1, usage: 1, compaction: 1, data: 1, error: 1, notice: 1, stateChanged: 1, turn: 1, message: 1, raw: 1, fileCheckpoint: 1 } satisfies Record<Exclude<RunEvent['kind'], `approval${string}`>, 1>;
  const allTypes = { connectionAdded: 1, connectionRemoved: 1, connectionState: 1, connectionInfo: 1, runUpserted: 1, runRemoved: 1, runRestored: 1, runEvent: 1, runGap: 1, runQueue: 1,
    runPanels: 1, changeSet: 1, runsSummarized: 1, runLoading: 1, runReleased: 1 } satisfies Record<Exclude<ModelAction['type'], `approval${string}`>, 1>;
  assert.deepEqual(Object.keys(allKinds).filter((k) => !kinds.has(k as RunEvent['kind'])), []);
  assert.deepEqual(Object.keys(allTypes).filter((t) => !types.has(t as ModelAction['type'])), []);
});
