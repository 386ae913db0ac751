/**
 * Saving an approval rule from a request: the rule is proposed from what the request touches, shown in full
 * (tool, pattern, effect, scope and where it is kept) and saved only when the person confirms; then the request
 * itself is decided through the one gate. Used by the card, the notification and the palette alike.
 */
import * as vscode from 'vscode';
import type { ApprovalRule, RuleEffect, RulePattern, RuleScopeKind } from '../../model/approvalRules';
import { patternLabel, ruleFor, scopeLabel, storageLabel } from '../../model/approvalRules';
import type { ApprovalInfo } from '../../model/modelTypes';
import { protectedPathsOfSubject } from '../../model/pathRules';
import type { RunStore } from '../../model/runStore';
import type { ApprovalDecision, DecisionSurface } from '../../protocol/transcriptTypes';
import { protectedNotice } from '../../protocol/protectedPaths';
import { decisionLabel, subjectIsComplete } from '../../protocol/transcriptTypes';
import { visibleExcerpt } from '../../protocol/visibleText';
import { sanitizeNotificationText } from '../notificationText';
import type { ApprovalRules } from './approvalRules';
import { workspaceRulesAllowed } from './approvalRules';
import { decisionForRule, ownSimilarDecisions, ruleChoices } from './ruleDecision';

export type ConfirmRule = (rule: ApprovalRule, connectionName: string) => Promise<boolean>;
export type DecideWithRule = (approvalKey: string, decision: ApprovalDecision, by: DecisionSurface, rule?: string) => Promise<boolean>;

/** What a command pattern covers beyond its words (the matcher is model/commandRules.ts). */
function coverage(pattern: RulePattern): string[] {
  switch (pattern.kind) {
    case 'commandPrefix':
      return [
        'Covers: commands whose first words are these, with any arguments after them (options included).',
        'Never covers a command that chains, pipes, redirects or substitutes anything, or holds characters other than printable ASCII.',
      ];
    case 'commandExact':
      return ['Covers: this one command, character for character, and nothing else.'];
    default:
      return [];
  }
}

/** The words of the confirmation: everything the rule will do, before it exists. */
export function ruleConfirmationDetail(rule: ApprovalRule, connectionName: string): string {
  return [
    `Effect: ${rule.effect === 'allow' ? 'allow' : 'deny'} without asking`,
    `Tool: ${sanitizeNotificationText(rule.tool, 80)}`,
    // A modal renders no markdown, so a glob's brackets stay as they are; a long exact command keeps its head and
    // its tail: the confirmation must not hide what the rule allows.
    `Pattern: ${visibleExcerpt(patternLabel(rule.tool, rule.pattern), 1000)}`,
    ...coverage(rule.pattern),
    `Scope: ${scopeLabel(rule.scope)} (${sanitizeNotificationText(connectionName, 60)})`,
    `Stored: ${storageLabel(rule.scope)}`,
    'Deny rules win over allow rules. Revoke it in the Approval Rules view.',
  ].join('\n');
}

/** The real question: a modal (the tests' host cannot click one; it gets its own answer at construction). */
export const modalConfirmRule: ConfirmRule = async (rule, connectionName) => {
  const save = rule.effect === 'allow' ? 'Save rule and allow' : 'Save rule and deny';
  const message = `Save this approval rule? ${visibleExcerpt(rule.label, 160)}`;
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail: ruleConfirmationDetail(rule, connectionName) }, save);
  return choice === save;
};

export class ApprovalRuleFlow {
  constructor(
    private readonly store: RunStore,
    private readonly rules: ApprovalRules,
    private readonly decide: DecideWithRule,
    /** Asks the person; given once, at construction (ui/userPrompts.ts), so nothing can swap it afterwards. */
    private readonly confirm: ConfirmRule,
  ) {}

  /** Lets the person pick a rule choice for the request, then saves it as `save` does. */
  async pick(approval: ApprovalInfo, by: DecisionSurface): Promise<boolean> {
    const choices = ruleChoices(approval, workspaceRulesAllowed());
    const guarded = protectedNotice(protectedPathsOfSubject(approval.subject));
    if (guarded !== undefined) {
      void vscode.window.showWarningMessage(sanitizeNotificationText(guarded, 400));
      return false;
    }
    if (choices.length === 0) {
      void vscode.window.showInformationMessage(
        approval.subject === undefined
          ? 'This request does not say what it touches, so no rule can be made from it.'
          : 'This request was too long to show whole or could not be read, so no rule can be made from it: answer it on its own.',
      );
      return false;
    }
    // The daemon's own "similar" answers: the agent decides what is similar, and the editor shows no rule for it.
    const own = ownSimilarDecisions(approval);
    type Item = vscode.QuickPickItem & { readonly choice?: (typeof choices)[number]; readonly decision?: ApprovalDecision };
    const items: Item[] = [
      ...choices.map((c): Item => ({ label: `$(${c.effect === 'allow' ? 'check-all' : 'circle-slash'}) ${c.label}`, description: c.scope === 'connection' ? 'until it closes' : undefined, choice: c })),
      ...own.map((d): Item => ({ label: `$(${d === 'allow_similar' ? 'check-all' : 'circle-slash'}) ${decisionLabel(d, approval.options, approval.lasts)}`, description: "the agent's own rule (the agent decides what is similar)", decision: d })),
    ];
    const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Answer this request and others like it without asking' });
    if (pick?.decision) {
      return this.decide(approval.key, pick.decision, by);
    }
    return pick?.choice ? this.save(approval, pick.choice.effect, pick.choice.scope, by) : false;
  }

  /** Proposes the rule, shows it, saves it if confirmed and decides `approval` with it. */
  async save(approval: ApprovalInfo, effect: RuleEffect, scopeKind: RuleScopeKind, by: DecisionSurface): Promise<boolean> {
    const run = this.store.state.runs.get(approval.runKey);
    const connection = run ? this.store.state.connections.get(run.connectionId) : undefined;
    const scope = this.rules.scopeFor(approval, scopeKind);
    const decision = decisionForRule(approval, effect, true);
    const guarded = protectedNotice(protectedPathsOfSubject(approval.subject));
    if (guarded !== undefined) {
      void vscode.window.showWarningMessage(sanitizeNotificationText(guarded, 400));
      return false;
    }
    if (!subjectIsComplete(approval.subject) || !scope || !decision) {
      void vscode.window.showWarningMessage(
        scopeKind === 'workspace' && !workspaceRulesAllowed()
          ? 'Workspace approval rules are off: enable agentSwitchboard.approvals.allowWorkspaceRules first.'
          : 'No rule can be made from this request (it was cut, could not be read, or says nothing it touches).',
      );
      return false;
    }
    // Both the run's roots and the editor's: a proposal never globs over a root's top level (pathRules.ts).
    const roots = [...(run?.workspaceRoots ?? []), ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)];
    const rule = ruleFor(approval.subject, effect, scope, this.rules.newId(), Date.now(), roots);
    if (!(await this.confirm(rule, connection?.name ?? run?.connectionId ?? ''))) {
      return false;
    }
    // The person's decision is recorded (as `deciding`) before the rule exists, so the new rule does not answer
    // this request itself: it is decided as chosen here (AgencyProxy: allow_similar), the rule answers the rest.
    const decided = this.decide(approval.key, decision, by, rule.label);
    await this.rules.add(rule);
    return decided;
  }
}
