/** model/runKeys.ts: the one place the run and approval key format is built and told apart. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approvalKeyOf, asApprovalKey, asConnectionId, asRunKey, runKeyOf } from '../../../extension/model/runKeys';

test('a run key is its connection id and run id; an approval key adds the approval id', () => {
  const run = runKeyOf('acp:Claude', 'sess-1');
  assert.equal(run, 'acp:Claude::sess-1');
  assert.equal(approvalKeyOf(run, 'perm-7'), 'acp:Claude::sess-1::perm-7');
});

test('a command argument is told apart: connection id, run key, approval key', () => {
  const run = runKeyOf('ap:Local', 'r1');
  const approval = approvalKeyOf(run, 'a1');
  assert.deepEqual([asConnectionId('ap:Local'), asRunKey('ap:Local'), asApprovalKey('ap:Local')], ['ap:Local', undefined, undefined]);
  assert.deepEqual([asConnectionId(run), asRunKey(run), asApprovalKey(run)], [undefined, run, undefined]);
  assert.deepEqual([asConnectionId(approval), asApprovalKey(approval)], [undefined, approval]);
  for (const notAKey of [undefined, null, 42, { key: run }]) {
    assert.deepEqual([asConnectionId(notAKey), asRunKey(notAKey), asApprovalKey(notAKey)], [undefined, undefined, undefined]);
  }
});
