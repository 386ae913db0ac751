/**
 * Finds hive mcp.sock sockets (WIRE.md 4.1): on the host `<dir>/manager/mcp.sock` and
 * `<dir>/agents/<name>/mcp.sock` (default dir `/run/hyperhive`); inside a container the single
 * `/run/hive/mcp.sock`, whose principal (an agent or the manager) the path does not tell.
 */
import { promises as fs } from 'node:fs';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import type { HiveSocketRole } from './hiveClientOptions';

export const DEFAULT_HIVE_DIR = '/run/hyperhive';
export const IN_CONTAINER_HIVE_SOCKET = '/run/hive/mcp.sock';
const SOCKET_NAME = 'mcp.sock';

export interface HiveSocketEntry {
  readonly role: HiveSocketRole;
  /** Agent name, `manager`, or (role `unknown`) the name of the socket's directory. */
  readonly name: string;
  readonly socketPath: string;
}

export interface HiveSocketLayout {
  /** The directory or socket that was examined. */
  readonly root: string;
  /** Manager first, then agents alphabetically, then a lone socket. */
  readonly sockets: readonly HiveSocketEntry[];
  /** Why something expected was not listed (missing directory, permissions, a non-socket `mcp.sock`). */
  readonly problems: readonly string[];
}

/** Role and name of a socket from its path alone. */
export function classifyHiveSocketPath(socketPath: string): HiveSocketEntry {
  const dir = path.dirname(socketPath);
  const dirName = path.basename(dir);
  if (dirName === 'manager') {
    return { role: 'manager', name: 'manager', socketPath };
  }
  if (path.basename(path.dirname(dir)) === 'agents' && dirName !== '') {
    return { role: 'agent', name: dirName, socketPath };
  }
  return { role: 'unknown', name: dirName || socketPath, socketPath };
}

/** Lists the sockets under a hive directory, or describes a single socket path. Never throws. */
export async function discoverHiveSockets(target: string = DEFAULT_HIVE_DIR): Promise<HiveSocketLayout> {
  const problems: string[] = [];
  const stat = await statOrProblem(target, problems);
  if (!stat) {
    return { root: target, sockets: [], problems };
  }
  if (stat.isSocket()) {
    return { root: target, sockets: [classifyHiveSocketPath(target)], problems };
  }
  if (!stat.isDirectory()) {
    return { root: target, sockets: [], problems: [`${target} is neither a socket nor a directory`] };
  }

  const sockets: HiveSocketEntry[] = [];
  const manager = path.join(target, 'manager', SOCKET_NAME);
  if (await isSocketAt(manager, problems)) {
    sockets.push({ role: 'manager', name: 'manager', socketPath: manager });
  }

  const agentsDir = path.join(target, 'agents');
  const names = await listDirOrProblem(agentsDir, problems);
  for (const name of names.sort()) {
    const socketPath = path.join(agentsDir, name, SOCKET_NAME);
    if (await isSocketAt(socketPath, problems)) {
      sockets.push({ role: 'agent', name, socketPath });
    }
  }

  // A container's bind mount (`/run/hive`) holds the socket directly.
  const lone = path.join(target, SOCKET_NAME);
  if (await isSocketAt(lone, problems)) {
    sockets.push(classifyHiveSocketPath(lone));
  }

  if (sockets.length === 0 && problems.length === 0) {
    problems.push(`no ${SOCKET_NAME} found under ${target} (expected manager/${SOCKET_NAME} or agents/<name>/${SOCKET_NAME})`);
  }
  return { root: target, sockets, problems };
}

async function statOrProblem(p: string, problems: string[]): Promise<Stats | undefined> {
  try {
    return await fs.stat(p);
  } catch (error) {
    problems.push(describe(p, error));
    return undefined;
  }
}

/** Absent is not a problem (a hive may have no agents yet); unreadable or not-a-socket is. */
async function isSocketAt(p: string, problems: string[]): Promise<boolean> {
  try {
    const stat = await fs.stat(p);
    if (!stat.isSocket()) {
      problems.push(`${p} exists but is not a socket`);
      return false;
    }
    return true;
  } catch (error) {
    if (errno(error) !== 'ENOENT' && errno(error) !== 'ENOTDIR') {
      problems.push(describe(p, error));
    }
    return false;
  }
}

async function listDirOrProblem(dir: string, problems: string[]): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  } catch (error) {
    if (errno(error) !== 'ENOENT') {
      problems.push(describe(dir, error));
    }
    return [];
  }
}

function errno(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

function describe(p: string, error: unknown): string {
  const code = errno(error);
  if (code === 'ENOENT') {
    return `${p} does not exist`;
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return `${p}: permission denied`;
  }
  return `${p}: ${error instanceof Error ? error.message : String(error)}`;
}
