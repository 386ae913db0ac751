/**
 * Approval rules from the palette and the Approval Rules view: save one from a request, revoke one, reset all. Their
 * handlers, a bundle loaded at the first use of one (approvalRuleCommands.ts registers them).
 */
import * as vscode from 'vscode';
import type { ApprovalRule } from '../../model/approvalRules';
import type { ApprovalRulesView } from '../approvals/approvalRulesView';
import type { CommandHandler } from '../lazyCommands';
import { sanitizeCommandText, sanitizeNotificationText } from '../notificationText';
import type { CommandContext } from './commandContext';

function ruleIdOf(target: unknown): string | undefined {
  if (typeof target === 'string') {
    return target;
  }
  if (target !== null && typeof target === 'object' && 'id' in target && typeof target.id === 'string') {
    return target.id;
  }
  return undefined;
}

/** The handlers of APPROVAL_RULE_COMMANDS. */
export function approvalRuleHandlers(ctx: CommandContext, view: ApprovalRulesView): ReadonlyMap<string, CommandHandler> {
  const rules = ctx.approvals.rules;
  const pickRule = async (): Promise<ApprovalRule | undefined> => {
    const all = rules.all();
    if (all.length === 0) {
      void vscode.window.showInformationMessage('There are no approval rules.');
      return undefined;
    }
    const items = all.map((rule) => ({ label: sanitizeCommandText(rule.label, 120), description: view.describe(rule), rule }));
    return (await vscode.window.showQuickPick(items, { placeHolder: 'Which approval rule should stop answering requests?' }))?.rule;
  };

  return new Map<string, CommandHandler>([
    ['agentSwitchboard.ruleFromApproval', async (approvalKey?: unknown) => {
      const approval =
        typeof approvalKey === 'string'
          ? ctx.approvals.find(approvalKey)
          : (
              await vscode.window.showQuickPick(
                ctx.approvals.pending().map((a) => ({ label: sanitizeNotificationText(a.title, 80), detail: sanitizeCommandText(a.summary ?? '', 120), approval: a })),
                { placeHolder: 'Which approval request?' },
              )
            )?.approval;
      if (!approval) {
        if (ctx.approvals.pending().length === 0) {
          void vscode.window.showInformationMessage('No approval requests are waiting.');
        }
        return false;
      }
      return ctx.approvals.ruleFlow.pick(approval, 'palette');
    }],
    ['agentSwitchboard.revokeApprovalRule', async (target?: unknown) => {
      const id = ruleIdOf(target) ?? (await pickRule())?.id;
      if (id === undefined) {
        return false;
      }
      const removed = await rules.revoke(id);
      if (!removed) {
        void vscode.window.showInformationMessage('That approval rule no longer exists.');
      }
      return removed;
    }],
    ['agentSwitchboard.resetApprovalRules', async () => {
      const count = rules.all().length;
      const reset = 'Reset Approval Rules';
      const choice = await vscode.window.showWarningMessage(
        'Remove every approval rule?',
        { modal: true, detail: `${count} rule${count === 1 ? '' : 's'} will stop answering requests, the ones stored in this workspace too. Requests are asked again.` },
        reset,
      );
      if (choice !== reset) {
        return false;
      }
      await rules.reset();
      return true;
    }],
  ]);
}
