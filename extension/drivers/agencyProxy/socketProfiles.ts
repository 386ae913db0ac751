/**
 * Turning a discovered AgencyProxy socket into a connection profile for the `agentSwitchboard.connections`
 * setting: which sockets are configured already, a readable unique name, and the new setting value. Pure: the
 * setting's raw value goes in (it may hold entries this version cannot parse — they are kept untouched) and the
 * value to write comes out.
 */
import * as path from 'node:path';
import type { ConnectionProfile } from '../driver';
import type { DiscoveredSocket } from './socketDiscovery';

function entries(raw: unknown): readonly unknown[] {
  return Array.isArray(raw) ? raw : [];
}

function field(entry: unknown, key: string): unknown {
  return entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>)[key] : undefined;
}

/** Socket paths of the AgencyProxy profiles already in the setting (normalised, so `a//b` equals `a/b`). */
export function configuredSocketPaths(raw: unknown): Set<string> {
  const out = new Set<string>();
  for (const entry of entries(raw)) {
    const socketPath = field(entry, 'socketPath');
    if (field(entry, 'protocol') === 'agency-proxy' && typeof socketPath === 'string' && socketPath.trim() !== '') {
      out.add(path.normalize(socketPath.trim()));
    }
  }
  return out;
}

/** The launcher's directory name ("AgencyZero"); a tmpdir fallback socket gets "AgencyProxy (<hash prefix>)". */
export function profileNameForSocket(socket: DiscoveredSocket): string {
  if (socket.launcher.startsWith('azp-')) {
    return `AgencyProxy (${socket.launcher.slice(4, 10)})`;
  }
  return socket.launcher || 'AgencyProxy';
}

/** `base`, or `base (2)`, `base (3)`… — profile names are unique per protocol (settings.ts skips duplicates). */
export function uniqueProfileName(base: string, raw: unknown): string {
  const taken = new Set(
    entries(raw)
      .filter((e) => field(e, 'protocol') === 'agency-proxy')
      .map((e) => field(e, 'name'))
      .filter((n): n is string => typeof n === 'string'),
  );
  if (!taken.has(base)) {
    return base;
  }
  for (let n = 2; ; n++) {
    const candidate = `${base} (${n})`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}

/** The setting value with an AgencyProxy profile for `socketPath` appended (existing entries unchanged). */
export function withSocketProfile(raw: unknown, name: string, socketPath: string): unknown[] {
  const profile: ConnectionProfile = { name, protocol: 'agency-proxy', socketPath };
  return [...entries(raw), profile];
}
