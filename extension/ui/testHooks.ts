/**
 * The test-only entry (switchboardTestHooks.ts): a command, registered by extension.ts only in an extension host
 * started for tests, that returns the hooks standing in for what a test cannot do in a real window. Each hook
 * replaces a modal or the window's focus; `undefined` puts back what was there when the hooks were registered.
 */
import * as vscode from 'vscode';
import type { SwitchboardTestHooks } from '../switchboardTestHooks';
import { TEST_HOOKS_COMMAND } from '../switchboardTestHooks';
import type { WindowFocus } from './approvals/approvalAttention';
import type { ApprovalRuleFlow } from './approvals/approvalRuleFlow';
import type { ProtectedPathPrompts } from './protectedPathPrompts';
import type { WorkspaceConnections } from './workspaceConnections/workspaceConnections';

export interface TestHookTargets {
  readonly windowFocus: WindowFocus;
  readonly ruleFlow: ApprovalRuleFlow;
  readonly protectedPrompts: ProtectedPathPrompts;
  readonly workspaceConnections: WorkspaceConnections;
  readonly storageDir: string;
}

export function registerTestHooks(targets: TestHookTargets): vscode.Disposable {
  const { windowFocus, ruleFlow, protectedPrompts, workspaceConnections, storageDir } = targets;
  const defaults = { confirmRule: ruleFlow.confirm, write: protectedPrompts.confirmWrite, apply: protectedPrompts.confirmApply, consent: workspaceConnections.prompt };
  const hooks: SwitchboardTestHooks = {
    setWindowFocused: (focused) => windowFocus.setOverride(focused),
    setRuleConfirmation: (confirm) => {
      ruleFlow.confirm = confirm ?? defaults.confirmRule;
    },
    setProtectedPathConfirmations: (answers) => {
      protectedPrompts.confirmWrite = answers?.write ?? defaults.write;
      protectedPrompts.confirmApply = answers?.apply ?? defaults.apply;
    },
    setConsentPrompt: (prompt) => {
      workspaceConnections.prompt = prompt ?? defaults.consent;
    },
    storageDir,
  };
  return vscode.commands.registerCommand(TEST_HOOKS_COMMAND, () => hooks);
}
