/**
 * Entry point. Builds the root objects (store, connections, views, approvals, commands), wires them together and
 * hands everything to one disposable set. Activation failures are shown to the user, not swallowed: VS Code does not
 * raise a notification when an extension fails to activate.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConnectionManager } from './drivers/connectionManager';
import { driverFactories } from './drivers/daemonRegistry';
import { RunStore } from './model/runStore';
import { processSecretValues } from './transport/secretValues';
import { redactingLog } from './ui/redactingLog';
import { connectionContexts, TraceSetting } from './ui/connectionContexts';
import { ApprovalAttention, WindowFocus } from './ui/approvals/approvalAttention';
import { ApprovalCenter } from './ui/approvals/approvalCenter';
import { ApprovalRules } from './ui/approvals/approvalRules';
import { ApprovalRulesView } from './ui/approvals/approvalRulesView';
import { ApprovalDiffs } from './ui/approvals/approvalDiffs';
import { registerApprovalCommands } from './ui/commands/approvalCommands';
import { registerApprovalRuleCommands } from './ui/commands/approvalRuleCommands';
import { registerChangeSetCommands } from './ui/commands/changeSetCommands';
import { registerChangeSetRevertCommands } from './ui/commands/changeSetRevertCommands';
import type { CommandContext } from './ui/commands/commandContext';
import { registerConnectionCommands } from './ui/commands/connectionCommands';
import { registerRunCommands } from './ui/commands/runCommands';
import { registerRunHistoryCommands } from './ui/runHistory/runHistory';
import { registerTranscriptTabCommands } from './ui/commands/transcriptTabCommands';
import { registerRunBoard } from './ui/board/runBoard';
import type { TreeNode } from './ui/connectionsTreeProvider';
import { ConnectionsTreeProvider } from './ui/connectionsTreeProvider';
import { DaemonActions, registerDaemonActionCommands } from './ui/daemonActions/actionCommands';
import { forgetRemovedProfileSecrets } from './ui/profileSecretCleanup';
import { DraftStore } from './ui/draftStore';
import { RunResidency } from './ui/runResidency';
import { rowActions } from './ui/daemonActions/actionTargets';
import { watchActionOffers, watchRunStateOffers } from './ui/daemonActions/actionOffers';
import { AgentQuestions } from './ui/elicitations/agentQuestions';
import { RunListAutoRefresh } from './ui/runListAutoRefresh';
import { SurfaceVisibility } from './ui/surfaceVisibility';
import { RunSelection } from './ui/runSelection';
import { rememberSelection } from './ui/selectionMemory';
import { RemovedRuns } from './ui/removedRuns';
import { reopenRestoredChangeTabs } from './ui/changeSets/staleChangeTabs';
import { TranscriptPanels } from './ui/transcript/transcriptPanels';
import type { SurfaceDeps } from './ui/transcript/transcriptSurface';
import { TranscriptActionHandler } from './ui/transcriptActions';
import { TranscriptViewProvider } from './ui/transcriptViewProvider';
import { EditorWorkspaceAccess } from './ui/workspaceAccess';
import { WorktreeShim } from './ui/worktrees/worktreeShim';
import { AgentTerminals } from './ui/agentTerminals/agentTerminals';
import type { SwitchboardApi } from './switchboardApi';
import { RunControl } from './ui/runControl';
import { ChangeSetViews } from './ui/changeSets/changeSetViews';
import { ChangeSetEdits } from './ui/changeSets/changeSetEdits';
import { ChangeSetReviews } from './ui/changeSets/changeSetReviews';
import { ReviewMarksStore } from './ui/changeSets/reviewMarks';
import { TranscriptSidebar } from './ui/transcript/transcriptSidebar';
import { TranscriptTabs } from './ui/transcript/transcriptTabs';
import { registerTestHooks, SwitchablePrompts } from './ui/testHooks';
import { MODAL_PROMPTS } from './ui/userPrompts';
import { publicApi } from './switchboardApi';

export type { SwitchboardApi } from './switchboardApi';
import { ProtectedPathPrompts } from './ui/protectedPathPrompts';
import { profileLoader } from './ui/workspaceConnections/profileLoader';
import { connectionNote, registerWorkspaceConnectionCommands } from './ui/workspaceConnections/workspaceConnectionCommands';
import { WorkspaceConnections } from './ui/workspaceConnections/workspaceConnections';
import { editorWindowId } from './ui/windowIdentity';
import { reviewNoteStore } from './ui/reviewNotes/reviewNotePlaces';
import { ReviewTools } from './ui/reviewTools/reviewTools';

export async function activate(context: vscode.ExtensionContext): Promise<SwitchboardApi | undefined> {
  // Every log line, whoever writes it (drivers included), has the host's known secret values redacted.
  const log = redactingLog(vscode.window.createOutputChannel('Agent Switchboard', { log: true }), processSecretValues);
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
  // Services are built downward: each from those above it, none filled in later.
  const store = new RunStore(Date.now, (error) => log.error(`Internal error: ${error instanceof Error ? error.stack : String(error)}`));
  context.subscriptions.push({ dispose: () => store.dispose() });

  const trace = new TraceSetting(log);
  context.subscriptions.push(trace);
  const storageDir = context.globalStorageUri.fsPath;
  // Every window of this machine shares storageDir; each run's journal has one writer, its owner window's id kept here.
  const windowId = editorWindowId(context.workspaceState);
  // The questions the person answers, each given once to the service that asks it: the modals, or in a host started
  // for tests (only there) answers the test hooks can set, since that workbench refuses modals.
  const testPrompts = context.extensionMode === vscode.ExtensionMode.Test ? new SwitchablePrompts() : undefined;
  const prompts = testPrompts?.prompts ?? MODAL_PROMPTS;
  const protectedPrompts = new ProtectedPathPrompts(prompts.protectedWrite, prompts.protectedApply);
  context.subscriptions.push(protectedPrompts);
  // A run in a worktree of its own (issue #26) may use that worktree's files; the service is made below.
  const workspace = new EditorWorkspaceAccess(protectedPrompts, (runFolder): string | undefined => runWorktrees.worktreeOf(runFolder));
  // Commands agents run through the editor, each in an editor terminal.
  const terminals = new AgentTerminals();
  context.subscriptions.push(terminals);
  // Profiles a repository's settings define, and the user's consent to them: every connect passes its gate.
  const workspaceConnections = new WorkspaceConnections(context.workspaceState, prompts.consent);
  context.subscriptions.push(workspaceConnections);
  // Runs removed — by the person (Remove Run, Clear Finished Runs…) or by the history size limit at connect — each told
  // by the driver that deleted them (DriverContext.runRemoved); their owners subscribe further down, before any connect.
  const removedRuns = new RemovedRuns();
  context.subscriptions.push(removedRuns);
  const contexts = connectionContexts({
    storageDir, windowId, workspace, terminals, secrets: context.secrets, log, trace,
    connectRefusal: (connectionId) => workspaceConnections.refusal(connectionId),
    runRemoved: (runKey) => removedRuns.removed(runKey),
    runRemoval: (connectionId) => (runId) => runWorktrees.removalOf(connectionId)(runId),
  });
  const connections = new ConnectionManager(store, driverFactories, contexts, workspaceConnections.gate);
  context.subscriptions.push({ dispose: () => void connections.dispose() });
  // Run worktrees live in this workspace's storage (none without a workspace: the option then says why).
  const runWorktrees: WorktreeShim = new WorktreeShim({ folder: context.storageUri && path.join(context.storageUri.fsPath, 'worktrees'), store, connections, log });
  context.subscriptions.push(runWorktrees);

  const selection = new RunSelection();
  context.subscriptions.push(selection);
  const tree = new ConnectionsTreeProvider(
    store,
    (state, connectionId, run) => rowActions(state, connections, connectionId, run),
    (connectionId) => connectionNote(workspaceConnections, connectionId),
  );
  context.subscriptions.push(tree, workspaceConnections.onDidChange(() => tree.refreshAll()));
  const treeView: vscode.TreeView<TreeNode> = vscode.window.createTreeView('agentSwitchboard.connections', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(treeView);
  tree.setVisible(treeView.visible);
  context.subscriptions.push(treeView.onDidChangeVisibility((e) => tree.setVisible(e.visible)));
  context.subscriptions.push(
    treeView.onDidChangeSelection((e) => {
      const node = e.selection[0];
      if (node?.type === 'run') {
        selection.select(node.key);
      }
    }),
  );

  // Where transcripts are shown (the webview surfaces are built further down, from the services that serve them).
  const transcript = new TranscriptSidebar();
  const transcriptTabs = new TranscriptTabs(store);
  context.subscriptions.push(transcript, transcriptTabs);
  // Finished runs come back from their summaries: a surface that shows one has it replayed, and released later.
  const residency = new RunResidency(store, connections, () => [...(selection.runKey ? [selection.runKey] : []), ...transcriptTabs.list().map((tab) => tab.runKey)], log);
  context.subscriptions.push(residency);
  const runs = new RunControl(store, connections, selection, transcript);
  // The person's review marks of change sets, kept beside each run's journal (issue #26); this window writes them.
  const reviewMarks = new ReviewMarksStore(storageDir, store);
  context.subscriptions.push(reviewMarks);
  const changeSets = new ChangeSetViews(store, connections, selection, transcript, transcriptTabs, residency, reviewMarks);
  const changeSetEdits = new ChangeSetEdits(store, connections, protectedPrompts, log);
  const reviews = new ChangeSetReviews(store, connections, reviewMarks, changeSets, changeSetEdits);
  const daemonActions = new DaemonActions(store, connections, selection, runs, log);
  context.subscriptions.push(changeSets, daemonActions);

  const diffs = new ApprovalDiffs(store, workspace);
  context.subscriptions.push(diffs);
  const approvalRules = new ApprovalRules(store, context.workspaceState, log);
  const windowFocus = new WindowFocus();
  const attention = new ApprovalAttention(windowFocus, log);
  context.subscriptions.push(approvalRules, windowFocus, attention);
  const approvals = new ApprovalCenter(store, connections, diffs, log, (runKey) => void runs.show(runKey), approvalRules, attention, prompts.confirmRule);
  context.subscriptions.push(approvals);
  // The view container's badge is the run board's (runs that need you, approvals included): a second badge here
  // would be added to it and count every approval twice.
  const approvalRulesView = new ApprovalRulesView(approvalRules, store);
  context.subscriptions.push(approvalRulesView, vscode.window.createTreeView(ApprovalRulesView.viewId, { treeDataProvider: approvalRulesView }));

  const commandContext: CommandContext = {
    store, connections, selection, approvals, diffs, transcript, transcriptTabs, runs, changeSets, changeSetEdits, reviews, daemonActions, terminals, log, treeView, memento: context.globalState, residency,
  };
  // Notes to the agent, kept beside each run's files until sent or discarded (issue #26).
  const notes = reviewNoteStore(store, storageDir, log);
  context.subscriptions.push(notes);
  // Rewind, notes, review marks from the palette: loaded at their first use (ui/reviewTools/reviewToolsFeature.ts).
  const reviewTools = new ReviewTools({ ctx: commandContext, notes, confirmRewind: prompts.confirmRewind, editFirstMessage: () => testPrompts?.firstMessage });
  context.subscriptions.push(reviewTools);

  // The transcript's webviews: the sidebar view and the editor tabs, whose messages call the services above.
  const drafts = new DraftStore(context.workspaceState);
  // What the editor keeps of a removed run goes with it, each owner forgetting its own (ui/removedRuns.ts).
  context.subscriptions.push(
    drafts,
    removedRuns.onDidRemove((runKey) => drafts.set(runKey, '')),
    removedRuns.onDidRemove((runKey) => notes.forget(runKey)),
    removedRuns.onDidRemove((runKey) => reviewMarks.forget(runKey)),
  );
  beforeExit = () => Promise.all([connections.dispose(), drafts.flush(), notes.flush()]).then(() => undefined);
  const surfaceDeps: SurfaceDeps = { extensionUri: context.extensionUri, store, actions: new TranscriptActionHandler(commandContext, reviewTools, notes), drafts, log, residency, notes };
  const transcriptView = new TranscriptViewProvider(transcript, surfaceDeps, selection);
  context.subscriptions.push(transcriptView, vscode.window.registerWebviewViewProvider(TranscriptSidebar.viewType, transcriptView));
  const transcriptPanels = new TranscriptPanels(transcriptTabs, surfaceDeps);
  context.subscriptions.push(vscode.window.registerWebviewPanelSerializer(TranscriptPanels.viewType, transcriptPanels));

  context.subscriptions.push(
    ...registerConnectionCommands(commandContext),
    ...registerRunCommands(commandContext, runWorktrees),
    ...registerRunHistoryCommands(commandContext, removedRuns, prompts.confirmRemoval),
    ...registerApprovalCommands(commandContext),
    ...registerApprovalRuleCommands(commandContext, approvalRulesView),
    ...registerChangeSetCommands(commandContext),
    ...registerChangeSetRevertCommands(commandContext),
    ...registerDaemonActionCommands(daemonActions),
    ...registerTranscriptTabCommands(commandContext, transcriptPanels),
    ...registerWorkspaceConnectionCommands(commandContext, workspaceConnections),
    watchActionOffers(commandContext),
    watchRunStateOffers(commandContext),
    new AgentQuestions(commandContext, windowFocus),
  );
  // After a reload: the run shown last is selected again, and restored change-set tabs are opened afresh.
  context.subscriptions.push(
    rememberSelection(selection, store, context.workspaceState, (runKey) => {
      // Only a visible tree: a hidden one reveals when it is next shown, and that late tree selection would
      // override whatever the user selected meanwhile. The transcript shows the run either way.
      if (treeView.visible) {
        treeView.reveal(tree.runNode(runKey), { select: true, focus: false }).then(undefined, (error: unknown) => log.info(`Revealing the restored selection: ${String(error)}`));
      }
    }, removedRuns.onDidRemove),
    reopenRestoredChangeTabs(store, (runKey) => changeSets.openAllOf(runKey), (m) => log.warn(m)),
  );

  // The run board: every run of every connection grouped Needs you / Working / Done, and Next Approval.
  const runBoard = registerRunBoard(commandContext, removedRuns.onDidRemove);
  context.subscriptions.push(...runBoard.disposables);
  context.subscriptions.push(new RunListAutoRefresh([treeView, runBoard.board.view], store, connections, log));
  context.subscriptions.push(new SurfaceVisibility([treeView, runBoard.board.view], transcript, store, connections));

  const reloadProfiles = profileLoader({ store, connections, factories: driverFactories, workspace: workspaceConnections, log, onRead: forgetRemovedProfileSecrets(context.secrets, log) });
  // Trust granted: the workspace's profiles become reviewable (still not connected without consent).
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void reloadProfiles()));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentSwitchboard.trace.file')) {
        trace.reopen();
      }
      if (e.affectsConfiguration('agentSwitchboard.connections') || e.affectsConfiguration('agentSwitchboard.autoConnect')) {
        void reloadProfiles();
      }
    }),
  );
  // Only a host started for tests hands out the hooks: a third-party extension sees the API below and nothing more.
  if (testPrompts) {
    const services = { store, connections, selection, approvals, board: runBoard.board, workspace };
    context.subscriptions.push(registerTestHooks({ windowFocus, prompts: testPrompts, services, storageDir }));
  }
  await reloadProfiles();
  log.info(`Agent Switchboard ${String(context.extension.packageJSON.version)} activated`);

  return publicApi({
    store, connections, selection, board: runBoard.board, transcriptTabs, terminals, drafts, reloadProfiles, flushTrace: () => trace.flush(),
  });
}

/** Set by the last activation: closes every connection (journals flushed, run checkpoints written), stores the drafts. */
let beforeExit: (() => Promise<void>) | undefined;

/**
 * VS Code waits for the returned promise (within its own limit) before the extension host goes away, e.g. on a
 * window reload: the connections close first, so their journals are flushed, the checkpoints of long runs written
 * (drivers/kit/runCheckpoints.ts) and the files closed, and the composer drafts are stored. The rest is disposed
 * through context.subscriptions.
 */
export async function deactivate(): Promise<void> {
  await beforeExit?.().catch(() => undefined);
}
