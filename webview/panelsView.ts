/**
 * Daemon-owned side panels above the transcript (hyperhive loose ends and reminders, SCV background jobs, a change
 * set's files): one collapsible section per panel, entries with an icon, label, description, optional raw JSON
 * for shapes the extension does not know, and action buttons. Everything is text nodes (agent data is untrusted).
 * Which sections are open is UI intent and survives re-renders.
 */
import type { Panel, RunSummary, WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, codicon, h } from './dom';
import { prettyJson } from './jsonText';

/** Codicon names are our own vocabulary, but they arrive in a message: keep them to the safe alphabet. */
function safeIcon(name: string | undefined): string {
  return name && /^[a-z0-9-]{1,40}$/.test(name) ? name : 'circle-small';
}

export class PanelsView {
  /** `#panels`. */
  readonly element: HTMLElement;
  private readonly closed = new Set<string>();

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.element = h('section', { id: 'panels', class: 'panels', 'aria-label': 'Run details' });
    this.element.hidden = true;
  }

  render(run: RunSummary | null): void {
    const panels = run?.panels ?? [];
    this.element.hidden = !run || panels.length === 0;
    this.element.replaceChildren();
    if (!run) {
      return;
    }
    for (const panel of panels) {
      this.element.appendChild(this.renderPanel(run.key, panel));
    }
  }

  private renderPanel(runKey: string, panel: Panel): HTMLElement {
    const details = h('details', { class: 'panel', 'data-panel-id': panel.id, open: !this.closed.has(panel.id) });
    details.addEventListener('toggle', () => {
      if (details.open) {
        this.closed.delete(panel.id);
      } else {
        this.closed.add(panel.id);
      }
    });
    const error = panel.tone === 'error';
    details.appendChild(
      h(
        'summary',
        { class: error ? 'panel-title panel-title-error' : 'panel-title' },
        error ? codicon('error') : null,
        h('span', null, panel.title),
        error ? h('span', { class: 'badge badge-error panel-count' }, 'Error') : h('span', { class: 'badge panel-count' }, String(panel.count ?? panel.entries.length)),
      ),
    );
    if (panel.entries.length === 0) {
      details.appendChild(h('p', error ? { class: 'panel-empty panel-error', role: 'alert' } : { class: 'panel-empty' }, panel.emptyText ?? 'Nothing here.'));
      return details;
    }
    const list = h('ul', { class: 'panel-list' });
    for (const entry of panel.entries) {
      const li = h(
        'li',
        { class: 'panel-entry', 'data-entry-id': entry.id },
        codicon(safeIcon(entry.icon)),
        h(
          'div',
          { class: 'panel-entry-main' },
          h('span', { class: 'panel-entry-label' }, entry.label),
          entry.description ? h('span', { class: 'panel-entry-description' }, entry.description) : null,
          entry.raw !== undefined ? h('details', { class: 'panel-entry-raw' }, h('summary', null, 'Raw'), h('pre', null, prettyJson(entry.raw))) : null,
        ),
      );
      if (entry.actions.length > 0) {
        const actions = h('div', { class: 'panel-entry-actions' });
        for (const action of entry.actions) {
          const b = button({
            label: `${action.label}: ${entry.label}`,
            text: action.label,
            className: 'secondary small panel-action',
            onClick: () => this.post({ type: 'panelAction', runKey, panelId: panel.id, entryId: entry.id, actionId: action.id }),
          });
          b.setAttribute('data-action-id', action.id);
          if (action.hint) {
            b.title = action.hint;
          }
          actions.appendChild(b);
        }
        li.appendChild(actions);
      }
      list.appendChild(li);
    }
    details.appendChild(list);
    return details;
  }
}
