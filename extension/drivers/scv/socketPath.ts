/**
 * Where the SCV daemon listens (WIRE.md §2.1): `$SCV_HOME/state/server.sock`, normally `~/.scv/state/server.sock`.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export function defaultScvSocketPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  homeDir: string = os.homedir(),
): string {
  const scvHome = env['SCV_HOME'];
  const root = scvHome !== undefined && scvHome !== '' ? scvHome : path.join(homeDir, '.scv');
  return path.join(root, 'state', 'server.sock');
}
