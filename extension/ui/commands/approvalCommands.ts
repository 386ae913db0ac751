/** Allow/Deny Pending Approval…, the editor-title Allow/Deny of a proposal diff, and Show Approval Diff. */
import * as vscode from 'vscode';
import type { ApprovalInfo } from '../../model/modelTypes';
import { isProtectedSubject } from '../../model/pathRules';
import { asApprovalKey } from '../../model/runKeys';
import type { ApprovalDecision } from '../../protocol/transcriptTypes';
import { approvalDecisionSchema, decisionLabel, decisionSurfaceSchema, isAllowing, shownDecisions } from '../../protocol/transcriptTypes';
import { workspaceRulesAllowed } from '../approvals/approvalRules';
import { ruleChoices } from '../approvals/ruleDecision';
import { sanitizeCommandText, sanitizeNotificationText } from '../notificationText';
import type { CommandContext } from './commandContext';

const ICONS: Record<ApprovalDecision, string> = { allow_once: '$(check)', allow_similar: '$(check-all)', deny: '$(close)', deny_always: '$(circle-slash)' };

export function registerApprovalCommands(ctx: CommandContext): vscode.Disposable[] {
  const pickApproval = async (): Promise<ApprovalInfo | undefined> => {
    const pending = ctx.approvals.pending();
    if (pending.length === 0) {
      void vscode.window.showInformationMessage('No approval requests are waiting.');
      return undefined;
    }
    const items = pending.map((a) => ({
      label: sanitizeNotificationText(a.title, 80),
      description: a.risk ? `risk: ${a.risk}` : undefined,
      detail: `${sanitizeCommandText(a.summary ?? '', 120)} — ${sanitizeNotificationText(ctx.store.state.runs.get(a.runKey)?.title ?? a.runKey, 80)}`,
      approval: a,
    }));
    return (await vscode.window.showQuickPick(items, { placeHolder: 'Which approval request?', matchOnDetail: true }))?.approval;
  };

  const decideActive = async (decision: ApprovalDecision): Promise<boolean> => {
    const key = ctx.diffs.activeApprovalKey();
    if (!key) {
      void vscode.window.showWarningMessage('The active editor is not a pending approval.');
      return false;
    }
    const approval = ctx.approvals.find(key);
    // "Allow" in the editor title means allow once; daemons without options fall back to what they offer.
    const chosen = decision === 'allow_once' && approval && !approval.options.includes('allow_once') ? approval.options.find((o) => isAllowing(o)) : decision;
    return chosen ? ctx.approvals.decide(key, chosen, 'editor') : false;
  };

  return [
    // `surface`: where the person chose (the run board passes 'board'); the palette when not said.
    vscode.commands.registerCommand('agentSwitchboard.decideApproval', async (approvalKey?: unknown, decision?: unknown, surface?: unknown) => {
      const claimed = decisionSurfaceSchema.safeParse(surface).data;
      const by = claimed !== undefined && claimed !== 'daemon' ? claimed : 'palette';
      const key = asApprovalKey(approvalKey);
      const approval = key !== undefined ? ctx.approvals.find(key) : await pickApproval();
      if (!approval) {
        return false;
      }
      if (approvalDecisionSchema.safeParse(decision).success) {
        return ctx.approvals.decide(approval.key, decision as ApprovalDecision, by);
      }
      // The palette lists the daemon's own "similar" answers beside the rule item, but not for a request cut or
      // unreadable; a protected path is allowed once at a time: not by the agent's own "always", not by a rule.
      const guarded = isProtectedSubject(approval.subject);
      const items: { label: string; decision?: ApprovalDecision; diff?: boolean; rule?: boolean }[] = shownDecisions(approval.options, approval.subject, false, guarded)
        .map((o) => ({ label: `${ICONS[o]} ${decisionLabel(o, approval.options, approval.lasts)}`, decision: o }));
      if (ruleChoices(approval, workspaceRulesAllowed()).length > 0) {
        items.push({ label: '$(law) Allow or deny similar requests (save a rule)…', rule: true });
      }
      if (ctx.diffs.canShow(approval)) {
        items.push({ label: '$(diff) Show diff', diff: true });
      }
      const pick = await vscode.window.showQuickPick(items, { placeHolder: sanitizeCommandText(approval.summary ?? approval.title, 120) });
      if (pick?.rule) {
        return ctx.approvals.ruleFlow.pick(approval, 'palette');
      }
      if (pick?.diff) {
        await ctx.diffs.show(approval);
        return false;
      }
      return pick?.decision ? ctx.approvals.decide(approval.key, pick.decision, by) : false;
    }),
    vscode.commands.registerCommand('agentSwitchboard.approval.allow', () => decideActive('allow_once')),
    vscode.commands.registerCommand('agentSwitchboard.approval.deny', () => decideActive('deny')),
    vscode.commands.registerCommand('agentSwitchboard.showApprovalDiff', async (approvalKey?: unknown) => {
      const approval = typeof approvalKey === 'string' ? ctx.approvals.find(approvalKey) : await pickApproval();
      if (approval) {
        await ctx.diffs.show(approval);
      }
    }),
  ];
}
