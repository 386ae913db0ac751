/** Driver secrets live in SecretStorage under one namespace per connection, and no two connections can collide. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { driverSecretsFor, secretKeyOf } from '../../../extension/ui/driverSecrets';

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

test('keys are agentSwitchboard/<connectionId>/<key>', () => {
  assert.equal(secretKeyOf('acp:Claude Code', 'ANTHROPIC_API_KEY'), 'agentSwitchboard/acp:Claude Code/ANTHROPIC_API_KEY');
});

test("a '/' or '%' in the connection id cannot reach another connection's key", () => {
  assert.notEqual(secretKeyOf('acp:a/b', 'c'), secretKeyOf('acp:a', 'b/c'));
  assert.equal(secretKeyOf('acp:a/b', 'c'), 'agentSwitchboard/acp:a%2Fb/c');
  assert.notEqual(secretKeyOf('acp:a%2Fb', 'c'), secretKeyOf('acp:a/b', 'c'));
});

test('get / store / delete go to the namespaced entry of that connection only', async () => {
  const { storage, entries } = fakeStorage();
  const claude = driverSecretsFor(storage, 'acp:claude');
  const codex = driverSecretsFor(storage, 'acp:codex');
  await claude.store('API_KEY', 'sk-claude');
  await codex.store('API_KEY', 'sk-codex');
  assert.deepEqual([...entries], [
    ['agentSwitchboard/acp:claude/API_KEY', 'sk-claude'],
    ['agentSwitchboard/acp:codex/API_KEY', 'sk-codex'],
  ]);
  assert.equal(await claude.get('API_KEY'), 'sk-claude');
  await claude.delete('API_KEY');
  assert.equal(await claude.get('API_KEY'), undefined);
  assert.equal(await codex.get('API_KEY'), 'sk-codex');
});
