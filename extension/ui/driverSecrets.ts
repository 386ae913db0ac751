/**
 * The editor's side of `DriverSecrets` (drivers/kit/workspaceAccess.ts): VS Code's SecretStorage (the OS keychain
 * where there is one), one namespace per *binding* — a digest of what the connection runs or reaches
 * (drivers/profileTrust/secretBinding.ts), not its name — so an agent's API key never lands in settings or the
 * trace, one connection cannot read another's, and a profile a repository defines under the name of the user's
 * cannot receive the user's key.
 *
 * Keys used to be `agentSwitchboard/<connectionId>/<key>`. A profile from the user's own settings has those moved
 * into its namespace once, on first use (so nobody signs in again); a workspace-defined profile never does.
 */
import type * as vscode from 'vscode';
import type { DriverSecrets } from '../drivers/kit/workspaceAccess';

/** SecretStorage's `keys()` (VS Code 1.97+; the @types the extension builds with predate it). */
type ListableSecretStorage = vscode.SecretStorage & { keys?: () => Thenable<string[]> };

/** The pre-binding key of `key` for `connectionId` (`%` and `/` escaped so no two pairs meet); read only to migrate. */
export function secretKeyOf(connectionId: string, key: string): string {
  return `${legacyPrefixOf(connectionId)}${key}`;
}

function legacyPrefixOf(connectionId: string): string {
  return `agentSwitchboard/${connectionId.replace(/%/g, '%25').replace(/\//g, '%2F')}/`;
}

/** Every key of namespace `namespace` starts with this (what a Sign Out deletes). `namespace` is a hex digest. */
export function secretPrefixOf(namespace: string): string {
  return `agentSwitchboard/bound/${namespace}/`;
}

/** The SecretStorage key of `key` in `namespace`. */
export function boundSecretKeyOf(namespace: string, key: string): string {
  return `${secretPrefixOf(namespace)}${key}`;
}

/** The stored keys (without the prefix) of `namespace`; empty when the storage cannot list its keys. */
export async function secretKeysIn(storage: vscode.SecretStorage, namespace: string): Promise<string[]> {
  return keysUnder(storage, secretPrefixOf(namespace));
}

/** Deletes every secret of `namespace` (Sign Out, or a removed profile). */
export async function deleteSecretsIn(storage: vscode.SecretStorage, namespace: string): Promise<void> {
  for (const key of await secretKeysIn(storage, namespace)) {
    await storage.delete(boundSecretKeyOf(namespace, key));
  }
}

async function keysUnder(storage: vscode.SecretStorage, prefix: string): Promise<string[]> {
  const keys = (storage as ListableSecretStorage).keys;
  if (typeof keys !== 'function') {
    return [];
  }
  return (await keys.call(storage)).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
}

/**
 * Moves the secrets stored under the old name-keyed layout of `connectionId` into `namespace`, unless the namespace
 * already holds some (a second profile of the same binding must not be overwritten). Returns how many moved.
 * Only for the user's own profiles: the caller decides.
 */
export async function migrateNameKeyedSecrets(storage: vscode.SecretStorage, connectionId: string, namespace: string): Promise<number> {
  const legacy = await keysUnder(storage, legacyPrefixOf(connectionId));
  if (legacy.length === 0 || (await secretKeysIn(storage, namespace)).length > 0) {
    return 0;
  }
  for (const key of legacy) {
    const value = await storage.get(secretKeyOf(connectionId, key));
    if (value !== undefined) {
      await storage.store(boundSecretKeyOf(namespace, key), value);
    }
    await storage.delete(secretKeyOf(connectionId, key));
  }
  return legacy.length;
}

/**
 * The secrets of one connection, kept in `storage` under `namespace`. `ready` (e.g. the migration above) is waited
 * for before the first read or write.
 */
export function driverSecretsFor(storage: vscode.SecretStorage, namespace: string, ready: Promise<unknown> = Promise.resolve()): DriverSecrets {
  const settled = ready.then(
    () => undefined,
    () => undefined,
  );
  return {
    get: async (key) => settled.then(() => storage.get(boundSecretKeyOf(namespace, key))),
    store: async (key, value) => settled.then(() => storage.store(boundSecretKeyOf(namespace, key), value)),
    delete: async (key) => settled.then(() => storage.delete(boundSecretKeyOf(namespace, key))),
  };
}
