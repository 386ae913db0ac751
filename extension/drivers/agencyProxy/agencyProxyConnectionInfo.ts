/**
 * Opening one AgencyProxy connection for the driver: the socket from the profile or discovery (WIRE.md 1.1), the
 * client with the driver's frame tap, the socket's security warnings (logged when they change), and what the
 * handshake says the daemon can do, as the model's capabilities and server description.
 */
import type { Capability } from '../../model/modelTypes';
import type { DriverRuns } from '../kit/driverRuns';
import type { AgencyProxyCursor } from './agencyProxyRecords';
import type { DriverContext } from '../connectionManager';
import { AgencyProxyClient } from './client';
import { checkSocketSecurity, resolveSocketPath } from './socketDiscovery';

const CAPABILITY_MAP: Record<string, Capability[]> = {
  live_injection: ['run.inject'],
  approvals: ['approvals', 'approvals.allowSimilar'],
  // Ending an interactive run that waits for input is a cancel_run (WIRE.md 1.5: nothing else ends it).
  cancellation: ['run.cancel', 'run.end'],
  provider_detection: ['providers'],
  lifecycle_control: ['daemon.shutdown'],
};

/** Connects a client to the profile's socket (or the first live one at the usual places). */
export async function openAgencyProxyClient(ctx: DriverContext): Promise<{ client: AgencyProxyClient; socketPath: string }> {
  const socketPath = await resolveSocketPath(ctx.profile.socketPath, (m) => ctx.log.info(m));
  const client = await AgencyProxyClient.connect({ socketPath, frameTap: ctx.tap, clientName: 'agent-switchboard' });
  return { client, socketPath };
}

/**
 * Publishes what the new connection is: the socket's security warning (logged only when it differs from
 * `lastWarning`; returned to be passed next time), the capabilities and the server.
 */
export function publishAgencyProxyConnection(ctx: DriverContext, runs: DriverRuns<AgencyProxyCursor>, client: AgencyProxyClient, socketPath: string, lastWarning: string): string {
  const warning = checkSocketSecurity(socketPath).warnings.join(' ');
  if (warning && warning !== lastWarning) {
    ctx.log.warn(warning);
  }
  runs.connectionInfo({ warning });
  // `run.interactive`: a run may stay open for follow-ups (New Run asks); `runs.refresh`: the run list is only read.
  const capabilities = new Set<Capability>(['run.start', 'run.interactive', 'run.workingDirectory', 'runs.refresh', 'changeSets.local']);
  for (const c of client.capabilities) {
    for (const mapped of CAPABILITY_MAP[c] ?? []) {
      capabilities.add(mapped);
    }
  }
  runs.connectionInfo({ capabilities: [...capabilities],
    serverDescription: `${client.serverName} ${client.version.major}.${client.version.minor}`,
  });
  return warning;
}
