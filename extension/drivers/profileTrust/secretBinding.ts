/**
 * Secrets are bound to what runs, not to a profile's name. A connection's secret namespace is a digest of its
 * *binding*: for ACP the resolved executable, its arguments, the profile's `env` and its MCP servers (a repository's profile with the
 * name "Claude Code" but its own command — or the same command with `ANTHROPIC_BASE_URL` pointed elsewhere — gets an
 * empty store, not the key the user saved for their Claude Code); for A3S the harness URL; for the socket daemons
 * the protocol and the endpoint. The name, `cwd` and `autoConnect` are not part of it: renaming a profile or
 * changing where sessions start keeps the sign-in.
 *
 * The consequence the user sees: changing an ACP profile's command, arguments, env or MCP servers asks for the sign-in
 * again.
 */
import { createHash } from 'node:crypto';
import type { ConnectionProfile } from '../../protocol/connectionProfile';

/** Canonical JSON: object keys sorted at every level, so equal content always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * What a connection's secrets are bound to. `resolvedCommand` is the absolute path an ACP command resolved to
 * (drivers/profileTrust/commandResolution.ts); unresolved, the command as written stands in (it cannot start, so its
 * store stays unused).
 */
export function secretBindingOf(profile: ConnectionProfile, resolvedCommand: string | undefined): unknown {
  switch (profile.protocol) {
    case 'acp':
      return {
        protocol: 'acp',
        command: resolvedCommand ?? `unresolved:${profile.command ?? ''}`,
        args: profile.args ?? [],
        env: profile.env ?? {},
        // MCP servers are code the agent starts with its environment (the key in it): a profile that adds one is
        // another binding. Only when listed, so a profile without them keeps the namespace it had before.
        ...(profile.mcpServers !== undefined && profile.mcpServers.length > 0 ? { mcpServers: profile.mcpServers } : {}),
      };
    case 'a3s':
      return { protocol: 'a3s', url: profile.url ?? null };
    default:
      return { protocol: profile.protocol, endpoint: profile.socketPath ?? profile.hiveDir ?? profile.url ?? null };
  }
}

/** The secret namespace of a connection: sha256 of its canonical binding (hex, so safe in a storage key). */
export function secretNamespaceOf(profile: ConnectionProfile, resolvedCommand: string | undefined): string {
  return sha256Hex(canonicalJson(secretBindingOf(profile, resolvedCommand)));
}
