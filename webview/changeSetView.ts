/**
 * A run's change set shown in place of the transcript: a toolbar (Back to transcript, the totals, Open all
 * changes), the file list and the rendered diff. Opened by the host's `changeSet` message; closed locally by Back
 * or Escape (the host keeps nothing open, so there is nothing to tell it). "Open in diff editor" and "Open all
 * changes" ask the host for VS Code's native diff editors.
 */
import type { ChangeSetMessage, HostToWebview, WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, codicon, h, replaceChildren } from './dom';
import { ChangeSetDiff } from './changeSetDiff';
import { ChangeSetFileList } from './changeSetFileList';
import { ChangeSetNotes } from './changeSetNotes';
import { byOtherRun, totalsText } from './changeSetLabels';
import { ChangeSetReviewControls } from './changeSetReview';
import type { ChangeSetReview } from '../extension/protocol/webviewMessages';

export interface ChangeSetViewDeps {
  readonly post: (message: WebviewToHost) => void;
  readonly requestFrame: () => void;
  /** Back to the transcript (Back button or Escape). */
  readonly onClose: () => void;
}

export class ChangeSetView {
  /** `#change-set`. */
  readonly element: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly filesSection: HTMLDetailsElement;
  private readonly filesCount: HTMLElement;
  private readonly fileList: ChangeSetFileList;
  private readonly diff: ChangeSetDiff;
  private readonly notes: ChangeSetNotes;
  private readonly review: ChangeSetReviewControls;
  /** "2 of 5 hunks reviewed" (read out when it changes). */
  private readonly reviewSummary: HTMLElement;
  private message: ChangeSetMessage | null = null;
  /** "Other runs' edits": whether files another run reported are listed (issue #26; on by default). */
  private readonly othersToggle: HTMLInputElement;
  private readonly othersLabel: HTMLLabelElement;

  constructor(private readonly deps: ChangeSetViewDeps) {
    this.fileList = new ChangeSetFileList(
      {
        reveal: (index) => {
          this.diff.revealFile(index);
          this.diff.element.focus({ preventScroll: true });
        },
        open: (index) => this.openFile(index),
      },
      deps.requestFrame,
    );
    this.diff = new ChangeSetDiff(
      { openFile: (index) => this.openFile(index), decorate: (index, row, el) => this.notes.decorate(index, row, el), review: () => this.review },
      deps.requestFrame,
    );
    this.notes = this.notesOf(this.diff);
    this.reviewSummary = h('span', { id: 'cs-review-summary', class: 'cs-review-summary', 'aria-live': 'polite' });
    this.review = new ChangeSetReviewControls(this.diff.element, {
      post: deps.post,
      onChange: () => {
        const text = this.review.summaryText();
        this.reviewSummary.textContent = text;
        this.reviewSummary.hidden = text === '';
      },
    });

    const back = button({ label: 'Back to transcript (Escape)', text: 'Transcript', icon: 'arrow-left', className: 'cs-back', onClick: () => deps.onClose() });
    back.id = 'cs-back';
    const openAll = button({
      label: 'Open all changes in the diff editor',
      text: 'Open all changes',
      icon: 'diff-multiple',
      className: 'cs-open-all',
      onClick: () => {
        if (this.message) {
          deps.post({ type: 'openAllChanges', runKey: this.message.runKey });
        }
      },
    });
    openAll.id = 'cs-open-all';
    this.othersToggle = h('input', { type: 'checkbox', id: 'cs-others-toggle', checked: true });
    this.othersToggle.addEventListener('change', () => this.showFiles());
    this.othersLabel = h('label', { id: 'cs-others', class: 'cs-others', title: 'Files another run reported editing in the same folder while this run worked' }, this.othersToggle, h('span', null, ''));
    this.heading = h('h2', { id: 'cs-title', class: 'cs-title' }, 'Change set');
    this.summary = h('span', { id: 'cs-summary', class: 'cs-summary' });
    this.filesCount = h('span', { class: 'badge' });
    this.filesSection = h(
      'details',
      { class: 'cs-files-section', open: true },
      h('summary', { class: 'cs-files-summary' }, codicon('chevron-right', 'cs-chevron'), h('span', null, 'Files'), this.filesCount),
      this.fileList.element,
    );
    this.filesSection.addEventListener('toggle', () => deps.requestFrame());

    this.element = h(
      'section',
      { id: 'change-set', class: 'change-set', 'aria-label': 'Change set' },
      h('div', { class: 'cs-toolbar' }, back, h('div', { class: 'cs-heading' }, this.heading, this.summary, this.reviewSummary, this.othersLabel), openAll),
      this.filesSection,
      // The frame draws the diff's focus ring above its sticky gutter (an outline of the scroller would be under it).
      h('div', { class: 'cs-diff-frame' }, this.diff.element),
      this.notes.bar,
    );
    this.element.hidden = true;
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        deps.onClose();
      }
    });
  }

  get isOpen(): boolean {
    return this.message !== null;
  }

  /** The run whose change set is shown, or null. */
  get runKey(): string | null {
    return this.message?.runKey ?? null;
  }

  open(message: ChangeSetMessage): void {
    this.message = message;
    this.element.hidden = false;
    this.element.setAttribute('aria-label', `Change set of ${message.title}`);
    replaceChildren(this.heading, 'Change set', message.source === 'local' ? h('span', { class: 'cs-source' }, ' (computed locally)') : null);
    const others = message.files.filter(byOtherRun).length;
    this.othersLabel.hidden = others === 0;
    this.othersToggle.checked = true;
    this.othersLabel.lastElementChild!.textContent = ` Other runs' edits (${others})`;
    this.showFiles();
    this.notes.reset(message.runKey);
    if (message.refresh !== true) {
      this.diff.element.focus({ preventScroll: true });
    }
  }

  /** The host's review marks of the shown change set changed. */
  updateReview(runKey: string, review: ChangeSetReview): void {
    if (this.message?.runKey === runKey) {
      this.message = { ...this.message, review };
      this.review.update(review);
    }
  }

  /** The files shown: all, or without other runs' reported edits when the toggle says so. */
  private showFiles(): void {
    const message = this.message;
    if (!message) {
      return;
    }
    const files = this.othersToggle.checked ? message.files : message.files.filter((f) => !byOtherRun(f));
    const hidden = message.files.length - files.length;
    const totals = files.length === 0 ? 'No files changed' : totalsText(files);
    this.summary.textContent = hidden > 0 ? `${totals} · ${hidden} by other runs hidden` : totals;
    this.filesCount.textContent = String(files.length);
    this.filesSection.hidden = files.length === 0;
    this.review.show(message.runKey, files, message.review);
    this.fileList.show(files);
    this.diff.show(files);
    this.deps.requestFrame();
  }

  /** Hides the view and forgets the change set (the caller shows the transcript again). */
  close(): void {
    this.message = null;
    this.element.hidden = true;
    this.review.show('', [], undefined);
    this.fileList.show([]);
    this.diff.show([]);
    this.notes.reset(null);
  }

  /** The host's pending notes to the agent of a run (shown when it is this view's run). */
  showNotes(message: Extract<HostToWebview, { type: 'reviewNotes' }>): void {
    this.notes.setNotes(message.runKey, message.notes);
  }

  /** Once per animation frame while open. */
  layout(): void {
    if (this.message) {
      this.fileList.layout();
      this.diff.layout();
    }
  }

  /** Notes to the agent on the diff's lines: the mouse on line numbers, the line keys on the diff itself. */
  private notesOf(diff: ChangeSetDiff): ChangeSetNotes {
    const notes = new ChangeSetNotes(
      {
        rows: () => diff.diffRows,
        files: () => diff.shownFiles,
        refreshRow: (index) => diff.refreshRow(index),
        revealRow: (index) => diff.revealRow(index),
        firstVisibleRow: () => diff.firstVisibleRow(),
        focus: () => diff.element.focus({ preventScroll: true }),
      },
      this.deps.post,
    );
    diff.element.addEventListener('mousedown', (event) => notes.onMouseDown(event));
    diff.element.addEventListener('keydown', (event) => {
      if (event.target === diff.element && !event.defaultPrevented && notes.onKeyDown(event)) {
        event.preventDefault();
      }
    });
    return notes;
  }

  private openFile(index: number): void {
    const file = this.message?.files[index];
    if (this.message && file) {
      this.deps.post({ type: 'openChangeSetFile', runKey: this.message.runKey, fileIndex: file.index });
    }
  }
}
