/**
 * Where the AgencyProxy socket lives (WIRE.md §1.1). The conventional path is
 * `<configDir>/agency-proxy/runtime.sock`, where `<configDir>` is the *launcher's own* per-profile config directory
 * (AgencyZero's application config directory, e.g. `~/.config/AgencyZero`), not the platform config directory
 * itself; a launcher whose path would exceed 100 bytes uses `<tmpdir>/azp-<fnv1a64(configDir)>/runtime.sock`. A
 * client cannot derive the launcher's directory, so it takes the path from the profile or offers the *live* sockets
 * found at the usual places: `$XDG_CONFIG_HOME/<launcher>/agency-proxy/runtime.sock`,
 * `~/.config/<launcher>/agency-proxy/runtime.sock` (`~/Library/Application Support/<launcher>/…` on macOS) and
 * `<tmpdir>/azp-<hash>/runtime.sock`. "Live" = something accepts a
 * connection (a stale socket file left by a crashed daemon does not).
 *
 * Functions of an injectable environment so tests can fake platform, home and tmpdir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DriverError } from '../driver';
import { SocketConnection } from '../../transport/socketConnection';

/** Longest conventional socket path (bytes) before the tmpdir fallback is used. */
export const MAX_CONVENTIONAL_SOCKET_BYTES = 100;

export interface DiscoveryEnvironment {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  readonly tmpdir: string;
}

export function currentEnvironment(): DiscoveryEnvironment {
  return { platform: process.platform, env: process.env, homedir: os.homedir(), tmpdir: os.tmpdir() };
}

/** 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3) as 16 lowercase hex digits. */
export function fnv1a64Hex(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const mask = 0xffffffffffffffffn;
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & mask;
  }
  return hash.toString(16).padStart(16, '0');
}

/** The platform config directory: $XDG_CONFIG_HOME (absolute) or ~/.config on Linux; Application Support on macOS. */
export function configDir(environment: DiscoveryEnvironment = currentEnvironment()): string {
  if (environment.platform === 'darwin') {
    return path.join(environment.homedir, 'Library', 'Application Support');
  }
  const xdg = environment.env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '' && path.isAbsolute(xdg)) {
    return xdg;
  }
  return path.join(environment.homedir, '.config');
}

/** The socket a launcher whose config directory is `launcherConfigDir` binds (conventional, or the tmpdir fallback). */
export function launcherSocketPath(launcherConfigDir: string, tmpdir: string): string {
  const conventional = path.join(launcherConfigDir, 'agency-proxy', 'runtime.sock');
  if (Buffer.byteLength(conventional, 'utf8') <= MAX_CONVENTIONAL_SOCKET_BYTES) {
    return conventional;
  }
  return path.join(tmpdir, `azp-${fnv1a64Hex(launcherConfigDir)}`, 'runtime.sock');
}

export interface SocketSecurityReport {
  /** Human-readable warnings; empty when the directory looks private. */
  readonly warnings: string[];
}

/**
 * The daemon has no authentication: anyone who can open the socket controls every run. Warn when the socket's
 * directory (or the socket itself) is writable by group/others, or owned by another user.
 */
export function checkSocketSecurity(socketPath: string, uid = process.getuid?.()): SocketSecurityReport {
  const warnings: string[] = [];
  const dir = path.dirname(socketPath);
  try {
    const stat = fs.statSync(dir);
    if ((stat.mode & 0o022) !== 0) {
      const who = [(stat.mode & 0o020) !== 0 ? 'group' : '', (stat.mode & 0o002) !== 0 ? 'others' : '']
        .filter((s) => s !== '').join(' and ');
      warnings.push(`${dir} is writable by ${who} (mode ${(stat.mode & 0o777).toString(8)}): another user could ` +
        'replace the AgencyProxy socket. Run `chmod 700` on it.');
    }
    if (uid !== undefined && stat.uid !== uid) {
      warnings.push(`${dir} is owned by uid ${stat.uid}, not by you (uid ${uid}).`);
    }
  } catch (error) {
    warnings.push(`cannot inspect ${dir}: ${error instanceof Error ? error.message : String(error)}`);
    return { warnings };
  }
  try {
    const stat = fs.statSync(socketPath);
    if ((stat.mode & 0o077) !== 0) {
      warnings.push(`${socketPath} is accessible by group/others (mode ${(stat.mode & 0o777).toString(8)}); ` +
        'anyone who can open it controls every run.');
    }
  } catch {
    // No socket yet: nothing to check.
  }
  return { warnings };
}

function expandHome(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/** A socket found at one of the usual places; `launcher` names the directory it was found under (e.g. "AgencyZero"). */
export interface DiscoveredSocket {
  readonly socketPath: string;
  readonly launcher: string;
}

/** The directories whose children are searched, and where the socket sits inside each child. */
export function socketSearchPlaces(environment: DiscoveryEnvironment = currentEnvironment()): { readonly parent: string; readonly prefix: string; readonly inside: readonly string[] }[] {
  const places: { parent: string; prefix: string; inside: readonly string[] }[] = [];
  const configParents = [
    environment.platform === 'darwin' ? path.join(environment.homedir, 'Library', 'Application Support') : undefined,
    environment.env['XDG_CONFIG_HOME'],
    path.join(environment.homedir, '.config'),
  ];
  for (const parent of configParents) {
    if (parent !== undefined && parent !== '' && path.isAbsolute(parent) && !places.some((p) => p.parent === parent)) {
      places.push({ parent, prefix: '', inside: ['agency-proxy', 'runtime.sock'] });
    }
  }
  places.push({ parent: environment.tmpdir, prefix: 'azp-', inside: ['runtime.sock'] });
  return places;
}

/** Socket files at the usual places (not yet checked for a listener), in search order, deduplicated. */
export function discoverSocketCandidates(environment: DiscoveryEnvironment = currentEnvironment()): DiscoveredSocket[] {
  const found: DiscoveredSocket[] = [];
  for (const place of socketSearchPlaces(environment)) {
    let children: string[];
    try {
      children = fs.readdirSync(place.parent).filter((name) => name.startsWith(place.prefix)).sort();
    } catch {
      continue; // the directory does not exist or cannot be read
    }
    for (const child of children) {
      const socketPath = path.join(place.parent, child, ...place.inside);
      try {
        if (fs.statSync(socketPath).isSocket() && !found.some((f) => f.socketPath === socketPath)) {
          found.push({ socketPath, launcher: child });
        }
      } catch {
        // No socket under this child.
      }
    }
  }
  return found;
}

/** Whether something accepts a connection on `socketPath` within `timeoutMs` (the connection is closed at once). */
export function acceptsConnections(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return SocketConnection.connect(socketPath, { timeoutMs }).then(
    (connection) => {
      connection.destroy();
      return true;
    },
    () => false,
  );
}

/**
 * The sockets at the usual places that a daemon is listening on, in search order. A socket file whose daemon
 * died (a crash leaves it behind) refuses the connection and is left out.
 */
export async function findLiveSockets(environment: DiscoveryEnvironment = currentEnvironment(), timeoutMs = 1000): Promise<DiscoveredSocket[]> {
  const candidates = discoverSocketCandidates(environment);
  const live = await Promise.all(candidates.map((c) => acceptsConnections(c.socketPath, timeoutMs)));
  return candidates.filter((_, i) => live[i]);
}

/** The usual places as one line for messages ("… at ~/.config/<launcher>/agency-proxy/runtime.sock, …"). */
export function describeSearchPlaces(environment: DiscoveryEnvironment = currentEnvironment()): string {
  return socketSearchPlaces(environment)
    .map((p) => path.join(p.parent, `${p.prefix}<${p.prefix === '' ? 'launcher' : 'hash'}>`, ...p.inside))
    .join(', ');
}

/**
 * The socket to connect to: the profile's path (with `~` expanded), else the first live socket at the usual places.
 * Finding none throws a (non-fatal) DriverError: the reconnect loop tries again, so starting the daemon later
 * connects without touching the settings. `note` hears which one was chosen when several are listening.
 */
export async function resolveSocketPath(profilePath: string | undefined, note: (message: string) => void, environment: DiscoveryEnvironment = currentEnvironment()): Promise<string> {
  if (profilePath !== undefined && profilePath.trim() !== '') {
    return expandHome(profilePath.trim(), environment.homedir);
  }
  const live = await findLiveSockets(environment);
  if (live.length === 0) {
    throw new DriverError(`No AgencyProxy daemon is listening at the usual places (${describeSearchPlaces(environment)}). Start it, or set socketPath in the connection profile.`);
  }
  if (live.length > 1) {
    note(`Several AgencyProxy daemons are listening; using ${live[0]!.socketPath}. Set socketPath in the profile to choose.`);
  }
  return live[0]!.socketPath;
}
