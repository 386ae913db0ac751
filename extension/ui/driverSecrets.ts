/**
 * The editor's side of `DriverSecrets` (drivers/kit/workspaceAccess.ts): VS Code's SecretStorage (the OS keychain
 * where there is one), one namespace per connection, so an agent's API key never lands in settings or the trace and
 * one connection cannot read another's.
 */
import type * as vscode from 'vscode';
import type { DriverSecrets } from '../drivers/kit/workspaceAccess';

/**
 * The SecretStorage key of `key` for `connectionId`: `agentSwitchboard/<connectionId>/<key>`. `%` and `/` in the
 * connection id are escaped, so no pair of (connection, key) can name another's entry (`a/b` + `c` vs `a` + `b/c`).
 */
export function secretKeyOf(connectionId: string, key: string): string {
  return `agentSwitchboard/${connectionId.replace(/%/g, '%25').replace(/\//g, '%2F')}/${key}`;
}

/** The secrets of one connection, kept in `storage`. */
export function driverSecretsFor(storage: vscode.SecretStorage, connectionId: string): DriverSecrets {
  return {
    get: async (key) => storage.get(secretKeyOf(connectionId, key)),
    store: async (key, value) => storage.store(secretKeyOf(connectionId, key), value),
    delete: async (key) => storage.delete(secretKeyOf(connectionId, key)),
  };
}
