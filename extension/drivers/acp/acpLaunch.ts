/**
 * How an ACP profile becomes a running agent: the command line and environment (the profile's `env` plus the API
 * keys the user gave for the agent's `env_var` auth method, from the secret store — never from settings), and the
 * auth methods an agent lists, read leniently (the `env_var` kind is newer than the SDK's stable types).
 *
 * The command is resolved to an absolute path here (profileTrust/commandResolution.ts: relative paths refused, bare
 * names looked up on the extension host's PATH, never the profile's), and that path is what is spawned. A profile a
 * repository's settings define may not set env keys that change what code runs (profileTrust/launchEnvPolicy.ts):
 * the consent gate refuses it first; this is the same check where the process is made.
 */
import { homedir } from 'node:os';
import type { AuthMethod } from '@agentclientprotocol/sdk';
import type { ConnectionProfile } from '../../protocol/connectionProfile';
import { DriverError } from '../kit/errors';
import type { DriverSecrets } from '../kit/workspaceAccess';
import { resolveAgentCommand } from '../profileTrust/commandResolution';
import { codeChangingKeys } from '../profileTrust/launchEnvPolicy';
import type { ProfileOrigin } from '../profileTrust/profileSources';
import { isWorkspaceDefined } from '../profileTrust/profileSources';

/** Secret-store keys: the chosen auth method, the names of its variables (`vars:<id>`), one per variable's value. */
export const AUTH_METHOD_KEY = 'authMethod';
export const envSecretKey = (name: string): string => `env:${name}`;
const varsKey = (methodId: string): string => `vars:${methodId}`;
/** Which keys hold a secret value (an API key), not bookkeeping (a method id, variable names). */
export const holdsSecretValue = (key: string): boolean => key.startsWith('env:');

export interface AuthChoice {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /** `env_var`: the variables to ask for (the agent reads them from its environment); `agent`: none. */
  readonly kind: 'env_var' | 'agent' | 'terminal';
  readonly vars: readonly { readonly name: string; readonly label: string; readonly secret: boolean }[];
  /** `terminal`: what the user runs to sign in. */
  readonly command?: string;
}

/** The auth methods as the UI offers them. */
export function authChoices(methods: readonly AuthMethod[] | undefined): AuthChoice[] {
  return (methods ?? []).map((m) => {
    const raw = m as unknown as Record<string, unknown>;
    const type = raw.type === 'env_var' ? 'env_var' : raw.type === 'terminal' ? 'terminal' : 'agent';
    const listed = Array.isArray(raw.vars) ? (raw.vars as unknown[]) : typeof raw.varName === 'string' ? [{ name: raw.varName }] : [];
    const vars = listed.flatMap((v) => {
      const r = v as Record<string, unknown>;
      return typeof r.name === 'string' ? [{ name: r.name, label: typeof r.label === 'string' ? r.label : r.name, secret: r.secret !== false }] : [];
    });
    const args = Array.isArray(raw.args) ? (raw.args as unknown[]).filter((a): a is string => typeof a === 'string') : [];
    return {
      id: m.id,
      name: m.name,
      ...(typeof m.description === 'string' ? { description: m.description } : {}),
      kind: type,
      vars,
      ...(type === 'terminal' ? { command: args.join(' ') } : {}),
    };
  });
}

export interface AgentLaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What the profile says to run; a profile without a command is a setup mistake worth saying plainly. */
export async function launchSpecOf(
  profile: ConnectionProfile,
  workspaceFolder: string | undefined,
  secrets: DriverSecrets | undefined,
  baseEnv: NodeJS.ProcessEnv = process.env,
  origin: ProfileOrigin = 'user',
): Promise<AgentLaunchSpec> {
  if (!profile.command) {
    throw new DriverError(`The ACP profile "${profile.name}" has no "command": add the agent's executable (e.g. claude-agent-acp) in agentSwitchboard.connections.`, 'fatal');
  }
  const resolved = resolveAgentCommand(profile.command, baseEnv.PATH);
  if (!resolved.ok) {
    throw new DriverError(`The ACP profile "${profile.name}" cannot start: ${resolved.reason}`, 'fatal');
  }
  const refused = isWorkspaceDefined(origin) ? codeChangingKeys(profile.env) : [];
  if (refused.length > 0) {
    throw new DriverError(`The ACP profile "${profile.name}" comes from this workspace's settings and sets ${refused.join(', ')} in "env": only your user settings may.`, 'fatal');
  }
  const env: Record<string, string | undefined> = { ...baseEnv, ...profile.env };
  const method = await secrets?.get(AUTH_METHOD_KEY);
  if (method !== undefined && secrets) {
    for (const name of (await secrets.get(`vars:${method}`))?.split(',').filter(Boolean) ?? []) {
      const value = await secrets.get(envSecretKey(name));
      if (value !== undefined) {
        env[name] = value;
      }
    }
  }
  return { command: resolved.path, args: profile.args ?? [], cwd: profile.cwd ?? workspaceFolder ?? homedir(), env };
}

/**
 * Keeps the user's sign-in for the next start of the agent: the method and the values of its variables. An earlier
 * sign-in is forgotten first, so the store never holds values no sign-in points at (Sign Out could not find them).
 */
export async function storeAuthChoice(secrets: DriverSecrets, choice: AuthChoice, values: Readonly<Record<string, string>>): Promise<void> {
  await forgetSignIn(secrets);
  for (const v of choice.vars) {
    const value = values[v.name];
    if (value !== undefined) {
      await secrets.store(envSecretKey(v.name), value);
    }
  }
  await secrets.store(varsKey(choice.id), choice.vars.map((v) => v.name).join(','));
  await secrets.store(AUTH_METHOD_KEY, choice.id);
}

/** Forgets the sign-in (the agent refused it): its values too, which nothing would use or find again. */
export async function forgetAuthChoice(secrets: DriverSecrets): Promise<void> {
  await forgetSignIn(secrets);
}

/** What `forgetSignIn` deleted: the method that was chosen, and the variables whose values were kept. */
export interface ForgottenSignIn {
  readonly methodId: string | undefined;
  readonly variables: readonly string[];
}

/**
 * Deletes everything a connection keeps of a sign-in: the chosen method, the variable list of that method and of
 * every method in `known` (the agent's current list, when it is running: values an older version left behind), and
 * each value — the variables those lists name and the ones `known` declares. Used by Sign Out, and when a profile is
 * removed from the settings.
 */
export async function forgetSignIn(secrets: DriverSecrets, known: readonly AuthChoice[] = []): Promise<ForgottenSignIn> {
  const methodId = await secrets.get(AUTH_METHOD_KEY);
  const methodIds = new Set([...(methodId !== undefined ? [methodId] : []), ...known.map((m) => m.id)]);
  const names = new Set(known.flatMap((m) => m.vars.map((v) => v.name)));
  for (const id of methodIds) {
    for (const name of (await secrets.get(varsKey(id)))?.split(',').filter(Boolean) ?? []) {
      names.add(name);
    }
  }
  const variables: string[] = [];
  for (const name of names) {
    if ((await secrets.get(envSecretKey(name))) !== undefined) {
      variables.push(name);
    }
    await secrets.delete(envSecretKey(name));
  }
  for (const id of methodIds) {
    await secrets.delete(varsKey(id));
  }
  await secrets.delete(AUTH_METHOD_KEY);
  return { methodId, variables };
}
