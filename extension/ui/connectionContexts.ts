/**
 * What each connection's driver is given by the editor (DriverContext, less the store and its own ids): where frames
 * go (the protocol trace file the settings name, and the log at Trace level), where its journals live, this window's
 * identity, the workspace and terminals it may use, the gates and hooks of consent, retention and removal, its
 * secrets, and a log prefixed with its name. The trace file follows the setting while connections stay open.
 */
import * as vscode from 'vscode';
import type { DriverContext } from '../drivers/connectionManager';
import type { ConnectionProfile } from '../drivers/driver';
import type { ProfileOrigin } from '../drivers/profileTrust/profileSources';
import type { FrameTap } from '../transport/frameTap';
import { frameLogLine } from '../transport/frameLogLine';
import { combineTaps, ProtocolTrace } from '../transport/protocolTrace';
import { connectionSecrets } from './connectionSecrets';
import { historyRetention, traceFile } from './settings';

export type ConnectionContext = Omit<DriverContext, 'store' | 'connectionId' | 'profile'>;

/** The protocol trace file of `agentSwitchboard.trace.file`: opened, switched and closed as the setting changes. */
export class TraceSetting implements vscode.Disposable {
  private trace: ProtocolTrace | undefined;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.reopen();
  }

  /** Opens the file the setting names now (closing the one before), or none. */
  reopen(): void {
    const file = traceFile();
    if (this.trace?.file === file) {
      return;
    }
    this.trace?.dispose();
    this.trace = file ? new ProtocolTrace(file, (error) => this.log.error(`Protocol trace ${file} failed: ${String(error)}`)) : undefined;
    if (file) {
      this.log.info(`Writing the protocol trace to ${file}`);
    }
  }

  /** A tap for one connection, looked up per frame so a trace enabled later applies to open connections too. */
  tap(protocol: ConnectionProfile['protocol'], name: string): FrameTap {
    return (dir, frame, http) => this.trace?.tap(protocol, name)(dir, frame, http);
  }

  flush(): Promise<void> {
    return this.trace?.flush() ?? Promise.resolve();
  }

  dispose(): void {
    this.trace?.dispose();
  }
}

/** What the editor gives every connection alike (the parts that are not per connection). */
export interface ConnectionContextDeps extends Pick<ConnectionContext, 'storageDir' | 'windowId' | 'workspace' | 'terminals'> {
  readonly secrets: vscode.SecretStorage;
  readonly log: vscode.LogOutputChannel;
  readonly trace: TraceSetting;
  /** Why the connection may not connect now (a workspace profile without consent), or undefined. */
  readonly connectRefusal: (connectionId: string) => string | undefined;
  readonly runRemoved: DriverContext['runRemoved'];
  readonly runRemoval: (connectionId: string) => DriverContext['runRemoval'];
}

/** The context factory ConnectionManager calls for each connection it opens. */
export function connectionContexts(deps: ConnectionContextDeps): (connectionId: string, profile: ConnectionProfile, origin: ProfileOrigin) => ConnectionContext {
  const { log } = deps;
  // Every frame of every transport, at Trace level (Show Protocol Log offers to switch to it).
  const logTap = (connection: string): FrameTap => (dir, frame, http) => {
    if (log.logLevel === vscode.LogLevel.Trace) {
      log.trace(frameLogLine(connection, dir, frame, http));
    }
  };
  return (connectionId, profile, origin) => {
    const named = {
      info: (m: string) => log.info(`[${profile.name}] ${m}`),
      warn: (m: string) => log.warn(`[${profile.name}] ${m}`),
      error: (m: string) => log.error(`[${profile.name}] ${m}`),
    };
    return {
      tap: combineTaps(deps.trace.tap(profile.protocol, profile.name), logTap(profile.name)),
      storageDir: deps.storageDir,
      windowId: deps.windowId,
      windowName: vscode.workspace.name ?? 'a window without a folder',
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      workspace: deps.workspace,
      terminals: deps.terminals,
      connectRefusal: () => deps.connectRefusal(connectionId),
      retention: historyRetention,
      runRemoved: deps.runRemoved,
      runRemoval: deps.runRemoval(connectionId),
      secrets: connectionSecrets(deps.secrets, connectionId, profile, origin, { info: named.info, warn: named.warn }),
      log: named,
    };
  };
}
