/**
 * The approval rules' palette commands (*Allow or Deny Similar Requests…*, *Revoke Approval Rule…*, *Reset Approval
 * Rules…*, also the Approval Rules view's actions): registered at activation, handled by approvalRuleCommandsFeature.ts,
 * a bundle loaded at the first use of one.
 */
import type * as vscode from 'vscode';
import type { ApprovalRulesView } from '../approvals/approvalRulesView';
import type { CommandHandler } from '../lazyCommands';
import { registerLazyCommands } from '../lazyCommands';
import type * as Feature from './approvalRuleCommandsFeature';
import type { CommandContext } from './commandContext';

export const APPROVAL_RULE_COMMANDS = ['agentSwitchboard.ruleFromApproval', 'agentSwitchboard.revokeApprovalRule', 'agentSwitchboard.resetApprovalRules'] as const;

export function registerApprovalRuleCommands(ctx: CommandContext, view: ApprovalRulesView): vscode.Disposable[] {
  let handlers: ReadonlyMap<string, CommandHandler> | undefined;
  const load = (): ReadonlyMap<string, CommandHandler> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
    (handlers ??= (require('./approvalRuleCommandsFeature') as typeof Feature).approvalRuleHandlers(ctx, view));
  return registerLazyCommands(APPROVAL_RULE_COMMANDS, load, 'approval rule commands');
}
