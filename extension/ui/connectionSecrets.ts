/**
 * The secret store a connection's driver gets: the namespace of its binding (drivers/profileTrust/secretBinding.ts:
 * what runs, not the profile's name), with a profile from the user's own settings first taking over what it stored
 * under the old name-keyed layout. A workspace-defined profile never takes anything over.
 */
import type * as vscode from 'vscode';
import type { DriverSecrets } from '../drivers/kit/workspaceAccess';
import { resolveAgentCommand } from '../drivers/profileTrust/commandResolution';
import type { ProfileOrigin } from '../drivers/profileTrust/profileSources';
import { isWorkspaceDefined } from '../drivers/profileTrust/profileSources';
import { secretNamespaceOf } from '../drivers/profileTrust/secretBinding';
import type { ConnectionProfile } from '../protocol/connectionProfile';
import { driverSecretsFor, migrateNameKeyedSecrets } from './driverSecrets';

/** The namespace of `profile`'s secrets (the command resolved on the extension host's PATH, as at launch). */
export function secretNamespaceOfProfile(profile: ConnectionProfile): string {
  const resolved = profile.command === undefined ? undefined : resolveAgentCommand(profile.command, process.env.PATH);
  return secretNamespaceOf(profile, resolved?.ok ? resolved.path : undefined);
}

export function connectionSecrets(
  storage: vscode.SecretStorage,
  connectionId: string,
  profile: ConnectionProfile,
  origin: ProfileOrigin,
  log: { info(message: string): void; warn(message: string): void },
): DriverSecrets {
  const namespace = secretNamespaceOfProfile(profile);
  const migrated = isWorkspaceDefined(origin)
    ? Promise.resolve()
    : migrateNameKeyedSecrets(storage, connectionId, namespace).then(
        (count) => count > 0 && log.info(`Moved ${count} stored secret${count === 1 ? '' : 's'} to the store bound to what this connection runs.`),
        (error: unknown) => log.warn(`Moving the stored secrets failed: ${String(error)}`),
      );
  return driverSecretsFor(storage, namespace, migrated);
}
