/**
 * Entry point. Builds the root objects (store, connections, views, approvals, commands), wires them together and
 * hands everything to one disposable set. Activation failures are shown to the user, not swallowed: VS Code does not
 * raise a notification when an extension fails to activate.
 */
import * as vscode from 'vscode';
import { ConnectionManager } from './drivers/connectionManager';
import type { ConnectionProfile } from './drivers/driver';
import { driverFactories } from './drivers/daemonRegistry';
import type { WorkspaceAccess } from './drivers/kit/workspaceAccess';
import type { RunStore as RunStoreType } from './model/runStore';
import { RunStore } from './model/runStore';
import type { FrameTap } from './transport/frameTap';
import { combineTaps, ProtocolTrace } from './transport/protocolTrace';
import { frameLogLine } from './transport/frameLogLine';
import { ApprovalCenter } from './ui/approvals/approvalCenter';
import { ApprovalDiffs } from './ui/approvals/approvalDiffs';
import { registerApprovalCommands } from './ui/commands/approvalCommands';
import { registerChangeSetCommands } from './ui/commands/changeSetCommands';
import type { CommandContext } from './ui/commands/commandContext';
import { registerConnectionCommands } from './ui/commands/connectionCommands';
import { registerRunCommands } from './ui/commands/runCommands';
import type { TreeNode } from './ui/connectionsTreeProvider';
import { ConnectionsTreeProvider } from './ui/connectionsTreeProvider';
import { registerDaemonActionCommands } from './ui/daemonActions/actionCommands';
import { driverSecretsFor } from './ui/driverSecrets';
import { rowActions } from './ui/daemonActions/actionTargets';
import { watchActionOffers, watchRunStateOffers } from './ui/daemonActions/actionOffers';
import { RunListAutoRefresh } from './ui/runListAutoRefresh';
import { RunSelection } from './ui/runSelection';
import { autoConnectEnabled, readProfiles, traceFile } from './ui/settings';
import { TranscriptActionHandler } from './ui/transcriptActions';
import { TranscriptViewProvider } from './ui/transcriptViewProvider';
import { EditorWorkspaceAccess } from './ui/workspaceAccess';

/** What `activate` returns: used by the integration tests, and by anyone automating the extension. */
export interface SwitchboardApi {
  readonly store: RunStoreType;
  readonly connections: ConnectionManager;
  readonly selection: RunSelection;
  readonly approvals: ApprovalCenter;
  readonly diffs: ApprovalDiffs;
  /** The editor's files as every driver's `DriverContext.workspace` sees them (one instance for all connections). */
  readonly workspace: WorkspaceAccess;
  /** Reads the connection settings again (also done automatically when they change). */
  reloadProfiles(): Promise<void>;
  /** Waits until the protocol trace has flushed its pending lines. */
  flushTrace(): Promise<void>;
}

export async function activate(context: vscode.ExtensionContext): Promise<SwitchboardApi | undefined> {
  const log = vscode.window.createOutputChannel('Agent Switchboard', { log: true });
  context.subscriptions.push(log);
  try {
    return await activateInner(context, log);
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log.error(`Activation failed: ${text}`);
    void vscode.window.showErrorMessage(`Agent Switchboard could not start: ${error instanceof Error ? error.message : String(error)}`, 'Show Log').then((choice) => {
      if (choice) {
        log.show();
      }
    });
    return undefined;
  }
}

async function activateInner(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<SwitchboardApi> {
  const store = new RunStore(Date.now, (error) => log.error(`Internal error: ${error instanceof Error ? error.stack : String(error)}`));
  context.subscriptions.push({ dispose: () => store.dispose() });

  let trace: ProtocolTrace | undefined;
  const openTrace = (): void => {
    const file = traceFile();
    if (trace?.file === file) {
      return;
    }
    trace?.dispose();
    trace = file ? new ProtocolTrace(file, (error) => log.error(`Protocol trace ${file} failed: ${String(error)}`)) : undefined;
    if (file) {
      log.info(`Writing the protocol trace to ${file}`);
    }
  };
  openTrace();
  context.subscriptions.push({ dispose: () => trace?.dispose() });

  // Every frame of every transport, at Trace level (Show Protocol Log offers to switch to it).
  const logTap = (connection: string): FrameTap => (dir, frame, http) => {
    if (log.logLevel === vscode.LogLevel.Trace) {
      log.trace(frameLogLine(connection, dir, frame, http));
    }
  };
  const storageDir = context.globalStorageUri.fsPath;
  const workspace = new EditorWorkspaceAccess();
  const connections = new ConnectionManager(store, driverFactories, (connectionId, profile: ConnectionProfile) => ({
    // The trace is looked up per frame so enabling it in settings applies to open connections too.
    tap: combineTaps((dir, frame, http) => trace?.tap(profile.protocol, profile.name)(dir, frame, http), logTap(profile.name)),
    storageDir,
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    workspace,
    secrets: driverSecretsFor(context.secrets, connectionId),
    log: {
      info: (m) => log.info(`[${profile.name}] ${m}`),
      warn: (m) => log.warn(`[${profile.name}] ${m}`),
      error: (m) => log.error(`[${profile.name}] ${m}`),
    },
  }));
  context.subscriptions.push({ dispose: () => void connections.dispose() });

  const selection = new RunSelection();
  context.subscriptions.push(selection);
  const tree = new ConnectionsTreeProvider(store, (state, connectionId, run) => rowActions(state, connections, connectionId, run));
  context.subscriptions.push(tree);
  const treeView: vscode.TreeView<TreeNode> = vscode.window.createTreeView('agentSwitchboard.connections', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(treeView);
  context.subscriptions.push(new RunListAutoRefresh(treeView, store, connections, log));

  // The transcript's action handler needs the command context, which needs the transcript view: late-bound.
  const commandContextRef: { current?: CommandContext } = {};
  const transcript = new TranscriptViewProvider(
    context.extensionUri,
    store,
    selection,
    new TranscriptActionHandler(() => commandContextRef.current),
    log,
  );
  context.subscriptions.push(transcript);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(TranscriptViewProvider.viewType, transcript));

  const diffs = new ApprovalDiffs(store);
  context.subscriptions.push(diffs);
  const approvals = new ApprovalCenter(store, connections, diffs, log, (runKey) => {
    selection.select(runKey);
    void transcript.reveal();
  });
  context.subscriptions.push(approvals);
  context.subscriptions.push(
    approvals.onDidChangeCount((count) => {
      treeView.badge = count > 0 ? { value: count, tooltip: `${count} approval${count === 1 ? '' : 's'} waiting` } : undefined;
    }),
  );
  context.subscriptions.push(
    treeView.onDidChangeSelection((e) => {
      const node = e.selection[0];
      if (node?.type === 'run') {
        selection.select(node.key);
      }
    }),
  );

  const commandContext: CommandContext = { store, connections, selection, approvals, diffs, transcript, log, treeView, memento: context.globalState };
  commandContextRef.current = commandContext;
  context.subscriptions.push(
    ...registerConnectionCommands(commandContext),
    ...registerRunCommands(commandContext),
    ...registerApprovalCommands(commandContext),
    ...registerChangeSetCommands(commandContext),
    ...registerDaemonActionCommands(commandContext),
    watchActionOffers(commandContext),
    watchRunStateOffers(commandContext),
  );

  const reloadProfiles = async (): Promise<void> => {
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
    await connections.setProfiles(profiles);
    for (const profile of profiles) {
      const id = `${profile.protocol}:${profile.name}`;
      const connection = store.state.connections.get(id);
      if (autoConnectEnabled(profile) && connection?.state.kind === 'idle' && driverFactories[profile.protocol]) {
        connections.connect(id).catch((error: unknown) => log.error(`[${profile.name}] ${error instanceof Error ? error.message : String(error)}`));
      }
    }
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentSwitchboard.trace.file')) {
        openTrace();
      }
      if (e.affectsConfiguration('agentSwitchboard.connections') || e.affectsConfiguration('agentSwitchboard.autoConnect')) {
        void reloadProfiles();
      }
    }),
  );
  await reloadProfiles();
  log.info(`Agent Switchboard ${String(context.extension.packageJSON.version)} activated`);

  return {
    store,
    connections,
    selection,
    approvals,
    diffs,
    workspace,
    reloadProfiles,
    flushTrace: () => trace?.flush() ?? Promise.resolve(),
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
