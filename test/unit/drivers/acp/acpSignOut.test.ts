/**
 * Sign Out (agentSwitchboard.acp.signOut) and what a profile's removal deletes (drivers/acp/acpLaunch.ts
 * `forgetSignIn`): the method, its variable list and every stored value go, including values an earlier sign-in left
 * behind; a running agent restarts without its key (and asks for a sign-in again); nothing stored says so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemonRegistry } from '../../../../extension/drivers/daemonRegistry';
import type { AuthChoice } from '../../../../extension/drivers/acp/acpLaunch';
import { forgetAuthChoice, forgetSignIn, storeAuthChoice } from '../../../../extension/drivers/acp/acpLaunch';
import type { DriverSecrets } from '../../../../extension/drivers/kit/workspaceAccess';
import { AUTH_ENV_VAR, AUTH_METHOD_ID } from '../../../fixtures/acp/referenceAgent';
import { rig } from './acpDriverKit';

/** A secret store whose contents a test can list. */
function listedSecrets(): DriverSecrets & { readonly entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: async (key) => entries.get(key),
    store: async (key, value) => void entries.set(key, value),
    delete: async (key) => void entries.delete(key),
  };
}

const apiKey = (id: string, ...vars: string[]): AuthChoice => ({ id, name: id, kind: 'env_var', vars: vars.map((name) => ({ name, label: name, secret: true })) });

test('Sign Out deletes the stored sign-in, says what went, and the restarted agent wants a sign-in again', { timeout: 40_000 }, async () => {
  const secrets = listedSecrets();
  const r = await rig({ agentArgs: ['--auth'], secrets });
  const target = { connectionId: r.setup.connectionId };
  await r.driver.performAction('agentSwitchboard.acp.signIn', target, { method: AUTH_METHOD_ID, [AUTH_ENV_VAR]: 'sk-sign-out-123456' });
  const signedIn = await r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] });
  assert.ok(signedIn);
  assert.ok(secrets.entries.size > 0);

  const result = await r.driver.performAction('agentSwitchboard.acp.signOut', target, { confirmed: true });
  assert.equal(result.kind, 'done');
  assert.match(result.kind === 'done' ? (result.message ?? '') : '', new RegExp(`Signed out of ref \\(.*\\): ${AUTH_ENV_VAR} deleted from VS Code's secret storage; the agent was restarted without it\\.`));
  assert.deepEqual([...secrets.entries.keys()], [], 'nothing of the sign-in is left');
  assert.equal(r.setup.store.state.connections.get(r.setup.connectionId)?.state.kind, 'connected');
  await assert.rejects(r.driver.startRun({ prompt: 'hello', workspaceRoots: [r.ws.dir] }), /sign in first/, 'the agent no longer has the key');

  const again = await r.driver.performAction('agentSwitchboard.acp.signOut', target, { confirmed: true });
  assert.match(again.kind === 'done' ? (again.message ?? '') : '', /kept no sign-in for ref/);
});

test('forgetSignIn: every value of the chosen method, and of the methods the agent lists, nothing else', async () => {
  const secrets = listedSecrets();
  await secrets.store('unrelated', 'x');
  await storeAuthChoice(secrets, apiKey('a', 'A_KEY', 'A_ORG'), { A_KEY: 'sk-aaaaaaaa', A_ORG: 'org' });
  // A value an older version left behind: listed under a method the agent still offers, but not the chosen one.
  await secrets.store('vars:b', 'B_KEY');
  await secrets.store('env:B_KEY', 'sk-bbbbbbbb');
  const forgotten = await forgetSignIn(secrets, [apiKey('b', 'B_KEY')]);
  assert.deepEqual(forgotten, { methodId: 'a', variables: ['B_KEY', 'A_KEY', 'A_ORG'] });
  assert.deepEqual([...secrets.entries.keys()], ['unrelated']);
});

test('a new sign-in forgets the earlier one; a refused one leaves no values behind', async () => {
  const secrets = listedSecrets();
  await storeAuthChoice(secrets, apiKey('a', 'A_KEY'), { A_KEY: 'sk-aaaaaaaa' });
  await storeAuthChoice(secrets, apiKey('b', 'B_KEY'), { B_KEY: 'sk-bbbbbbbb' });
  assert.deepEqual(Object.fromEntries(secrets.entries), { 'env:B_KEY': 'sk-bbbbbbbb', 'vars:b': 'B_KEY', authMethod: 'b' });
  await forgetAuthChoice(secrets);
  assert.deepEqual([...secrets.entries.keys()], []);
});

test("the registry's ACP entry deletes a removed profile's secrets and says whether there were any", async () => {
  const secrets = listedSecrets();
  const forget = daemonRegistry.acp.forgetSecrets!;
  assert.equal(await forget(secrets), false);
  await storeAuthChoice(secrets, apiKey('a', 'A_KEY'), { A_KEY: 'sk-aaaaaaaa' });
  assert.equal(await forget(secrets), true);
  assert.deepEqual([...secrets.entries.keys()], []);
  assert.equal(daemonRegistry['agency-proxy'].forgetSecrets, undefined, 'daemons without secrets have nothing to forget');
});
