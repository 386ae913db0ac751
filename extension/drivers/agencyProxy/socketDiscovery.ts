/**
 * Where the AgencyProxy socket lives (WIRE.md §1.1): an explicit profile path first, then the conventional
 * `<configDir>/agency-proxy/runtime.sock`, or `<tmpdir>/azp-<fnv1a64(configDir)>/runtime.sock` when the
 * conventional path is longer than 100 bytes (macOS caps socket paths at 103 bytes plus NUL).
 *
 * Pure functions of an injectable environment so tests can fake platform, home and tmpdir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

/** The socket path the reference launcher would use for this environment. */
export function conventionalSocketPath(environment: DiscoveryEnvironment = currentEnvironment()): string {
  const dir = configDir(environment);
  const conventional = path.join(dir, 'agency-proxy', 'runtime.sock');
  if (Buffer.byteLength(conventional, 'utf8') <= MAX_CONVENTIONAL_SOCKET_BYTES) {
    return conventional;
  }
  return path.join(environment.tmpdir, `azp-${fnv1a64Hex(dir)}`, 'runtime.sock');
}

/** Paths to try, in order: the profile's explicit path (if any), then the conventional one. Deduplicated. */
export function candidateSocketPaths(
  profilePath?: string,
  environment: DiscoveryEnvironment = currentEnvironment(),
): string[] {
  const out: string[] = [];
  if (profilePath !== undefined && profilePath.trim() !== '') {
    out.push(expandHome(profilePath.trim(), environment.homedir));
  }
  const conventional = conventionalSocketPath(environment);
  if (!out.includes(conventional)) {
    out.push(conventional);
  }
  return out;
}

/** The first candidate that exists and is a socket, or undefined. (Whether a daemon answers is the client's job.) */
export function findExistingSocket(candidates: readonly string[]): string | undefined {
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isSocket()) {
        return candidate;
      }
    } catch {
      // Missing or unreadable: try the next one.
    }
  }
  return undefined;
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
