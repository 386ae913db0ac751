/**
 * Which rule choices a request offers, their words, and which of the daemon's decisions carries them. Pure (no
 * `vscode`). A rule's scope is the editor's: the daemon is sent a decision that grants no more than this request,
 * unless the driver says otherwise (`saveRuleAs`: AgencyProxy's `allow_similar`, which its 0.3 daemon treats as
 * once). ACP's `allow_always`/`reject_always` are the agent's own rules, scoped by the agent: separate choices.
 */
import type { RuleEffect, RuleScopeKind } from '../../model/approvalRules';
import type { ApprovalInfo } from '../../model/modelTypes';
import type { ApprovalDecision } from '../../protocol/transcriptTypes';
import { isProtectedSubject } from '../../model/pathRules';
import { isAllowing, subjectIsComplete } from '../../protocol/transcriptTypes';

export interface RuleChoice {
  readonly effect: RuleEffect;
  readonly scope: RuleScopeKind;
  readonly label: string;
}

const SCOPE_WORDS: Record<RuleScopeKind, string> = { run: 'this run', connection: 'this connection', workspace: 'this workspace' };

export function ruleChoiceLabel(effect: RuleEffect, scope: RuleScopeKind): string {
  return `${effect === 'allow' ? 'Allow' : 'Deny'} similar for ${SCOPE_WORDS[scope]}`;
}

/**
 * The rule choices for `approval`: none without a whole subject (a request cut to a bound or not readable is
 * answered on its own) or for one naming a protected path (a person decides each such request); deny rules only
 * where the daemon can deny.
 */
export function ruleChoices(approval: Pick<ApprovalInfo, 'subject' | 'options'>, workspaceAllowed: boolean): RuleChoice[] {
  if (!subjectIsComplete(approval.subject) || isProtectedSubject(approval.subject)) {
    return [];
  }
  const scopes: RuleScopeKind[] = workspaceAllowed ? ['run', 'connection', 'workspace'] : ['run', 'connection'];
  const effects: RuleEffect[] = [];
  if (approval.options.some(isAllowing)) {
    effects.push('allow');
  }
  if (approval.options.some((o) => !isAllowing(o))) {
    effects.push('deny');
  }
  return effects.flatMap((effect) => scopes.map((scope) => ({ effect, scope, label: ruleChoiceLabel(effect, scope) })));
}

/**
 * The decision sent for a request under a rule of `effect`: `saving` = a person just saved the rule from this
 * request (then the driver's `saveRuleAs` applies); otherwise the rule answers a later request, once.
 */
export function decisionForRule(approval: Pick<ApprovalInfo, 'options' | 'saveRuleAs'>, effect: RuleEffect, saving: boolean): ApprovalDecision | undefined {
  const { options, saveRuleAs } = approval;
  const prefer: ApprovalDecision[] =
    effect === 'deny' ? ['deny', 'deny_always'] : saving && saveRuleAs !== undefined && isAllowing(saveRuleAs) ? [saveRuleAs, 'allow_once'] : ['allow_once', 'allow_similar'];
  return prefer.find((d) => options.includes(d));
}

/**
 * The daemon's own "similar" answers worth offering apart from rules (not the one a saved rule sends anyway), and
 * none for a request whose subject is not whole.
 */
export function ownSimilarDecisions(approval: Pick<ApprovalInfo, 'options' | 'saveRuleAs' | 'subject'>): ApprovalDecision[] {
  if (approval.subject !== undefined && !subjectIsComplete(approval.subject)) {
    return [];
  }
  return approval.options.filter((o) => (o === 'allow_similar' || o === 'deny_always') && o !== approval.saveRuleAs);
}
