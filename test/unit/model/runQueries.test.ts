/** runQueries: what drivers may ask about a run instead of reading the reducer's bookkeeping. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunEvent } from '../../../extension/model/modelActions';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { openToolCallIds } from '../../../extension/model/runQueries';
import { RunStore } from '../../../extension/model/runStore';

test('openToolCallIds lists the calls still waiting for a result, in order, and nothing for an unknown run', () => {
  const store = new RunStore(() => 1000, () => undefined);
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'scv' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { title: 'T', state: 'running' } });
  const key = runKeyOf('c', 'r1');
  let seq = 0;
  const ev = (event: RunEvent) => store.dispatch({ type: 'runEvent', runKey: key, sequence: ++seq, event });
  ev({ kind: 'toolCall', callId: 'a', name: 'Read', input: {} });
  ev({ kind: 'toolCall', callId: 'b', name: 'Bash', input: {} });
  ev({ kind: 'toolCall', callId: 'c', name: 'Grep', input: {} });
  ev({ kind: 'toolResult', callId: 'b', ok: true, output: '' });
  assert.deepEqual(openToolCallIds(store.state.runs.get(key)), ['a', 'c']);
  ev({ kind: 'toolResult', callId: 'a', ok: null, output: '' });
  ev({ kind: 'toolResult', callId: 'c', ok: false, output: '' });
  assert.deepEqual(openToolCallIds(store.state.runs.get(key)), []);
  assert.deepEqual(openToolCallIds(undefined), []);
});
