/** The transcript header's projection of the agent's slash commands (ACP available_commands_update → composer). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SlashCommand } from '../../../extension/model/modelTypes';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { runSummarySchema } from '../../../extension/protocol/webviewMessages';
import { runSummaryOf } from '../../../extension/ui/runSummary';
import { runLookOf } from '../../../extension/model/runLook';
import { runDisplay } from '../../../extension/protocol/runStateDisplay';

function setup(slashCommands?: readonly SlashCommand[]) {
  const store = new RunStore(() => 1000, (e) => assert.fail(String(e)));
  store.dispatch({ type: 'connectionAdded', connection: { id: 'c', name: 'demo', protocol: 'scv' } });
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { title: 'Fix it', state: 'running', ...(slashCommands ? { slashCommands } : {}) } });
  return { store, key: runKeyOf('c', 'r1') };
}

test('the run summary carries the slash commands, as the webview schema accepts them', () => {
  const commands: SlashCommand[] = [{ name: 'plan', description: 'Make a plan', hint: 'what to plan' }, { name: 'review', description: 'Review the diff' }];
  const { store, key } = setup(commands);
  const summary = runSummaryOf(store.state, key)!;
  assert.deepEqual(summary.slashCommands, commands);
  assert.equal(runSummarySchema.safeParse(summary).success, true);
});

test('only the fields the view knows are sent; none or an empty list sends no slashCommands', () => {
  const extra = { name: 'x', description: 'X', _meta: { secret: 1 } } as SlashCommand;
  const summaryOf = (commands?: readonly SlashCommand[]) => {
    const { store, key } = setup(commands);
    return runSummaryOf(store.state, key)!;
  };
  assert.deepEqual(summaryOf([extra]).slashCommands, [{ name: 'x', description: 'X' }]);
  assert.equal('slashCommands' in summaryOf(), false);
  assert.equal('slashCommands' in summaryOf([]), false);
});

test('an update replaces the list the header shows', () => {
  const { store, key } = setup([{ name: 'a', description: 'A' }]);
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { slashCommands: [{ name: 'b', description: 'B', hint: 'h' }] } });
  assert.deepEqual(runSummaryOf(store.state, key)!.slashCommands, [{ name: 'b', description: 'B', hint: 'h' }]);
});

test('a stopped hyperhive agent can be sent a message (its inbox queues it); a stopped or ended run elsewhere cannot', () => {
  const store = new RunStore(() => 1000, (e) => assert.fail(String(e)));
  const send = (protocol: 'hive' | 'scv', capabilities: readonly ('hive.operatorMessage' | 'run.queue')[], state: 'stopped' | 'completed' | 'running') => {
    const id = `${protocol}-${state}`;
    store.dispatch({ type: 'connectionAdded', connection: { id, name: id, protocol } });
    store.dispatch({ type: 'connectionState', connectionId: id, state: { kind: 'connected', since: 1 } });
    store.dispatch({ type: 'connectionInfo', connectionId: id, capabilities });
    store.dispatch({ type: 'runUpserted', connectionId: id, runId: 'a', fields: { title: 'agent', state } });
    return runSummaryOf(store.state, runKeyOf(id, 'a'))!.actions.send;
  };
  assert.equal(send('hive', ['hive.operatorMessage'], 'stopped'), true);
  assert.equal(send('hive', ['hive.operatorMessage'], 'running'), true);
  assert.equal(send('scv', ['run.queue'], 'stopped'), false);
  assert.equal(send('scv', ['run.queue'], 'completed'), false);
});

test('the header gets the run\'s usage in the board\'s words, replaced by each report; a subagent\'s header names its parent', () => {
  const { store, key } = setup();
  assert.equal(runSummaryOf(store.state, key)?.usage, undefined, 'none reported, none sent');
  store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'usage', used: 12_345, size: 200_000 } });
  assert.deepEqual(runSummaryOf(store.state, key)?.usage, { short: '12.3k/200k (6%)', long: 'Context: 12.3k of 200k tokens (6%)' });
  store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'usage', used: 150_000, size: 200_000, cost: { amount: 0.4213, currency: 'USD' } } });
  store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'usage', used: 151_000, size: 200_000 } });
  const summary = runSummaryOf(store.state, key)!;
  assert.deepEqual(summary.usage, { short: '151k/200k (76%) · $0.42', long: 'Context: 151k of 200k tokens (76%) · cost so far $0.42' }, 'the cost from the report that had one');
  assert.equal(runSummarySchema.safeParse(summary).success, true);
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'k', fields: { title: 'Explore', state: 'running', parentRunId: 'r1' } });
  assert.equal(runSummaryOf(store.state, runKeyOf('c', 'k'))?.parentTitle, 'Fix it');
  store.dispatch({ type: 'connectionInfo', connectionId: 'c', capabilities: ['run.queue'] });
  store.dispatch({ type: 'connectionState', connectionId: 'c', state: { kind: 'connected', since: 0 } });
  assert.equal(runSummaryOf(store.state, key)?.actions.send, true, 'the parent takes one');
  assert.equal(runSummaryOf(store.state, runKeyOf('c', 'k'))?.actions.send, false, 'a subagent takes no message');
});

test('the header shows the run\'s look: a completed run whose change set was refused is not "Completed", as on the board and in the tree', () => {
  const { store, key } = setup();
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'r1', fields: { state: 'completed' } });
  assert.equal(runSummaryOf(store.state, key)!.changeSetRefused, undefined);
  store.dispatch({ type: 'changeSet', changeSet: { runKey: key, source: 'daemon', status: 'refused', reason: 'The digest check failed' } });
  const summary = runSummaryOf(store.state, key)!;
  assert.equal(summary.changeSetRefused, 'The digest check failed');
  assert.equal(runSummarySchema.safeParse(summary).success, true);
  // The one derivation every surface shows (the webview header reads the summary through it).
  assert.deepEqual(runDisplay(summary), runDisplay(runLookOf(store.state, store.state.runs.get(key)!)));
  assert.equal(runDisplay(summary).label, 'Change set refused');
});

test('an idle subagent\'s header says Idle, not "Waiting for your message"', () => {
  const { store } = setup();
  store.dispatch({ type: 'runUpserted', connectionId: 'c', runId: 'kid', fields: { title: 'Explore', state: 'idle', parentRunId: 'r1' } });
  const summary = runSummaryOf(store.state, runKeyOf('c', 'kid'))!;
  assert.equal(summary.takesNoMessages, true);
  assert.equal(runDisplay(summary).label, 'Idle');
});
