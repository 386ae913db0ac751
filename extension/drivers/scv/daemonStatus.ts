/**
 * Management exchanges (WIRE.md §2.10): a separate, short-lived connection — initialize, one `daemon.control`,
 * close — so status polling never touches a session connection. Socket only (stdio servers answer `unsupported`).
 */
import type { DaemonCommand, DaemonStatus } from '../../protocol/scvDaemonControl';
import { ScvClient } from './client';
import type { ScvClientOptions } from './scvClientTypes';

/** Sends one `daemon.control` command on a fresh connection; resolves with the daemon's status. An older daemon
 * answers an action it does not know with `invalid_json` (an `ScvRequestError`). */
export async function daemonControl(command: DaemonCommand, options: ScvClientOptions): Promise<DaemonStatus> {
  const client = new ScvClient({ replyTimeoutMs: 20_000, ...options });
  try {
    await client.connect();
    return await client.control(command);
  } finally {
    client.dispose();
  }
}

/** `daemon.control {action: "status"}` on a fresh connection. */
export function daemonStatus(options: ScvClientOptions): Promise<DaemonStatus> {
  return daemonControl({ action: 'status' }, options);
}
