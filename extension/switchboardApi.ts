/**
 * The object `activate` returns (extension.ts): the extension's root services for the integration tests and for
 * anyone automating the extension, and the test hooks that stand in for what a test cannot do in a real window.
 */
import type { ConnectionManager } from './drivers/connectionManager';
import type { WorkspaceAccess } from './drivers/kit/workspaceAccess';
import type { RunStore as RunStoreType } from './model/runStore';
import type { AgentTerminalInfo } from './ui/agentTerminals/agentTerminals';
import type { ApprovalCenter } from './ui/approvals/approvalCenter';
import type { ApprovalDiffs } from './ui/approvals/approvalDiffs';
import type { ConfirmRule } from './ui/approvals/approvalRuleFlow';
import type { RunBoard } from './ui/board/runBoard';
import type { ConfirmProtectedApply, ConfirmProtectedWrite } from './ui/protectedPathPrompts';
import type { RunSelection } from './ui/runSelection';
import type { TranscriptPanelInfo } from './ui/transcript/transcriptTabs';
import type { ConsentPrompt } from './ui/workspaceConnections/workspaceConnections';

/** What `activate` returns: used by the integration tests, and by anyone automating the extension. */
export interface SwitchboardApi {
  readonly store: RunStoreType;
  readonly connections: ConnectionManager;
  readonly selection: RunSelection;
  readonly approvals: ApprovalCenter;
  readonly diffs: ApprovalDiffs;
  /** The "Runs" board (read it; the tests do). */
  readonly board: RunBoard;
  /** The editor's files as every driver's `DriverContext.workspace` sees them (one instance for all connections). */
  readonly workspace: WorkspaceAccess;
  /** Reads the connection settings again (also done automatically when they change). */
  reloadProfiles(): Promise<void>;
  /** Waits until the protocol trace has flushed its pending lines. */
  flushTrace(): Promise<void>;
  /** The transcripts open in editor tabs (read-only). */
  readonly transcriptTabs: { list(): TranscriptPanelInfo[] };
  /** The editor terminals showing commands agents ran (read-only). */
  readonly agentTerminals: { list(): AgentTerminalInfo[] };
  /** The composer drafts the host keeps for every run; `flush` resolves once they are in the workspace state. */
  readonly drafts: { get(runKey: string): string; flush(): Promise<void> };
  /** For the integration tests: what a real window does that a test cannot (lose focus, click a modal). */
  readonly testHooks: {
    /** Simulates the window losing (`false`) or gaining focus; `undefined` returns to the real state. */
    setWindowFocused(focused: boolean | undefined): void;
    /** Replaces the modal that shows a rule before it is saved; `undefined` restores it. */
    setRuleConfirmation(confirm: ConfirmRule | undefined): void;
    /** Replaces the modals asked before a protected path is written or applied (`.vscode`, `.git`…); `undefined` restores them. */
    setProtectedPathConfirmations(answers: { readonly write?: ConfirmProtectedWrite; readonly apply?: ConfirmProtectedApply } | undefined): void;
    /** Replaces the modal that asks to allow a workspace-defined connection; `undefined` restores it. */
    setConsentPrompt(prompt: ConsentPrompt | undefined): void;
    /** Where the journals and run checkpoints are (the extension's global storage). */
    readonly storageDir: string;
  };
}
