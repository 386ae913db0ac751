/**
 * Reads the extension's settings.
 *
 * Connection profiles come from every settings scope with their origin (drivers/profileTrust/profileSources.ts):
 * the user's are the user's, a workspace's are the repository's and wait for consent (ui/workspaceConnections).
 * Settings that write files or loosen approvals — `trace.file`, `approvals.allowWorkspaceRules` — are read from the
 * user's settings only. package.json also gives them `machine` scope (so VS Code does not offer them in workspace
 * settings); reading `globalValue` here is the defense in depth, for an editor that applies a workspace value anyway.
 */
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../protocol/connectionProfile';
import type { MergedProfiles } from '../drivers/profileTrust/profileSources';
import { mergeProfileSources } from '../drivers/profileTrust/profileSources';
import { DEFAULT_RETENTION } from '../drivers/kit/runRetention';
import type { HistoryRetention } from '../drivers/kit/runRetention';

export type ApprovalNotificationMode = 'always' | 'statusBarOnly' | 'modal';

const section = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('agentSwitchboard');

/** Every profile with its origin: the user's first, then the workspace's (see profileSources.ts for the rules). */
export function readProfiles(): MergedProfiles {
  const inspected = section().inspect<unknown>('connections');
  return mergeProfileSources({ user: inspected?.globalValue, workspace: inspected?.workspaceValue, workspaceFolder: inspected?.workspaceFolderValue });
}

export function autoConnectEnabled(profile: ConnectionProfile): boolean {
  return profile.autoConnect ?? section().get<boolean>('autoConnect', true);
}

export function approvalNotificationMode(): ApprovalNotificationMode {
  const mode = section().get<string>('approvals.notification', 'always');
  return mode === 'statusBarOnly' || mode === 'modal' ? mode : 'always';
}

/** The user's own value of `key` (user settings), or `fallback`: never a workspace's or a workspace folder's. */
export function userSetting<T>(key: string, fallback: T, isT: (value: unknown) => value is T): T {
  const value = section().inspect<unknown>(key)?.globalValue;
  return isT(value) ? value : fallback;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/** The trace file: the environment variable wins (tests and CI), then the user's setting (never a workspace's). */
export function traceFile(): string | undefined {
  const fromEnv = process.env.SWITCHBOARD_TRACE_FILE;
  if (fromEnv) {
    return fromEnv;
  }
  const fromSetting = userSetting('trace.file', '', isString);
  return fromSetting.trim() === '' ? undefined : fromSetting;
}

/** Whether approval rules stored in this workspace are offered and used: the user's setting only. */
export function workspaceRulesAllowedByUser(): boolean {
  return userSetting('approvals.allowWorkspaceRules', false, isBoolean);
}

/** Which finished runs stay on the board, and how much disk they may take (`agentSwitchboard.history.*`; 0 = no limit). Read at each connect. */
export function historyRetention(): HistoryRetention {
  const days = section().get<unknown>('history.keepDays', DEFAULT_RETENTION.keepDays);
  const runs = section().get<unknown>('history.keepRuns', DEFAULT_RETENTION.keepRuns);
  const megabytes = section().get<unknown>('history.keepMegabytes', DEFAULT_RETENTION.keepMegabytes);
  const limit = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback);
  return { keepDays: limit(days, DEFAULT_RETENTION.keepDays), keepRuns: limit(runs, DEFAULT_RETENTION.keepRuns), keepMegabytes: limit(megabytes, DEFAULT_RETENTION.keepMegabytes) };
}
