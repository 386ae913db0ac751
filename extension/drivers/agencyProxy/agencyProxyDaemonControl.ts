/**
 * What the AgencyProxy driver asks of the daemon itself rather than of one run (WIRE.md 1.4, 1.12): the providers it
 * can start (installed, logged in), the providers' account usage, and stopping the daemon. A refusal comes back as a
 * driver error (the kit's taxonomy), said plainly by the UI.
 */
import type { ProviderChoice } from '../driver';
import { toDriverError } from '../kit/errors';
import type { AgencyProxyClient } from './client';

/** The providers the daemon probes, as the new-run picker lists them. */
export async function agencyProxyProviders(client: AgencyProxyClient): Promise<readonly ProviderChoice[]> {
  const providers = await client.probeProviders();
  return providers.map((p) => ({
    provider: p.provider,
    installed: p.installed,
    ...(p.version ? { version: p.version } : {}),
    outdated: p.outdated,
    authState: p.authState,
    detail: p.detail,
    loginHint: p.loginHint,
  }));
}

/** Provider account usage as the daemon reports it (provider-specific; shown raw). */
export async function agencyProxyAccountUsage(client: AgencyProxyClient): Promise<readonly { provider: string; supported: boolean; usage: unknown; error: string | null }[]> {
  try {
    return await client.readAccountUsage();
  } catch (error) {
    throw toDriverError(error);
  }
}

/** Stops the daemon: `if idle` only when no run is active (`conflict` otherwise); `drain` lets runs finish; `terminate` cancels them. */
export async function stopAgencyProxy(client: AgencyProxyClient, mode: 'if idle' | 'drain' | 'terminate'): Promise<void> {
  try {
    await (mode === 'if idle' ? client.shutdownIfIdle() : client.shutdown(mode));
  } catch (error) {
    throw toDriverError(error);
  }
}
