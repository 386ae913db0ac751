/**
 * What the command handlers work with: the extension's services, built in dependency order by extension.ts before
 * any command or webview surface that uses them.
 */
import type * as vscode from 'vscode';
import type { ConnectionManager } from '../../drivers/connectionManager';
import type { RunKey } from '../../model/runKeys';
import { asConnectionId, asRunKey } from '../../model/runKeys';
import type { RunStore } from '../../model/runStore';
import type { ApprovalCenter } from '../approvals/approvalCenter';
import type { ApprovalDiffs } from '../approvals/approvalDiffs';
import type { TreeNode } from '../connectionsTreeProvider';
import type { RunSelection } from '../runSelection';
import type { AgentTerminals } from '../agentTerminals/agentTerminals';
import type { ChangeSetEdits } from '../changeSets/changeSetEdits';
import type { ChangeSetReviews } from '../changeSets/changeSetReviews';
import type { ChangeSetViews } from '../changeSets/changeSetViews';
import type { DaemonActions } from '../daemonActions/actionCommands';
import type { RunControl } from '../runControl';
import type { RunResidency } from '../runResidency';
import type { TranscriptSidebar } from '../transcript/transcriptSidebar';
import type { TranscriptTabs } from '../transcript/transcriptTabs';

export interface CommandContext {
  readonly store: RunStore;
  readonly connections: ConnectionManager;
  readonly selection: RunSelection;
  readonly approvals: ApprovalCenter;
  readonly diffs: ApprovalDiffs;
  /** The sidebar's transcript view. */
  readonly transcript: TranscriptSidebar;
  /** The transcripts open in editor tabs ("Open in Editor"), one per run. */
  readonly transcriptTabs: TranscriptTabs;
  /** Show, message, cancel and end a run. */
  readonly runs: RunControl;
  /** Show a run's change set (transcript, multi-diff editor, a file's diff). */
  readonly changeSets: ChangeSetViews;
  /** Apply or revert a change set (whole, a file, hunks), copy or save its patch. */
  readonly changeSetEdits: ChangeSetEdits;
  /** Review marks of change sets, and Keep / Undo of edits already on disk (issue #26). */
  readonly reviews: ChangeSetReviews;
  /** The daemons' own actions. */
  readonly daemonActions: DaemonActions;
  /** The editor terminals of the commands agents run. */
  readonly terminals: AgentTerminals;
  readonly log: vscode.LogOutputChannel;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** The extension's global state: choices remembered across windows (New Run's conversation / one-shot). */
  readonly memento: vscode.Memento;
  /** Which runs' transcripts are in memory: a command that reads a run shown from its summary loads it first. */
  readonly residency: Pick<RunResidency, 'ensureLoaded'>;
}

/** Commands take a tree node (menus), a run key / connection id string, or nothing (palette). */
export type CommandTarget = TreeNode | string | undefined;

export function runKeyOfTarget(target: unknown): RunKey | undefined {
  if (typeof target === 'string') {
    return asRunKey(target);
  }
  if (target !== null && typeof target === 'object' && 'type' in target && target.type === 'run' && 'key' in target) {
    return asRunKey(target.key);
  }
  return undefined;
}

export function connectionIdOfTarget(target: unknown): string | undefined {
  if (typeof target === 'string') {
    return asConnectionId(target);
  }
  if (target !== null && typeof target === 'object' && 'type' in target && target.type === 'connection' && 'id' in target) {
    return String(target.id);
  }
  return undefined;
}

// The commands show driver errors with the kit's one error-to-text function.
export { errorText } from '../../drivers/kit/errors';
