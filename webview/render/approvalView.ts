/**
 * An approval card: what is asked (title, summary, risk, detail) and one button per decision the daemon understands.
 * It is a pure projection of the item's lifecycle state (the host's model owns it): `pending`/`failed` offer the
 * buttons (with why the last attempt failed), `deciding` shows the chosen decision being sent, `decided` says what
 * was decided and where, `expired` says why no decision can be made. No timers: a click only posts `decide`; the
 * host records the choice before it sends it and patches the card (a second click meanwhile is refused there).
 */
import type { ApprovalDecision, TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { DECISION_OUTCOMES, DECISION_SURFACE_LABELS, decisionLabel, isAllowing, shownDecisions, subjectIsComplete } from '../../extension/protocol/transcriptTypes';
import { visibleExcerpt, visibleText } from '../../extension/protocol/visibleText';
import { button, codicon, h } from '../dom';
import { countNewlines, prettyJson } from '../jsonText';
import { itemShell } from './itemShell';
import { bindDetails } from './renderContext';
import type { ItemView, RenderContext } from './renderContext';

type ApprovalItem = Extract<TranscriptItem, { kind: 'approval' }>;

const DECISIONS: Record<ApprovalDecision, { icon: string; className: string }> = {
  allow_once: { icon: 'check', className: 'primary' },
  allow_similar: { icon: 'check-all', className: 'secondary' },
  deny: { icon: 'close', className: 'secondary danger' },
  deny_always: { icon: 'circle-slash', className: 'secondary danger' },
};
const KNOWN_RISKS = new Set(['low', 'medium', 'high', 'critical']);

/** The rule buttons a card with a subject offers beside its decisions; "More…" lets the host list the rest. */
const RULE_BUTTONS: readonly { readonly rule: 'allow:run' | 'allow:connection' | 'more'; readonly text: string; readonly icon: string }[] = [
  { rule: 'allow:run', text: 'Allow similar for this run', icon: 'check-all' },
  { rule: 'allow:connection', text: 'Allow similar for this connection', icon: 'check-all' },
  { rule: 'more', text: 'More…', icon: 'ellipsis' },
];

/** Who decided, and by which rule: "by the approval rule "Allow Edit …"" or "from the transcript · saved rule: …". */
function decidedByText(item: ApprovalItem): string {
  const by = item.decidedBy ? ` ${DECISION_SURFACE_LABELS[item.decidedBy]}` : '';
  if (item.decidedByRule === undefined) {
    return by;
  }
  // A rule's label can hold a whole command: hidden characters shown, a long one cut in its middle.
  const rule = visibleExcerpt(item.decidedByRule, 300);
  return item.decidedBy === 'rule' ? ` by the approval rule "${rule}"` : `${by} · saved the rule "${rule}"`;
}

/** The outcome line of a card that is no longer simply waiting, or null. */
function outcomeOf(item: ApprovalItem): { text: string; icon: string; className: string } | null {
  const by = decidedByText(item);
  const chosen = item.decision ? DECISION_OUTCOMES[item.decision] : 'Decided';
  switch (item.status) {
    case 'decided':
      return { text: `${chosen}${by}`, icon: isAllowing(item.decision ?? 'allow_once') ? 'pass' : 'circle-slash', className: isAllowing(item.decision ?? 'allow_once') ? '' : ' denied' };
    case 'deciding':
      return { text: `Sending: ${chosen}${by}…`, icon: 'loading', className: ' sending' };
    case 'expired':
      return { text: `Expired without a decision${item.reason ? `: ${visibleText(item.reason)}` : ''}`, icon: 'clock', className: '' };
    case 'failed':
      return { text: `Not delivered${item.reason ? `: ${visibleText(item.reason)}` : ''}. Still waiting for your decision.`, icon: 'warning', className: ' failed' };
    case 'pending':
      return item.options.length === 0 ? { text: 'Waiting for a decision elsewhere', icon: 'info', className: '' } : null;
    default: {
      const _exhaustive: never = item.status;
      return _exhaustive;
    }
  }
}

export function approvalView(initial: ApprovalItem, ctx: RenderContext): ItemView {
  const element = itemShell(initial);
  // Focusable by script only, so focus can stay on the card while its buttons are disabled or re-rendered.
  element.tabIndex = -1;
  const render = (item: ApprovalItem): void => {
    const hadFocus = element.contains(document.activeElement);
    element.className = `item item-approval approval-${item.status}`;
    const card = h('div', { class: 'card approval-card' });
    element.replaceChildren(card);
    // What the agent asks is shown as it is: bidi controls, zero-width and control characters become visible
    // escapes (the DOM already escapes markup; this keeps the text from hiding or reordering what runs).
    const title = visibleText(item.title);
    element.setAttribute('aria-label', `Approval: ${title}`);
    const risk = item.risk?.toLowerCase();
    card.appendChild(
      h(
        'div',
        { class: 'approval-header' },
        codicon(item.status === 'pending' || item.status === 'failed' ? 'shield' : 'workspace-trusted'),
        h('span', { class: 'approval-title' }, title),
        item.risk ? h('span', { class: `badge risk risk-${risk && KNOWN_RISKS.has(risk) ? risk : 'other'}` }, `risk: ${item.risk}`) : null,
      ),
    );
    if (item.summary) {
      card.appendChild(h('div', { class: 'approval-summary' }, visibleText(item.summary, 'keep')));
    }
    if (item.detail !== undefined && item.detail !== null) {
      const text = visibleText(prettyJson(item.detail), 'keep');
      const details = h('details', { class: 'approval-detail' }, h('summary', null, 'Details'), h('pre', { class: 'json' }, text));
      bindDetails(details, ctx, `detail:${item.id}`, (item.status === 'pending' || item.status === 'failed') && countNewlines(text) < 30);
      card.appendChild(details);
    }

    const actions = h('div', { class: 'approval-actions', role: 'group', 'aria-label': 'Decision' });
    const decisionButtons: HTMLButtonElement[] = [];
    const open = item.status === 'pending' || item.status === 'failed';
    // A protected path (.vscode, .git, a workspace file) is decided by a person, each time: no rule, and not the
    // agent's own "always allow" either. The card says so.
    const guarded = item.protectedNotice;
    // With a subject, rules replace the daemon's own "similar" buttons (they stay under More…).
    // Only a whole subject offers rules: a request cut or unreadable offers nothing "similar" (shownDecisions).
    const withRules = guarded === undefined && subjectIsComplete(item.subject) && item.options.some((o) => isAllowing(o));
    const shown = shownDecisions(item.options, item.subject, withRules, guarded !== undefined);
    const ruleButton = (spec: (typeof RULE_BUTTONS)[number]): HTMLButtonElement => {
      const el = button({
        label: `${spec.text}: ${title}`,
        text: spec.text,
        icon: spec.icon,
        className: 'secondary approval-rule',
        onClick: () => {
          const runKey = ctx.runKey();
          if (runKey) {
            element.focus();
            const [effect, scope] = spec.rule === 'more' ? (['allow', 'more'] as const) : (spec.rule.split(':') as ['allow', 'run' | 'connection']);
            ctx.post({ type: 'decideRule', runKey, approvalId: item.approvalId, effect, scope });
          }
        },
      });
      el.dataset['rule'] = spec.rule;
      el.disabled = !open;
      decisionButtons.push(el);
      return el;
    };
    for (const decision of shown) {
      if (withRules && !isAllowing(decision)) {
        // Allow once, the allow rules, then Deny: the safe answers first, denial apart.
        for (const spec of RULE_BUTTONS.filter((b) => b.rule !== 'more')) {
          actions.appendChild(ruleButton(spec));
        }
      }
      const spec = DECISIONS[decision];
      const text = withRules && decision === 'allow_once' ? 'Allow once' : decisionLabel(decision, item.options, item.lasts);
      const el = button({
        label: `${text}: ${title}`,
        text,
        icon: spec.icon,
        className: `${spec.className} approval-decide`,
        onClick: () => {
          const runKey = ctx.runKey();
          if (runKey) {
            element.focus();
            ctx.post({ type: 'decide', runKey, approvalId: item.approvalId, decision });
          }
        },
      });
      el.dataset['decision'] = decision;
      el.disabled = item.status !== 'pending' && item.status !== 'failed';
      if ((item.status === 'decided' || item.status === 'deciding') && item.decision === decision) {
        el.classList.add('chosen');
        el.setAttribute('aria-pressed', 'true');
      }
      decisionButtons.push(el);
      actions.appendChild(el);
    }
    if (withRules) {
      if (!actions.querySelector('[data-rule="allow:run"]')) {
        for (const spec of RULE_BUTTONS.filter((b) => b.rule !== 'more')) {
          actions.appendChild(ruleButton(spec));
        }
      }
      actions.appendChild(ruleButton(RULE_BUTTONS[2]!));
    }
    if (item.hasDiff) {
      actions.appendChild(
        button({
          label: `Show diff: ${title}`,
          text: 'Show diff',
          icon: 'diff',
          className: 'secondary approval-show-diff',
          onClick: () => {
            const runKey = ctx.runKey();
            if (runKey) {
              ctx.post({ type: 'showDiff', runKey, approvalId: item.approvalId });
            }
          },
        }),
      );
    }
    if (actions.childElementCount > 0) {
      card.appendChild(actions);
    }
    if (guarded !== undefined && open) {
      card.appendChild(h('div', { class: 'approval-protected-note' }, codicon('warning'), ` ${guarded}`));
    }
    if (withRules && open && item.ruleNote) {
      card.appendChild(h('div', { class: 'approval-rule-note' }, codicon('info'), ` ${item.ruleNote}`));
    }
    const outcome = outcomeOf(item);
    if (outcome) {
      card.appendChild(
        h(
          'div',
          { class: `approval-outcome${outcome.className}`, role: 'status' },
          ...(outcome.icon === 'loading' ? [codicon('loading', 'codicon-modifier-spin')] : [codicon(outcome.icon)]),
          ` ${outcome.text}`,
        ),
      );
    }
    if (hadFocus) {
      (decisionButtons.find((b) => !b.disabled) ?? element).focus();
    }
  };
  render(initial);

  return {
    element,
    update(item) {
      if (item.kind === 'approval') {
        render(item);
      }
    },
    append() {},
    dispose() {},
  };
}
