/**
 * *Continue from here* (issue #26) says why it cannot be used, through the run header the checkpoint markers read
 * (`noContinue`): a connection that starts no runs from the editor (hyperhive), or one not connected now.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Capability } from '../../../extension/model/modelTypes';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { runSummarySchema } from '../../../extension/protocol/webviewMessages';
import { runSummaryOf } from '../../../extension/ui/runSummary';

function noContinueOf(protocol: 'acp' | 'hive', capabilities: readonly Capability[], connected: boolean): string | undefined {
  const store = new RunStore(() => 1000, (e) => assert.fail(String(e)));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'Demo agent', protocol } });
  if (connected) {
    store.dispatch({ type: 'connectionState', connectionId: 'c', state: { kind: 'connected', since: 1 } });
  }
  store.dispatch({ type: 'connectionInfo', connectionId: 'c', capabilities });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { title: 'Fix it', state: 'completed' } });
  const summary = runSummaryOf(store.state, runKeyOf('c', 'r1'))!;
  assert.equal(runSummarySchema.safeParse(summary).success, true);
  return summary.noContinue;
}

test('a connected connection that starts runs: Continue from here is offered (no reason sent)', () => {
  assert.equal(noContinueOf('acp', ['run.start'], true), undefined);
});

test('a connection that starts no runs from the editor says so, and that rewinding still works', () => {
  assert.equal(noContinueOf('hive', [], true), 'Demo agent does not start runs from the editor, so the conversation cannot go on in a new run (Rewind files to here still works)');
});

test('a connection not connected now says to connect it', () => {
  assert.equal(noContinueOf('acp', ['run.start'], false), 'Demo agent is not connected: connect it to continue in a new run');
});
