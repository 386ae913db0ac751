/**
 * Where each connection profile comes from. The user's own settings (`globalValue` of `agentSwitchboard.connections`)
 * are the user's; a workspace's `.vscode/settings.json` (and a multi-root folder's) are the repository's, i.e.
 * *workspace-defined*: shown, but never connected until the user consents (ui/workspaceConnections).
 *
 * VS Code would let a workspace list replace the user's; here the two are shown side by side, and a workspace profile
 * whose id (`protocol:name`) is one of the user's is not used at all — it could otherwise take that profile's place
 * (and, before secrets were bound to what runs, its stored API key).
 *
 * Each entry is validated with the one profile schema: a malformed entry is skipped and reported; it never stops the
 * other profiles from loading.
 */
import { connectionProfileSchema } from '../../protocol/connectionProfile';
import type { ConnectionProfile } from '../../protocol/connectionProfile';

export type ProfileOrigin = 'user' | 'workspace' | 'workspaceFolder';

/** One profile with where it was defined. `id` is its connection id, `protocol:name`. */
export interface SourcedProfile {
  readonly id: string;
  readonly profile: ConnectionProfile;
  readonly origin: ProfileOrigin;
}

/** The raw setting values per settings scope, as `WorkspaceConfiguration.inspect` reports them. */
export interface ProfileSources {
  readonly user?: unknown;
  readonly workspace?: unknown;
  readonly workspaceFolder?: unknown;
}

export interface MergedProfiles {
  readonly profiles: readonly SourcedProfile[];
  readonly problems: readonly string[];
}

const ORIGIN_TEXT: Record<ProfileOrigin, string> = {
  user: 'your user settings',
  workspace: "this workspace's settings",
  workspaceFolder: "a workspace folder's settings",
};

/** A repository defined it (anything but the user's own settings). */
export function isWorkspaceDefined(origin: ProfileOrigin): boolean {
  return origin !== 'user';
}

/** The user's profiles first, then the workspace's, then the folder's; see the module comment for the rules. */
export function mergeProfileSources(sources: ProfileSources): MergedProfiles {
  const problems: string[] = [];
  const profiles: SourcedProfile[] = [];
  const owner = new Map<string, ProfileOrigin>();
  for (const origin of ['user', 'workspace', 'workspaceFolder'] as const) {
    const raw = sources[origin];
    if (raw === undefined) {
      continue;
    }
    if (!Array.isArray(raw)) {
      problems.push(`agentSwitchboard.connections in ${ORIGIN_TEXT[origin]} must be an array of profiles.`);
      continue;
    }
    raw.forEach((entry: unknown, i) => {
      const parsed = connectionProfileSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        problems.push(`Connection profile #${i + 1} in ${ORIGIN_TEXT[origin]} is invalid: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'bad shape'}.`);
        return;
      }
      const profile = parsed.data;
      const id = `${profile.protocol}:${profile.name}`;
      const first = owner.get(id);
      if (first === origin) {
        problems.push(`Connection profile "${profile.name}" (${profile.protocol}) is defined twice in ${ORIGIN_TEXT[origin]}; the first one is used.`);
        return;
      }
      if (first !== undefined) {
        problems.push(`Connection profile "${profile.name}" (${profile.protocol}) in ${ORIGIN_TEXT[origin]} has the name of one in ${ORIGIN_TEXT[first]}; the one in ${ORIGIN_TEXT[origin]} is not used.`);
        return;
      }
      owner.set(id, origin);
      profiles.push({ id, profile, origin });
    });
  }
  return { profiles, problems };
}
