/**
 * Driver secrets live in SecretStorage under the namespace of the connection's binding (what it runs), and a user
 * profile's secrets stored under the old name-keyed layout move there once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { boundSecretKeyOf, deleteSecretsIn, driverSecretsFor, migrateNameKeyedSecrets, secretKeyOf, secretKeysIn } from '../../../extension/ui/driverSecrets';

function fakeStorage(): { storage: vscode.SecretStorage; entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const storage = {
    get: (key: string) => Promise.resolve(entries.get(key)),
    store: (key: string, value: string) => Promise.resolve(void entries.set(key, value)),
    delete: (key: string) => Promise.resolve(void entries.delete(key)),
    keys: () => Promise.resolve([...entries.keys()]),
    onDidChange: () => ({ dispose: () => undefined }),
  } as unknown as vscode.SecretStorage;
  return { storage, entries };
}

const NS_A = 'a'.repeat(64);
const NS_B = 'b'.repeat(64);

test("the old keys were agentSwitchboard/<connectionId>/<key>, with '/' and '%' escaped", () => {
  assert.equal(secretKeyOf('acp:Claude Code', 'ANTHROPIC_API_KEY'), 'agentSwitchboard/acp:Claude Code/ANTHROPIC_API_KEY');
  assert.notEqual(secretKeyOf('acp:a/b', 'c'), secretKeyOf('acp:a', 'b/c'));
  assert.notEqual(secretKeyOf('acp:a%2Fb', 'c'), secretKeyOf('acp:a/b', 'c'));
});

test('get / store / delete go to the entry of that namespace only', async () => {
  const { storage, entries } = fakeStorage();
  const a = driverSecretsFor(storage, NS_A);
  const b = driverSecretsFor(storage, NS_B);
  await a.store('API_KEY', 'sk-a');
  await b.store('API_KEY', 'sk-b');
  assert.deepEqual([...entries], [
    [`agentSwitchboard/bound/${NS_A}/API_KEY`, 'sk-a'],
    [`agentSwitchboard/bound/${NS_B}/API_KEY`, 'sk-b'],
  ]);
  assert.equal(await a.get('API_KEY'), 'sk-a');
  await a.delete('API_KEY');
  assert.equal(await a.get('API_KEY'), undefined);
  assert.equal(await b.get('API_KEY'), 'sk-b');
});

test("a user profile's name-keyed secrets move into its namespace once, and the old entries are gone", async () => {
  const { storage, entries } = fakeStorage();
  entries.set(secretKeyOf('acp:Claude Code', 'authMethod'), 'api-key');
  entries.set(secretKeyOf('acp:Claude Code', 'env:ANTHROPIC_API_KEY'), 'sk-user');
  entries.set(secretKeyOf('acp:Codex', 'authMethod'), 'other');
  assert.equal(await migrateNameKeyedSecrets(storage, 'acp:Claude Code', NS_A), 2);
  assert.equal(entries.get(boundSecretKeyOf(NS_A, 'env:ANTHROPIC_API_KEY')), 'sk-user');
  assert.equal(entries.get(boundSecretKeyOf(NS_A, 'authMethod')), 'api-key');
  assert.equal(entries.has(secretKeyOf('acp:Claude Code', 'env:ANTHROPIC_API_KEY')), false);
  assert.equal(entries.get(secretKeyOf('acp:Codex', 'authMethod')), 'other', "another connection's keys stay");
  assert.equal(await migrateNameKeyedSecrets(storage, 'acp:Claude Code', NS_A), 0, 'once');
});

test('a namespace that already holds secrets is not overwritten by a migration', async () => {
  const { storage, entries } = fakeStorage();
  entries.set(boundSecretKeyOf(NS_A, 'authMethod'), 'current');
  entries.set(secretKeyOf('acp:x', 'authMethod'), 'old');
  assert.equal(await migrateNameKeyedSecrets(storage, 'acp:x', NS_A), 0);
  assert.equal(entries.get(boundSecretKeyOf(NS_A, 'authMethod')), 'current');
});

test('reads wait for the migration the store was given', async () => {
  const { storage, entries } = fakeStorage();
  entries.set(secretKeyOf('acp:x', 'authMethod'), 'old');
  const secrets = driverSecretsFor(storage, NS_A, migrateNameKeyedSecrets(storage, 'acp:x', NS_A));
  assert.equal(await secrets.get('authMethod'), 'old');
});

test('secretKeysIn and deleteSecretsIn cover one namespace (what a Sign Out deletes)', async () => {
  const { storage, entries } = fakeStorage();
  await driverSecretsFor(storage, NS_A).store('k1', 'v');
  await driverSecretsFor(storage, NS_A).store('k2', 'v');
  await driverSecretsFor(storage, NS_B).store('k1', 'v');
  assert.deepEqual(await secretKeysIn(storage, NS_A), ['k1', 'k2']);
  await deleteSecretsIn(storage, NS_A);
  assert.deepEqual([...entries.keys()], [boundSecretKeyOf(NS_B, 'k1')]);
});
