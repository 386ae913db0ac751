/**
 * Reads the extension's settings. Connection profiles are validated with the one profile schema
 * (extension/protocol/connectionProfile.ts, which package.json's JSON schema is tested against): a malformed entry is skipped and
 * reported (it never stops the other profiles from loading).
 */
import * as vscode from 'vscode';
import { connectionProfileSchema } from '../protocol/connectionProfile';
import type { ConnectionProfile } from '../protocol/connectionProfile';

export type ApprovalNotificationMode = 'always' | 'statusBarOnly' | 'modal';

export interface ProfileReadResult {
  readonly profiles: readonly ConnectionProfile[];
  readonly problems: readonly string[];
}

export function readProfiles(): ProfileReadResult {
  const raw = vscode.workspace.getConfiguration('agentSwitchboard').get<unknown>('connections', []);
  const problems: string[] = [];
  const profiles: ConnectionProfile[] = [];
  const seen = new Set<string>();
  if (!Array.isArray(raw)) {
    return { profiles, problems: ['agentSwitchboard.connections must be an array of profiles.'] };
  }
  raw.forEach((entry, i) => {
    const parsed = connectionProfileSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`Connection profile #${i + 1} is invalid: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'bad shape'}.`);
      return;
    }
    const id = `${parsed.data.protocol}:${parsed.data.name}`;
    if (seen.has(id)) {
      problems.push(`Connection profile "${parsed.data.name}" (${parsed.data.protocol}) is defined twice; the first one is used.`);
      return;
    }
    seen.add(id);
    profiles.push(parsed.data);
  });
  return { profiles, problems };
}

export function autoConnectEnabled(profile: ConnectionProfile): boolean {
  return profile.autoConnect ?? vscode.workspace.getConfiguration('agentSwitchboard').get<boolean>('autoConnect', true);
}

export function approvalNotificationMode(): ApprovalNotificationMode {
  const mode = vscode.workspace.getConfiguration('agentSwitchboard').get<string>('approvals.notification', 'always');
  return mode === 'statusBarOnly' || mode === 'modal' ? mode : 'always';
}

/** The trace file: the environment variable wins (tests and CI), then the user setting. */
export function traceFile(): string | undefined {
  const fromEnv = process.env.SWITCHBOARD_TRACE_FILE;
  if (fromEnv) {
    return fromEnv;
  }
  const fromSetting = vscode.workspace.getConfiguration('agentSwitchboard').get<string>('trace.file', '');
  return fromSetting.trim() === '' ? undefined : fromSetting;
}
