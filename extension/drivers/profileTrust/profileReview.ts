/**
 * What connecting a profile will do, in words the consent prompt shows, whether a profile is refused outright, and
 * the digest a consent is stored under.
 *
 * Refused for every origin: an ACP command that is a relative path or cannot be found (commandResolution.ts).
 * Refused when a repository's settings define the profile: `env` keys that change what code runs
 * (launchEnvPolicy.ts), and an A3S `allowRemote` (only the user's own settings may point at another machine).
 *
 * The consent digest covers the exact profile content (its MCP servers' commands and URLs too, each shown in the
 * prompt), where it was defined and what its command resolved to: any change to the profile — or a bare command name
 * now resolving to another file — asks again.
 */
import { autonomyOfMode } from '../acp/autonomousModes';
import { isLoopbackHost } from '../../transport/loopback';
import type { ConnectionProfile, McpServerSetting } from '../../protocol/connectionProfile';
import { isRemoteMcpServer } from '../../protocol/connectionProfile';
import { resolveAgentCommand } from './commandResolution';
import { codeChangingKeys } from './launchEnvPolicy';
import type { ProfileOrigin } from './profileSources';
import { isWorkspaceDefined } from './profileSources';
import { isSecretKey } from '../../transport/traceRedaction';
import { canonicalJson, sha256Hex } from './secretBinding';

/** What kind of thing a profile connects to, in the prompt's words. */
const KIND_TEXT: Record<ConnectionProfile['protocol'], string> = {
  'agency-proxy': 'AgencyProxy daemon',
  scv: 'SCV daemon',
  a3s: 'A3S harness',
  hive: 'hyperhive',
  acp: 'ACP agent',
};

export interface ProfileReview {
  /** e.g. "ACP agent", "A3S harness". */
  readonly kind: string;
  /** Why the profile is never connected; absent when it may be (after consent, if workspace-defined). */
  readonly refusal?: string;
  /** One line each: what runs or what is connected to, with its arguments, directory and environment. */
  readonly effects: readonly string[];
  /** ACP: the absolute path that is spawned. */
  readonly resolvedCommand?: string;
  /** What a consent is stored under (see the module comment). */
  readonly digest: string;
}

export interface ReviewEnvironment {
  /** The extension host's PATH (bare commands are looked up there). */
  readonly searchPath: string | undefined;
  /** Where ACP sessions start when the profile names no `cwd`. */
  readonly workspaceFolder: string | undefined;
  readonly isExecutable?: (path: string) => boolean;
}

/** A shell-like rendering of one argument, so spaces and quotes in it are visible. */
function quoted(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** Values of names that look secret (transport/traceRedaction.ts, the trace's own rule) are hidden; names are shown. */
function envLine(env: Readonly<Record<string, string>>): string | undefined {
  const entries = Object.entries(env);
  if (entries.length === 0) {
    return undefined;
  }
  return `Environment: ${entries.map(([k, v]) => (isSecretKey(k) ? `${k}=(value hidden)` : `${k}=${quoted(v)}`)).join(', ')}`;
}

/** A start mode that lets the agent act without asking is said in the prompt, as everywhere a mode shows. */
function startModeLine(startMode: string | undefined): string | undefined {
  if (startMode === undefined) {
    return undefined;
  }
  const autonomy = autonomyOfMode(startMode);
  return `Sessions start in mode: ${quoted(startMode)}${autonomy === undefined ? '' : ` (⚠ the agent ${autonomy})`}`;
}

/**
 * An MCP server the agent is told to use: the command it would start (code the repository chooses) or the URL it
 * would send requests to. `env` and `headers` values are tokens by nature: all hidden, the names shown.
 */
function mcpServerLine(server: McpServerSetting): string {
  const hidden = (label: string, record: Readonly<Record<string, string>> | undefined): string =>
    Object.keys(record ?? {}).length > 0 ? ` (${label}: ${Object.keys(record ?? {}).join(', ')}; values hidden)` : '';
  if (isRemoteMcpServer(server)) {
    return `MCP server "${server.name}": the agent connects to ${server.url} (${server.type})${hidden('headers', server.headers)}`;
  }
  return `MCP server "${server.name}": the agent runs ${[server.command, ...(server.args ?? [])].map(quoted).join(' ')}${hidden('environment', server.env)}`;
}

function acpReview(profile: ConnectionProfile, origin: ProfileOrigin, env: ReviewEnvironment): Omit<ProfileReview, 'digest' | 'kind'> {
  if (!profile.command) {
    return { refusal: 'It has no "command".', effects: [] };
  }
  const resolution = resolveAgentCommand(profile.command, env.searchPath, env.isExecutable);
  if (!resolution.ok) {
    return { refusal: resolution.reason, effects: [`Run: ${profile.command}`] };
  }
  const effects = [
    `Run: ${[resolution.path, ...(profile.args ?? [])].map(quoted).join(' ')}`,
    `In: ${profile.cwd ?? env.workspaceFolder ?? 'your home folder'}`,
    envLine(profile.env ?? {}),
    ...(profile.mcpServers ?? []).map(mcpServerLine),
    startModeLine(profile.startMode),
  ].filter((l): l is string => l !== undefined);
  const refused = isWorkspaceDefined(origin) ? codeChangingKeys(profile.env) : [];
  return {
    ...(refused.length > 0
      ? { refusal: `It sets ${refused.join(', ')} in "env", which changes what code runs; only your user settings may set ${refused.length === 1 ? 'it' : 'them'}.` }
      : {}),
    effects,
    resolvedCommand: resolution.path,
  };
}

function a3sReview(profile: ConnectionProfile, origin: ProfileOrigin): Omit<ProfileReview, 'digest' | 'kind'> {
  const url = profile.url ?? '(no url)';
  let remote = false;
  try {
    remote = !isLoopbackHost(new URL(url).hostname);
  } catch {
    // An unparsable URL is refused by the driver itself; here it is only described.
  }
  const effects = [`Connect over HTTP to: ${url}${remote ? ' (another machine: not this computer)' : ''}`];
  if (isWorkspaceDefined(origin) && profile.allowRemote) {
    return { refusal: 'It sets "allowRemote": only your user settings may let a connection reach another machine.', effects };
  }
  return { effects };
}

function socketReview(profile: ConnectionProfile): Omit<ProfileReview, 'digest' | 'kind'> {
  if (profile.hiveDir !== undefined || (profile.protocol === 'hive' && profile.socketPath === undefined)) {
    return { effects: [`Open the hive's sockets under: ${profile.hiveDir ?? '/run/hyperhive'}`] };
  }
  return { effects: [`Connect to the socket: ${profile.socketPath ?? "the daemon's default socket"}`] };
}

/** Reviews `profile` as defined in `origin` (see the module comment). */
export function reviewProfile(profile: ConnectionProfile, origin: ProfileOrigin, env: ReviewEnvironment): ProfileReview {
  const review = profile.protocol === 'acp' ? acpReview(profile, origin, env) : profile.protocol === 'a3s' ? a3sReview(profile, origin) : socketReview(profile);
  const digest = sha256Hex(canonicalJson({ profile, origin: isWorkspaceDefined(origin) ? 'workspace' : 'user', resolvedCommand: review.resolvedCommand ?? null }));
  return { ...review, kind: KIND_TEXT[profile.protocol], digest };
}
