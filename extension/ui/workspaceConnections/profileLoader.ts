/**
 * Loads the connection profiles from settings into the connection manager and auto-connects: the user's profiles
 * when auto-connect is on, a workspace's only once the user allowed them (workspaceConnections.ts). Workspace
 * profiles waiting for a decision are mentioned in one notification, never a prompt per profile at window open.
 */
import * as vscode from 'vscode';
import type { ConnectionManager, DriverFactory } from '../../drivers/connectionManager';
import type { ProtocolName } from '../../model/modelTypes';
import type { ConnectionProfile } from '../../protocol/connectionProfile';
import type { RunStore } from '../../model/runStore';
import { autoConnectEnabled, readProfiles } from '../settings';
import { announceWorkspaceConnections } from './workspaceConnectionCommands';
import type { WorkspaceConnections } from './workspaceConnections';

export interface ProfileLoaderDeps {
  readonly store: RunStore;
  readonly connections: ConnectionManager;
  readonly factories: Partial<Record<ProtocolName, DriverFactory>>;
  readonly workspace: WorkspaceConnections;
  readonly log: vscode.LogOutputChannel;
  /**
   * After each read: the profiles it dropped, the ones it has, and whether it had no problems (a removed profile's
   * sign-in is deleted once a clean read confirms it is gone: ui/removedProfiles.ts).
   */
  readonly onRead?: (removed: readonly ConnectionProfile[], current: readonly ConnectionProfile[], clean: boolean) => void;
}

export function profileLoader(deps: ProfileLoaderDeps): () => Promise<void> {
  const { store, connections, factories, workspace, log, onRead } = deps;
  return async () => {
    const { profiles, problems } = readProfiles();
    for (const problem of problems) {
      log.warn(problem);
    }
    if (problems.length > 0) {
      void vscode.window.showWarningMessage(`Agent Switchboard: ${problems[0]}`, 'Manage Connections').then((c) => {
        if (c) {
          void vscode.commands.executeCommand('agentSwitchboard.manageConnections');
        }
      });
    }
    workspace.update(profiles, { searchPath: process.env.PATH, workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath });
    const removed = await connections.setProfiles(
      profiles.map((p) => p.profile),
      new Map(profiles.map((p) => [p.id, p.origin])),
    );
    onRead?.(removed, profiles.map((p) => p.profile), problems.length === 0);
    for (const { id, profile } of profiles) {
      const connection = store.state.connections.get(id);
      if (autoConnectEnabled(profile) && connection?.state.kind === 'idle' && factories[profile.protocol] && workspace.autoConnectable(id)) {
        connections.connect(id).catch((error: unknown) => log.error(`[${profile.name}] ${error instanceof Error ? error.message : String(error)}`));
      }
    }
    for (const id of workspace.ids()) {
      const status = workspace.status(id);
      if (status !== 'allowed') {
        log.info(`[${workspace.nameOf(id)}] defined by this workspace's settings: ${status === 'refused' ? `refused: ${workspace.review(id)?.refusal ?? ''}` : status === 'untrusted' ? 'not used in an untrusted workspace' : 'waiting for your consent'}`);
      }
    }
    if (vscode.workspace.isTrusted) {
      announceWorkspaceConnections(workspace);
    }
  };
}
