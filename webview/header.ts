/** The run header: title, state with icon, provider/model, connection, pending approvals and the change set. */
import type { RunSummary } from '../extension/protocol/webviewMessages';
import { button, codicon, h, replaceChildren } from './dom';
import { stateDisplay } from './runStateDisplay';

export interface HeaderActions {
  readonly showChangeSet: (runKey: string) => void;
  /** A daemon's own action (Continue in a New Run, Recover, …), by command id. */
  readonly daemonAction: (runKey: string, command: string) => void;
  /** Scroll to the first pending approval. */
  readonly revealPendingApproval: () => void;
}

export class Header {
  /** `#run-header`. */
  readonly element: HTMLElement;

  constructor(private readonly actions: HeaderActions) {
    this.element = h('header', { id: 'run-header', class: 'run-header' });
    this.element.hidden = true;
  }

  render(run: RunSummary | null): void {
    this.element.hidden = run === null;
    if (!run) {
      this.element.replaceChildren();
      return;
    }
    // The run's look, not its bare state: a completed run whose change set was refused is not "Completed" here either.
    const state = stateDisplay(run);
    const stateIcon = codicon(state.icon, 'run-state-icon', `state-${run.state}`, ...state.extra);
    const model = [run.provider, run.model].filter(Boolean).join(' / ');
    const approvals =
      run.pendingApprovals > 0
        ? button({
            label: `${run.pendingApprovals} pending approval${run.pendingApprovals === 1 ? '' : 's'} — show`,
            text: String(run.pendingApprovals),
            icon: 'shield',
            className: 'approvals-badge',
            onClick: () => this.actions.revealPendingApproval(),
          })
        : null;
    if (approvals) {
      approvals.id = 'run-approvals';
    }
    const changeSet = run.actions.changeSet
      ? button({ label: 'Show change set', icon: 'diff-multiple', className: 'header-action', onClick: () => this.actions.showChangeSet(run.key) })
      : null;
    if (changeSet) {
      changeSet.id = 'run-change-set';
    }
    const daemonButtons = (run.daemonActions ?? []).map((a) =>
      button({ label: a.title, icon: a.icon ?? 'play', className: 'header-action daemon-action', onClick: () => this.actions.daemonAction(run.key, a.command) }),
    );

    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'run-title-row' },
        stateIcon,
        h('h1', { id: 'run-title', class: 'run-title', title: run.title }, run.title || run.runId),
        approvals,
        ...daemonButtons,
        changeSet,
      ),
      h(
        'div',
        { class: 'run-meta' },
        h(
          'span',
          { id: 'run-state', class: `run-state state-${run.state}`, ...(run.changeSetRefused !== undefined ? { title: `Change set refused: ${run.changeSetRefused}` } : {}) },
          run.stateDetail ? `${state.label} · ${run.stateDetail}` : state.label,
        ),
        model ? h('span', { id: 'run-model', class: 'run-model' }, model) : null,
        // Replaced in place with each report (Claude Code sends several a turn): never a transcript row.
        run.usage ? h('span', { id: 'run-usage', class: 'run-usage', title: run.usage.long, 'aria-label': run.usage.long }, run.usage.short) : null,
        run.parentTitle !== undefined ? h('span', { id: 'run-parent', class: 'run-parent', title: `A subagent of "${run.parentTitle}"` }, `↳ ${run.parentTitle}`) : null,
        h('span', { class: 'run-connection', title: `${run.connectionName} (${run.protocol}) · ${run.runId}` }, run.connectionName),
      ),
    );
  }
}
