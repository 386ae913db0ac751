/**
 * What the ACP driver keeps secret, and how the host learns to redact it: the sign-in store (the editor's secret
 * storage, or memory in tests) wrapped so every API key read or stored is registered with the host's secret-value
 * registry (transport/secretValues.ts), and the secret-looking variables an agent is started with.
 */
import { recordingSecrets } from '../kit/recordingSecrets';
import type { DriverSecrets } from '../kit/workspaceAccess';
import { processSecretValues } from '../../transport/secretValues';
import { secretEnvValues } from '../../transport/traceRedaction';
import { memorySecrets } from './acpEditorAccess';
import { holdsSecretValue } from './acpLaunch';

/** The driver's sign-in store: every API key it reads or stores is redacted by value from the trace and log after. */
export function acpSecrets(secrets: DriverSecrets | undefined): DriverSecrets {
  return recordingSecrets(secrets ?? memorySecrets(), processSecretValues, holdsSecretValue);
}

/** Registers the keys an agent gets from its profile or the editor's environment (OPENAI_API_KEY …) for redaction. */
export function registerLaunchSecrets(env: Readonly<Record<string, string | undefined>>): void {
  for (const value of secretEnvValues(env)) {
    processSecretValues.add(value);
  }
}
