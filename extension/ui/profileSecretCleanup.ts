/**
 * A profile removed from the settings takes its sign-in with it: once a clean read confirms it is gone
 * (removedProfiles.ts), its secret store — the namespace of what it ran (connectionSecrets.ts) — is emptied through
 * its daemon's `forgetSecrets`, unless a profile still there runs the same thing and so shares that store.
 */
import type * as vscode from 'vscode';
import { daemonRegistry } from '../drivers/daemonRegistry';
import type { ConnectionProfile } from '../protocol/connectionProfile';
import { secretNamespaceOfProfile } from './connectionSecrets';
import { driverSecretsFor } from './driverSecrets';
import { RemovedProfiles } from './removedProfiles';

export type ProfileReadObserver = (removed: readonly ConnectionProfile[], current: readonly ConnectionProfile[], clean: boolean) => void;

export function forgetRemovedProfileSecrets(storage: vscode.SecretStorage, log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>): ProfileReadObserver {
  const removedProfiles = new RemovedProfiles();
  return (removed, current, clean) => {
    const inUse = new Set(current.map((p) => secretNamespaceOfProfile(p)));
    for (const gone of removedProfiles.observe(removed, current, clean)) {
      const namespace = secretNamespaceOfProfile(gone);
      if (inUse.has(namespace)) {
        continue;
      }
      daemonRegistry[gone.protocol].forgetSecrets?.(driverSecretsFor(storage, namespace)).then(
        (had) => had && log.info(`[${gone.name}] Its profile was removed: the sign-in kept for it was deleted from the secret storage.`),
        (error: unknown) => log.warn(`[${gone.name}] The sign-in of the removed profile could not be deleted: ${String(error)}`),
      );
    }
  };
}
