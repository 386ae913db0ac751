/**
 * What a real window does that an integration test cannot (lose focus, click a modal), the services a test drives
 * directly (deciding an approval as a surface would, dispatching a model action, connecting), and where the extension
 * keeps its files. Not part of the public API (`SwitchboardApi`, read-only): only an extension host started for tests
 * (`ExtensionMode.Test`, i.e. with `--extensionTestsPath`) registers the command that hands it out.
 */
import type { ConnectionManager } from './drivers/connectionManager';
import type { WorkspaceAccess } from './drivers/kit/workspaceAccess';
import type { RunStore } from './model/runStore';
import type { ApprovalCenter } from './ui/approvals/approvalCenter';
import type { RunBoard } from './ui/board/runBoard';
import type { RunSelection } from './ui/runSelection';
import type { ConfirmRule } from './ui/approvals/approvalRuleFlow';
import type { ConfirmProtectedApply, ConfirmProtectedWrite } from './ui/protectedPathPrompts';
import type { ConsentPrompt } from './ui/workspaceConnections/workspaceConnections';
import type { ConfirmRemoval } from './ui/commands/removalPrompt';
import type { EditFirstMessage } from './ui/checkpoints/firstMessageEditor';
import type { ConfirmRewind } from './ui/checkpoints/rewindPrompt';

/** The command that returns the test hooks; registered only in `ExtensionMode.Test` and absent from the palette. */
export const TEST_HOOKS_COMMAND = 'agentSwitchboard.test.hooks';

/** The extension's own services, whole: what a test does through them stands in for the person's clicks. */
export interface TestServices {
  readonly store: RunStore;
  readonly connections: ConnectionManager;
  readonly selection: RunSelection;
  readonly approvals: ApprovalCenter;
  readonly board: RunBoard;
  /** The editor's files as every driver's `DriverContext.workspace` sees them (protected paths asked about). */
  readonly workspace: WorkspaceAccess;
}

export interface SwitchboardTestHooks extends TestServices {
  /** Simulates the window losing (`false`) or gaining focus; `undefined` returns to the real state. */
  setWindowFocused(focused: boolean | undefined): void;
  /** Answers the question shown before a rule is saved, instead of the modal; `undefined` restores the modal. */
  setRuleConfirmation(confirm: ConfirmRule | undefined): void;
  /** Answers the questions asked before a protected path is written or applied (`.vscode`, `.git`…); `undefined` restores the modals. */
  setProtectedPathConfirmations(answers: { readonly write?: ConfirmProtectedWrite; readonly apply?: ConfirmProtectedApply } | undefined): void;
  /** Answers the question whether to allow a workspace-defined connection; `undefined` restores the modal. */
  setConsentPrompt(prompt: ConsentPrompt | undefined): void;
  /** Answers the question before runs are deleted (Remove Run, Clear Finished Runs…); `undefined` restores the modal. */
  setRemovalConfirmation(confirm: ConfirmRemoval | undefined): void;
  /** Answers the question before a rewind or redo writes files (with a decision per path asked about); `undefined` restores the modal. */
  setRewindConfirmation(confirm: ConfirmRewind | undefined): void;
  /** Answers *Continue from here*'s first message (the draft in, the message to send out); `undefined` restores the editor. */
  setFirstMessageAnswer(edit: EditFirstMessage | undefined): void;
  /** Where the journals and run checkpoints are (the extension's global storage). */
  readonly storageDir: string;
}
