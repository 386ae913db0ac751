/**
 * Why connecting to a hive failed, sorted for the reconnect loop: permission problems are fatal (retrying cannot
 * help, the connection shows `failed` with the reason); a missing directory or socket is retried with backoff.
 */
import { DriverError } from '../driver';
import { HiveConnectionError } from './hiveErrors';
import type { HiveSocketLayout } from './socketLayout';

/** `DriverError.code` the reconnect loop treats as "stop retrying". */
export const FATAL = 'fatal';

function isPermissionProblem(text: string): boolean {
  return /permission denied/i.test(text);
}

/** No socket was found under the profile's directory (or at its socket path). */
export function layoutFailure(layout: HiveSocketLayout): Error {
  const text = layout.problems.length > 0 ? layout.problems.join('; ') : `no hive sockets under ${layout.root}`;
  if (layout.problems.some(isPermissionProblem)) {
    return new DriverError(`Cannot read the hive: ${text}. Join the group that owns ${layout.root}, or point the profile at a socket you can reach.`, FATAL);
  }
  return new Error(text);
}

/** The first `status` failed. */
export function probeFailure(error: unknown): Error {
  if (error instanceof HiveConnectionError && (error.errno === 'EACCES' || error.errno === 'EPERM')) {
    return new DriverError(`Permission denied on ${error.socketPath}: only the sockets' owner and group may connect.`, FATAL);
  }
  return error instanceof Error ? error : new Error(String(error));
}
