/**
 * The files of a change set: status badge, name, folder, +/− counts, a button that scrolls the diff to the file and
 * one that opens it in VS Code's diff editor. Virtualized too (a change set may touch thousands of files); Up/Down
 * move between files.
 */
import type { ChangeSetFileView } from '../extension/protocol/webviewMessages';
import { button, h } from './dom';
import { authorView, countsView, fileDescription, fileLabel, splitPath, statusBadge } from './changeSetLabels';
import { VirtualList } from './virtualList';

const ROW_HEIGHT = 24;

export interface ChangeSetFileListActions {
  /** Scroll the diff to file `index` (into the shown files). */
  readonly reveal: (index: number) => void;
  /** Open file `index` in the diff editor. */
  readonly open: (index: number) => void;
}

export class ChangeSetFileList {
  /** `#cs-files`: the scroller. */
  readonly element: HTMLDivElement;
  private readonly list: VirtualList;
  private files: readonly ChangeSetFileView[] = [];

  constructor(
    private readonly actions: ChangeSetFileListActions,
    requestFrame: () => void,
  ) {
    this.element = h('div', { id: 'cs-files', class: 'cs-files', tabindex: '-1' });
    this.list = new VirtualList(this.element, { mount: (index) => this.mount(index), unmount: () => {}, estimate: () => ROW_HEIGHT }, requestFrame);
    this.list.windowEl.setAttribute('role', 'list');
    this.list.windowEl.setAttribute('aria-label', 'Changed files');
  }

  show(files: readonly ChangeSetFileView[]): void {
    this.files = files;
    this.list.reset(files.length, { pinned: false, anchorIndex: 0, anchorDelta: 0 });
  }

  layout(): void {
    this.list.layout();
  }

  /** Focuses the first file's "show in diff" button. */
  focusFirst(): void {
    this.link(0)?.focus();
  }

  private link(index: number): HTMLButtonElement | null {
    return this.list.row(index)?.querySelector<HTMLButtonElement>('.cs-file-link') ?? null;
  }

  private mount(index: number): HTMLElement {
    const file = this.files[index];
    if (!file) {
      return h('div', { class: 'cs-file-entry' });
    }
    const { name, dir } = splitPath(file.path);
    const label = fileLabel(file);
    const detail = file.oldPath !== undefined ? `${dir ? `${dir} · ` : ''}from ${file.oldPath}` : dir;
    const link = h(
      'button',
      { type: 'button', class: 'cs-file-link', title: label, 'aria-label': `Show in the diff: ${fileDescription(file)}` },
      statusBadge(file),
      h('span', { class: 'cs-file-name' }, name),
      detail ? h('span', { class: 'cs-file-dir' }, detail) : null,
      authorView(file),
      countsView(file),
    );
    link.addEventListener('click', () => this.actions.reveal(index));
    link.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
      const next = step === 0 ? null : this.link(index + step);
      if (next) {
        event.preventDefault();
        next.focus();
      }
    });
    const open = button({ label: `Open ${label} in the diff editor`, icon: 'diff-single', className: 'cs-open-file', onClick: () => this.actions.open(index) });
    return h('div', { class: 'cs-file-entry', role: 'listitem', 'data-file-index': file.index }, link, open);
  }
}
