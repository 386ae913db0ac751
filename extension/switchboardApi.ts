/**
 * The object `activate` returns (extension.ts): the extension's root services for the integration tests and for
 * anyone automating the extension. The test hooks are not here: see switchboardTestHooks.ts.
 */
import type { ConnectionManager } from './drivers/connectionManager';
import type { WorkspaceAccess } from './drivers/kit/workspaceAccess';
import type { RunStore as RunStoreType } from './model/runStore';
import type { AgentTerminalInfo } from './ui/agentTerminals/agentTerminals';
import type { ApprovalCenter } from './ui/approvals/approvalCenter';
import type { ApprovalDiffs } from './ui/approvals/approvalDiffs';
import type { RunBoard } from './ui/board/runBoard';
import type { RunSelection } from './ui/runSelection';
import type { TranscriptPanelInfo } from './ui/transcript/transcriptTabs';

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
}
