/**
 * An approval card: what is asked (title, summary, risk, detail) and one button per decision the daemon understands.
 * Once decided or expired the buttons are disabled and the outcome is shown. A click disables the buttons at once
 * so a decision cannot be sent twice; the host's `update` patch then renders the outcome.
 */
import type { ApprovalDecision, TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { button, codicon, h } from '../dom';
import { countNewlines, prettyJson } from '../jsonText';
import { itemShell } from './itemShell';
import { bindDetails } from './renderContext';
import type { ItemView, RenderContext } from './renderContext';

type ApprovalItem = Extract<TranscriptItem, { kind: 'approval' }>;

const DECISIONS: Record<ApprovalDecision, { text: string; icon: string; className: string; outcome: string }> = {
  allow_once: { text: 'Allow once', icon: 'check', className: 'primary', outcome: 'Allowed once' },
  allow_similar: { text: 'Allow similar', icon: 'check-all', className: 'secondary', outcome: 'Allowed (and similar requests)' },
  deny: { text: 'Deny', icon: 'close', className: 'secondary danger', outcome: 'Denied' },
};
const KNOWN_RISKS = new Set(['low', 'medium', 'high', 'critical']);
/** If the host has not updated the card this long after a click, the buttons come back (the send may have failed). */
const RETRY_AFTER_MS = 10_000;

export function approvalView(initial: ApprovalItem, ctx: RenderContext): ItemView {
  const element = itemShell(initial);
  // Focusable by script only, so focus can stay on the card while its buttons are disabled or re-rendered.
  element.tabIndex = -1;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const render = (item: ApprovalItem): void => {
    clearTimeout(retryTimer);
    const hadFocus = element.contains(document.activeElement);
    element.className = `item item-approval approval-${item.status}`;
    const card = h('div', { class: 'card approval-card' });
    element.replaceChildren(card);
    element.setAttribute('aria-label', `Approval: ${item.title}`);
    const risk = item.risk?.toLowerCase();
    card.appendChild(
      h(
        'div',
        { class: 'approval-header' },
        codicon(item.status === 'pending' ? 'shield' : 'workspace-trusted'),
        h('span', { class: 'approval-title' }, item.title),
        item.risk ? h('span', { class: `badge risk risk-${risk && KNOWN_RISKS.has(risk) ? risk : 'other'}` }, `risk: ${item.risk}`) : null,
      ),
    );
    if (item.summary) {
      card.appendChild(h('div', { class: 'approval-summary' }, item.summary));
    }
    if (item.detail !== undefined && item.detail !== null) {
      const text = prettyJson(item.detail);
      const details = h('details', { class: 'approval-detail' }, h('summary', null, 'Details'), h('pre', { class: 'json' }, text));
      bindDetails(details, ctx, `detail:${item.id}`, item.status === 'pending' && countNewlines(text) < 30);
      card.appendChild(details);
    }

    const actions = h('div', { class: 'approval-actions', role: 'group', 'aria-label': 'Decision' });
    const decisionButtons: HTMLButtonElement[] = [];
    for (const decision of item.options) {
      const spec = DECISIONS[decision];
      const el = button({
        label: `${spec.text}: ${item.title}`,
        text: spec.text,
        icon: spec.icon,
        className: `${spec.className} approval-decide`,
        onClick: () => {
          const runKey = ctx.runKey();
          if (!runKey) {
            return;
          }
          for (const b of decisionButtons) {
            b.disabled = true;
          }
          element.focus();
          sending.hidden = false;
          ctx.post({ type: 'decide', runKey, approvalId: item.approvalId, decision });
          retryTimer = setTimeout(() => render(item), RETRY_AFTER_MS);
        },
      });
      el.dataset['decision'] = decision;
      el.disabled = item.status !== 'pending';
      if (item.status === 'decided' && item.decision === decision) {
        el.classList.add('chosen');
        el.setAttribute('aria-pressed', 'true');
      }
      decisionButtons.push(el);
      actions.appendChild(el);
    }
    if (item.hasDiff) {
      actions.appendChild(
        button({
          label: `Show diff: ${item.title}`,
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
    const sending = h('div', { class: 'approval-sending', role: 'status' }, codicon('loading', 'codicon-modifier-spin'), ' Sending decision…');
    sending.hidden = true;
    if (actions.childElementCount > 0) {
      card.appendChild(actions);
    }

    const outcome =
      item.status === 'decided'
        ? item.decision
          ? DECISIONS[item.decision].outcome
          : 'Decided'
        : item.status === 'expired'
          ? 'Expired without a decision'
          : item.options.length === 0
            ? 'Waiting for a decision elsewhere'
            : null;
    if (outcome) {
      card.appendChild(
        h(
          'div',
          { class: `approval-outcome${item.decision === 'deny' ? ' denied' : ''}` },
          codicon(item.status === 'expired' ? 'clock' : item.decision === 'deny' ? 'circle-slash' : item.status === 'decided' ? 'pass' : 'info'),
          ` ${outcome}`,
        ),
      );
    }
    card.appendChild(sending);
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
    dispose() {
      clearTimeout(retryTimer);
    },
  };
}
