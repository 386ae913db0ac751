/**
 * The server-side prompt queue (SCV): entries with edit / move up / move down / remove, and Pause/Resume. Every
 * entry action carries the revision the user saw, so the daemon refuses it if the entry changed meanwhile.
 */
import type { RunSummary, WebviewToHost } from '../extension/protocol/webviewMessages';
import { appendChildren, button, codicon, h } from './dom';

type QueueEntry = NonNullable<RunSummary['queue']>[number];

export class QueueView {
  /** `#queue`. */
  readonly element: HTMLElement;
  private run: RunSummary | null = null;
  /** queueId → the draft being edited and the revision it started from. Survives re-renders. */
  private readonly editing = new Map<string, { text: string; revision: number }>();

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.element = h('section', { id: 'queue', class: 'queue', 'aria-label': 'Queued prompts' });
    this.element.hidden = true;
  }

  render(run: RunSummary | null): void {
    const focus = this.focusedControl();
    this.renderContent(run);
    this.restoreFocus(focus);
  }

  private renderContent(run: RunSummary | null): void {
    this.run = run;
    const queue = run?.queue;
    this.element.hidden = !run || !queue;
    this.element.replaceChildren();
    if (!run || !queue) {
      this.editing.clear();
      return;
    }
    for (const queueId of [...this.editing.keys()]) {
      if (!queue.some((entry) => entry.queueId === queueId)) {
        this.editing.delete(queueId);
      }
    }

    const paused = run.queuePaused === true;
    this.element.appendChild(
      h(
        'div',
        { class: 'queue-header' },
        codicon('list-ordered'),
        h('span', { class: 'queue-title' }, `Queue (${queue.length})`),
        paused ? h('span', { class: 'badge queue-paused' }, 'paused') : null,
        this.withId(
          button({
            label: paused ? 'Resume the queue' : 'Pause the queue',
            text: paused ? 'Resume' : 'Pause',
            icon: paused ? 'debug-continue' : 'debug-pause',
            className: 'secondary small',
            onClick: () => this.post({ type: 'queuePause', runKey: run.key, paused: !paused }),
          }),
          'queue-pause',
        ),
      ),
    );
    if (queue.length === 0) {
      return;
    }
    const list = h('ol', { class: 'queue-list' });
    queue.forEach((entry, index) => list.appendChild(this.renderEntry(run.key, queue, entry, index)));
    this.element.appendChild(list);
  }

  private renderEntry(runKey: string, queue: readonly QueueEntry[], entry: QueueEntry, index: number): HTMLLIElement {
    const li = h('li', { class: 'queue-entry', 'data-queue-id': entry.queueId, 'data-revision': entry.revision });
    const position = `queued prompt ${index + 1}`;
    const edit = this.editing.get(entry.queueId);
    if (edit) {
      const textarea = h('textarea', { class: 'queue-edit-input', rows: 3, 'aria-label': `Edit ${position}` });
      textarea.value = edit.text;
      textarea.addEventListener('input', () => {
        edit.text = textarea.value;
      });
      const save = (): void => {
        this.editing.delete(entry.queueId);
        this.post({ type: 'queueEdit', runKey, queueId: entry.queueId, revision: edit.revision, prompt: textarea.value });
        this.render(this.run);
      };
      const cancel = (): void => {
        this.editing.delete(entry.queueId);
        this.render(this.run);
      };
      textarea.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          save();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          cancel();
        }
      });
      appendChildren(li, [
        textarea,
        h(
          'div',
          { class: 'queue-entry-actions' },
          button({ label: `Save ${position}`, text: 'Save', icon: 'check', className: 'primary small queue-save', onClick: save }),
          button({ label: `Cancel editing ${position}`, text: 'Cancel', className: 'secondary small queue-cancel', onClick: cancel }),
        ),
      ]);
      queueMicrotask(() => {
        if (li.isConnected && document.activeElement !== textarea) {
          textarea.focus();
        }
      });
      return li;
    }

    const before = index > 0 ? queue[index - 1] : undefined;
    const afterNext = index + 2 < queue.length ? queue[index + 2] : undefined;
    const up = button({
      label: `Move ${position} up`,
      icon: 'arrow-up',
      className: 'queue-up',
      onClick: () => {
        if (before) {
          this.post({ type: 'queueMove', runKey, queueId: entry.queueId, revision: entry.revision, beforeQueueId: before.queueId });
        }
      },
    });
    up.disabled = !before;
    const down = button({
      label: `Move ${position} down`,
      icon: 'arrow-down',
      className: 'queue-down',
      onClick: () => {
        if (index < queue.length - 1) {
          this.post({ type: 'queueMove', runKey, queueId: entry.queueId, revision: entry.revision, beforeQueueId: afterNext?.queueId ?? null });
        }
      },
    });
    down.disabled = index >= queue.length - 1;
    appendChildren(li, [
      h('div', { class: 'queue-prompt', title: entry.prompt }, entry.prompt),
      entry.submitter ? h('div', { class: 'queue-submitter' }, entry.submitter) : null,
      h(
        'div',
        { class: 'queue-entry-actions' },
        button({
          label: `Edit ${position}`,
          icon: 'edit',
          className: 'queue-edit',
          onClick: () => {
            this.editing.set(entry.queueId, { text: entry.prompt, revision: entry.revision });
            this.render(this.run);
          },
        }),
        up,
        down,
        button({
          label: `Remove ${position}`,
          icon: 'trash',
          className: 'queue-remove',
          onClick: () => this.post({ type: 'queueRemove', runKey, queueId: entry.queueId, revision: entry.revision }),
        }),
      ),
    ]);
    return li;
  }

  /** Which control has focus (entry + action class), so a re-render does not throw keyboard users out. */
  private focusedControl(): { queueId: string | null; action: string } | null {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !this.element.contains(active)) {
      return null;
    }
    const action = [...active.classList].find((name) => name.startsWith('queue-')) ?? active.id;
    return { queueId: active.closest('li')?.dataset['queueId'] ?? null, action };
  }

  private restoreFocus(focus: { queueId: string | null; action: string } | null): void {
    if (!focus) {
      return;
    }
    const scope = focus.queueId === null ? this.element : [...this.element.querySelectorAll('li')].find((li) => li.dataset['queueId'] === focus.queueId);
    const candidates = [...(scope ?? this.element).querySelectorAll<HTMLElement>('button, textarea')];
    const target = candidates.find((el) => !(el as HTMLButtonElement).disabled && (el.classList.contains(focus.action) || el.id === focus.action))
      ?? candidates.find((el) => !(el as HTMLButtonElement).disabled);
    target?.focus();
  }

  private withId(el: HTMLButtonElement, id: string): HTMLButtonElement {
    el.id = id;
    return el;
  }
}
