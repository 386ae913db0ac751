/**
 * What a real window does that an integration test cannot (lose focus, click a modal), and where the extension keeps
 * its files. Not part of the public API (`SwitchboardApi`): only an extension host started for tests
 * (`ExtensionMode.Test`, i.e. with `--extensionTestsPath`) registers the command that hands it out.
 */
import type { ConfirmRule } from './ui/approvals/approvalRuleFlow';
import type { ConfirmProtectedApply, ConfirmProtectedWrite } from './ui/protectedPathPrompts';
import type { ConsentPrompt } from './ui/workspaceConnections/workspaceConnections';

/** The command that returns the test hooks; registered only in `ExtensionMode.Test` and absent from the palette. */
export const TEST_HOOKS_COMMAND = 'agentSwitchboard.test.hooks';

export interface SwitchboardTestHooks {
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
}
