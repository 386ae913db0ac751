/**
 * A driver's secret store that tells the host's secret-value registry (transport/secretValues.ts) every secret it
 * reads or stores, so the trace and the log can redact that value wherever it shows up later — in a file an agent
 * read, in its stderr, in an error. Only the keys `holdsSecret` names are recorded: a store also keeps bookkeeping
 * (which sign-in method was chosen) that the trace should go on showing.
 */
import type { SecretValues } from '../../transport/secretValues';
import type { DriverSecrets } from './workspaceAccess';

export function recordingSecrets(inner: DriverSecrets, registry: SecretValues, holdsSecret: (key: string) => boolean): DriverSecrets {
  return {
    get: async (key) => {
      const value = await inner.get(key);
      if (value !== undefined && holdsSecret(key)) {
        registry.add(value);
      }
      return value;
    },
    store: async (key, value) => {
      // Before it is stored: anything the store logs on the way is already redacted.
      if (holdsSecret(key)) {
        registry.add(value);
      }
      await inner.store(key, value);
    },
    delete: (key) => inner.delete(key),
  };
}
