/**
 * The model and mode of an ACP session reach the agent, and stay: "New Run…" offers what the agent advertises (from
 * the session the run then takes) and the choices are sent before the first prompt; what the agent does not offer or
 * refuses is said in the transcript; after a reload (the agent's session/load answers its defaults) the person's last
 * choices are applied again — a session put in Plan mode does not run tools after a reload.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Rig } from './acpDriverKit';
import { idle, rig, run } from './acpDriverKit';
import { README_TEXT } from './acpWorkspace';
import { until } from '../driverKit';

/** The JSON-RPC requests the driver sent, by method, with their params. */
function sent(r: Rig, method: string): Record<string, unknown>[] {
  return r.frames
    .filter((f) => f.dir === 'out' && (f.frame as { method?: string }).method === method)
    .map((f) => (f.frame as { params: Record<string, unknown> }).params);
}

function methodsSent(r: Rig): string[] {
  return r.frames.map((f) => (f.dir === 'out' ? (f.frame as { method?: string }).method : undefined)).filter((m): m is string => m !== undefined && m.startsWith('session/'));
}

function notices(r: Rig, runId: string): string[] {
  return r.items(runId).flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
}

/** Waits for the turn to end or to ask for a permission, whichever comes. */
async function settled(r: Rig, runId: string): Promise<void> {
  await until('the turn ended or asked', () => (idle(r, runId) && r.items(runId).some((i) => i.kind === 'turn' && i.phase === 'completed')) || (run(r, runId)?.pendingApprovals.length ?? 0) > 0);
}

test('New Run offers the agent\'s models and modes, and the chosen ones are sent before the first prompt', { timeout: 30_000 }, async () => {
  const r = await rig();
  const choices = await r.driver.newRunChoices([r.ws.dir]);
  assert.deepEqual(choices.models?.map((c) => [c.value, c.isDefault === true]), [['ref-small', true], ['ref-large', false]]);
  assert.deepEqual(choices.permissions?.map((c) => [c.value, c.isDefault === true]), [['ask', true], ['auto', false], ['plan', false]]);
  // The mode that applies edits without asking says so where it is chosen (autonomousModes.ts); the others do not.
  assert.deepEqual(choices.permissions?.map((c) => (c.detail ?? '').startsWith('⚠')), [false, true, false]);
  const runId = await r.driver.startRun({ prompt: 'edit the readme', model: 'ref-large', permission: 'plan', workspaceRoots: [r.ws.dir] });
  await settled(r, runId);
  assert.deepEqual(sent(r, 'session/new').length, 1, 'the run took the session New Run asked');
  assert.deepEqual(methodsSent(r).slice(0, 4), ['session/new', 'session/set_mode', 'session/set_config_option', 'session/prompt']);
  assert.deepEqual(sent(r, 'session/set_config_option')[0], { sessionId: runId, configId: 'model', value: 'ref-large' });
  assert.equal(run(r, runId)?.pendingApprovals.length, 0, 'plan mode: the agent asked nothing');
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT, 'plan mode: nothing written');
  await until('shown with the run', () => run(r, runId)?.model === 'ref-large · Plan');
  assert.ok((run(r, runId)?.slashCommands?.length ?? 0) > 0, 'the commands the agent announced before the run started are there');
  assert.deepEqual(notices(r, runId), []);
});

test('a model or mode the agent does not offer, or refuses, is said; the run goes on in what the agent has', { timeout: 30_000 }, async () => {
  const r = await rig({ agentArgs: ['--refuse-mode', 'auto'] });
  const refused = await r.driver.startRun({ prompt: 'edit the readme', model: 'gpt-5.2', permission: 'auto', workspaceRoots: [r.ws.dir] });
  await settled(r, refused);
  const said = notices(r, refused);
  assert.ok(said.some((n) => /refused the mode Auto-edit for the new session .*cannot be used here.*stays in Ask/.test(n)), said.join('\n'));
  assert.ok(said.some((n) => /does not offer Model "gpt-5\.2".*stays ref-small/.test(n)), said.join('\n'));
  assert.equal(run(r, refused)?.pendingApprovals.length, 1, 'still in Ask: the edit asks');

  const unknown = await r.driver.startRun({ prompt: 'hello', permission: 'read_only', workspaceRoots: [r.ws.dir] });
  await settled(r, unknown);
  assert.ok(notices(r, unknown).some((n) => /does not offer the mode "read_only"/.test(n)), notices(r, unknown).join('\n'));
});

test('after a reload the session gets its mode and model again (session/load answers the defaults)', { timeout: 40_000 }, async () => {
  // An agent that loads but does not resume: the load's defaults are what the choices must overrule.
  const first = await rig({ agentArgs: ['--load-defaults', '--without-session', 'resume'] });
  const runId = await first.driver.startRun({ prompt: 'hello', workspaceRoots: [first.ws.dir] });
  await until('idle', () => idle(first, runId));
  await first.driver.setMode(runId, 'plan');
  await first.driver.setConfigOption(runId, 'model', 'ref-large');
  await first.driver.dispose();

  const second = await rig({ ws: first.ws, storage: first.storage, stateDir: first.stateDir, agentArgs: ['--load-defaults', '--without-session', 'resume'] });
  await second.driver.sendMessage(runId, 'edit the readme');
  await until('two turns', () => second.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2 || (run(second, runId)?.pendingApprovals.length ?? 0) > 0);
  assert.deepEqual(methodsSent(second).slice(0, 4), ['session/load', 'session/set_mode', 'session/set_config_option', 'session/prompt']);
  assert.equal(run(second, runId)?.pendingApprovals.length, 0, 'still in Plan: no tool runs');
  assert.equal(readFileSync(second.ws.readme, 'utf8'), README_TEXT);
  assert.equal(run(second, runId)?.model, 'ref-large · Plan', 'the header says what the session runs with');
});

test('after a reload, a mode the agent refuses is said, not dropped', { timeout: 40_000 }, async () => {
  const first = await rig({ agentArgs: ['--load-defaults', '--without-session', 'resume'] });
  const runId = await first.driver.startRun({ prompt: 'hello', permission: 'plan', workspaceRoots: [first.ws.dir] });
  await until('idle', () => idle(first, runId));
  await first.driver.dispose();

  const second = await rig({ ws: first.ws, storage: first.storage, stateDir: first.stateDir, agentArgs: ['--load-defaults', '--refuse-mode', 'plan', '--without-session', 'resume'] });
  await second.driver.sendMessage(runId, 'hello again');
  await until('the second turn', () => second.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2);
  assert.ok(notices(second, runId).some((n) => /refused the mode Plan after the reload .*stays in Ask/.test(n)), notices(second, runId).join('\n'));
  assert.equal(run(second, runId)?.model, 'ref-small · Ask', 'the header says the mode it is really in');
});

test('a mode the agent switched to itself (current_mode_update) is the one the session gets back after a reload', { timeout: 40_000 }, async () => {
  const first = await rig({ agentArgs: ['--load-defaults'] });
  const runId = await first.driver.startRun({ prompt: 'hello mode:plan', workspaceRoots: [first.ws.dir] });
  await until('idle in plan mode', () => idle(first, runId) && run(first, runId)?.model === 'ref-small · Plan');
  await first.driver.dispose();

  const second = await rig({ ws: first.ws, storage: first.storage, stateDir: first.stateDir, agentArgs: ['--load-defaults', '--without-session', 'resume'] });
  await second.driver.sendMessage(runId, 'edit the readme');
  await settled(second, runId);
  await until('the second turn or a request', () => second.items(runId).filter((i) => i.kind === 'turn' && i.phase === 'completed').length === 2 || (run(second, runId)?.pendingApprovals.length ?? 0) > 0);
  assert.deepEqual(sent(second, 'session/set_mode').map((p) => p.modeId), ['plan']);
  assert.equal(run(second, runId)?.pendingApprovals.length, 0, 'still in Plan');
});

test('a session in a mode that acts without asking says so with the run (header, board and tree show the model field)', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'hello', permission: 'auto', workspaceRoots: [r.ws.dir] });
  await until('shown with the run', () => run(r, runId)?.model?.startsWith('ref-small · Auto-edit ⚠'));
  await until('idle', () => idle(r, runId));
  await r.driver.setMode(runId, 'ask');
  await until('back to a mode that asks', () => run(r, runId)?.model === 'ref-small · Ask');
});

test("a profile's start mode is New Run's default and what a run gets when no mode is picked; one the agent lacks is said", { timeout: 30_000 }, async () => {
  const r = await rig({ profile: { startMode: 'plan' } });
  const choices = await r.driver.newRunChoices([r.ws.dir]);
  assert.deepEqual(choices.permissions?.map((c) => [c.value, c.isDefault === true]), [['ask', false], ['auto', false], ['plan', true]]);
  const runId = await r.driver.startRun({ prompt: 'edit the readme', permission: '', workspaceRoots: [r.ws.dir] });
  await settled(r, runId);
  assert.deepEqual(sent(r, 'session/set_mode'), [{ sessionId: runId, modeId: 'plan' }]);
  assert.equal(run(r, runId)?.pendingApprovals.length, 0, 'plan mode: the agent asked nothing');
  assert.equal(readFileSync(r.ws.readme, 'utf8'), README_TEXT);
  // A mode picked in New Run wins over the start mode.
  const picked = await r.driver.startRun({ prompt: 'edit the readme', permission: 'ask', workspaceRoots: [r.ws.dir] });
  await settled(r, picked);
  assert.equal(run(r, picked)?.pendingApprovals.length, 1, 'Ask: the edit asks');

  const lacking = await rig({ profile: { startMode: 'manual' } });
  const other = await lacking.driver.newRunChoices([lacking.ws.dir]);
  assert.deepEqual(other.permissions?.filter((c) => c.isDefault).map((c) => c.value), ['ask'], "the agent's own default when it lacks the start mode");
  const unknown = await lacking.driver.startRun({ prompt: 'hello', workspaceRoots: [lacking.ws.dir] });
  await settled(lacking, unknown);
  assert.ok(notices(lacking, unknown).some((n) => /does not offer the mode "manual"/.test(n)), notices(lacking, unknown).join('\n'));
});
