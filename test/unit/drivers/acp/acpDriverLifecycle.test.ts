/**
 * The ACP driver's lifecycle against the reference agent process: a window reload (a new driver and a new agent on
 * the same storage and agent state) restores the transcript from the journal and continues the session through
 * `session/load` without a duplicated item; a second crash soon after the automatic restart fails the connection
 * with the stderr tail, expires what waited and offers Restart, which works; the mode and model actions; sign-in with
 * an `env_var`
 * method (the key goes to the secret store and into the restarted agent's environment, not into settings).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { ActionOffer } from '../../../../extension/drivers/kit/daemonActions';
import { memorySecrets } from '../../../../extension/drivers/acp/acpEditorAccess';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { until } from '../driverKit';
import { idle, rig, run } from './acpDriverKit';
import { README_TEXT } from './acpWorkspace';

test('a reload restores the transcript from the journal and the session continues through session/load (an agent that cannot resume)', { timeout: 40_000 }, async () => {
  const first = await rig({ agentArgs: ['--without-session', 'resume'] });
  const runId = await first.driver.startRun({ prompt: 'hello before the reload', workspaceRoots: [first.ws.dir] });
  await until('the first turn ended', () => idle(first, runId));
  // The end of turn's checkpoint marker, recorded once its snapshot is taken (after the turn ended).
  await until('the end-of-turn checkpoint marker', () => first.items(runId).filter((i) => i.kind === 'checkpoint').length === 2);
  const before = first.items(runId);
  await first.driver.dispose();

  const second = await rig({ ws: first.ws, storage: first.storage, stateDir: first.stateDir, agentArgs: ['--without-session', 'resume'] });
  assert.deepEqual(second.items(runId).map((i) => i.kind), before.map((i) => i.kind), 'restored from the journal, nothing re-parsed or lost');
  assert.match(run(second, runId)?.stateDetail ?? '', /continues when you send/);
  const key = runKeyOf(second.setup.connectionId, runId);
  await until('the local change set shown again', () => second.setup.store.state.changeSets.get(key)?.status === 'ready');
  await second.driver.sendMessage(runId, 'and after the reload');
  await until('the second turn ended', () => second.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2 && idle(second, runId));
  const users = second.items(runId).filter((i) => i.kind === 'user');
  assert.deepEqual(users.map((u) => u.kind === 'user' && u.text), ['hello before the reload', 'and after the reload'], 'the replay of session/load added nothing');
  assert.ok(second.frames.some((f) => f.dir === 'out' && (f.frame as { method?: string }).method === 'session/load'));
});

test('a second crash soon after the automatic restart fails the connection with the stderr tail, and Restart brings the agent back', { timeout: 40_000 }, async () => {
  const r = await rig();
  const offers: ActionOffer[] = [];
  r.driver.onOffer((o) => offers.push(o));
  const runId = await r.driver.startRun({ prompt: 'crash now', workspaceRoots: [r.ws.dir] });
  await until('restarted by itself and the session taken up again', () => r.items(runId).some((i) => i.kind === 'notice' && /restarted; this session was resumed/.test(i.text)));
  assert.equal(offers.length, 0, 'no Restart offer after the first crash');
  // Something waits when the agent crashes again: another session's permission request, not answered.
  const waiter = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approvalId = await until('a permission request waiting', () => run(r, waiter)?.pendingApprovals[0]);
  const approvalKey = `${runKeyOf(r.setup.connectionId, waiter)}::${approvalId}`;
  assert.equal(r.setup.store.state.approvals.get(approvalKey)?.status, 'pending');
  await r.driver.sendMessage(runId, 'crash again');
  const failed = await until('failed', () => {
    const state = r.setup.store.state.connections.get(r.setup.connectionId)?.state;
    return state?.kind === 'failed' && state;
  });
  assert.match(failed.reason, /exited \(code 70\)/);
  assert.match(failed.reason, /crash/i, 'the stderr tail is in the reason');
  await until('the session interrupted', () => run(r, runId)?.state === 'interrupted');
  // What waited on the dead agent expired with it, saying why; its turn ended interrupted too.
  const expired = r.setup.store.state.approvals.get(approvalKey);
  assert.equal(expired?.status, 'expired', 'the waiting permission request expired');
  assert.match(expired?.reason ?? '', /agent stopped/, 'the agent stopping is its reason');
  assert.doesNotMatch(expired?.reason ?? '', /withdrew/, 'the agent did not withdraw it: it died');
  assert.deepEqual(run(r, waiter)?.pendingApprovals, [], 'nothing left waiting');
  assert.equal(run(r, waiter)?.state, 'interrupted');
  await assert.rejects(r.driver.decideApproval(waiter, approvalId, 'allow_once'));
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'nothing written');
  assert.equal(r.frames.filter((f) => f.dir === 'out' && (f.frame as { method?: string }).method === 'initialize').length, 2, 'not restarted a second time');
  assert.equal(offers[0]?.choices[0]?.command, 'agentSwitchboard.acp.restart');
  assert.deepEqual(r.driver.openOffers().map((o) => o.id), [offers[0]!.id], 'still open for a UI that watches later');

  const result = await r.driver.performAction('agentSwitchboard.acp.restart', { connectionId: r.setup.connectionId }, {});
  assert.equal(result.kind, 'done');
  assert.equal(r.setup.store.state.connections.get(r.setup.connectionId)?.state.kind, 'connected');
  const next = await r.driver.startRun({ prompt: 'hello again', workspaceRoots: [r.ws.dir] });
  await until('a turn on the restarted agent', () => idle(r, next));
});

test('mode and model: the actions offer what the agent advertises and change it', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  await until('idle', () => idle(r, runId));
  assert.deepEqual([...r.driver.actionFacts(runId)].sort(), ['close', 'fork', 'modes', 'settings']);
  const modes = await r.driver.nextActionInput('agentSwitchboard.acp.setMode', { connectionId: r.setup.connectionId, runId }, {});
  assert.equal(modes?.kind, 'pick');
  const plan = modes?.kind === 'pick' ? modes.choices.find((c) => c.value === 'plan') : undefined;
  assert.ok(plan, JSON.stringify(modes));
  await r.driver.performAction('agentSwitchboard.acp.setMode', { connectionId: r.setup.connectionId, runId }, { mode: 'plan' });
  assert.equal(r.driver.session(runId)?.modes?.currentModeId, 'plan');
  const option = await r.driver.nextActionInput('agentSwitchboard.acp.configure', { connectionId: r.setup.connectionId, runId }, {});
  assert.deepEqual(option?.kind === 'pick' && option.choices.map((c) => c.value), ['model']);
  const values = await r.driver.nextActionInput('agentSwitchboard.acp.configure', { connectionId: r.setup.connectionId, runId }, { option: 'model' });
  assert.deepEqual(values?.kind === 'pick' && values.choices.map((c) => c.value), ['ref-small', 'ref-large']);
  await r.driver.performAction('agentSwitchboard.acp.configure', { connectionId: r.setup.connectionId, runId }, { option: 'model', value: 'ref-large' });
  await until('the model shown', () => run(r, runId)?.model?.startsWith('ref-large'));
  assert.match(run(r, runId)?.model ?? '', /Plan/i, 'the mode is shown with it');
});

test('sign-in: an env_var method asks for the key, keeps it in the secret store, and the restarted agent accepts sessions', { timeout: 40_000 }, async () => {
  const secrets = memorySecrets();
  const r = await rig({ agentArgs: ['--auth'], secrets });
  await assert.rejects(r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] }), /sign in first/);
  assert.deepEqual(r.driver.actionFacts(), ['signIn', 'listSessions']);
  const target = { connectionId: r.setup.connectionId };
  const method = await r.driver.nextActionInput('agentSwitchboard.acp.signIn', target, {});
  const id = method?.kind === 'pick' ? method.choices[0]!.value : '';
  const key = await r.driver.nextActionInput('agentSwitchboard.acp.signIn', target, { method: id });
  assert.equal(key?.kind === 'text' && key.secret, true, 'asked as a secret');
  const name = key?.name ?? '';
  await r.driver.performAction('agentSwitchboard.acp.signIn', target, { method: id, [name]: 'sk-test-123' });
  assert.equal(await secrets.get(`env:${name}`), 'sk-test-123');
  assert.ok(!JSON.stringify(r.frames).includes('sk-test-123'), 'the key never crosses the protocol (it is in the environment)');
  const runId = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  await until('a turn after the sign-in', () => idle(r, runId));
});
