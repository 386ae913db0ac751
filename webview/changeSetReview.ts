/**
 * Review controls of the shown change set (issue #26): a *Reviewed* checkbox on every hunk header and on every file
 * header (the file's: all its hunks; checked when all are, mixed when some are), *Undo* buttons for edits already on
 * disk (a local change set: per hunk where the file is edited in place, per file otherwise), a note where marks were
 * dropped because the agent changed those hunks after the review, and the "N of M hunks reviewed" summary.
 *
 * The host owns the marks: a toggle posts `setReviewed` with the review keys of what it stands for, and the host's
 * `reviewMarks` answer (also sent when another surface changed them) updates the mounted rows in place — a row
 * scrolled into view later is built from the same state — so focus stays on the checkbox the keyboard is on.
 * Native checkboxes and buttons: Tab reaches them, Space toggles, Enter presses.
 */
import type { ChangeSetFileView, ChangeSetReview, WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, h } from './dom';
import { fileLabel } from './changeSetLabels';

export interface ChangeSetReviewDeps {
  readonly post: (message: WebviewToHost) => void;
  /** The marks changed: the summary is to be written again. */
  readonly onChange: () => void;
}

/** The review keys of a file's units, as the view was sent them (none for a file whose hunks were left out). */
function keysOf(file: ChangeSetFileView): string[] {
  if (file.omitted) {
    return []; // its hunks were not sent: reviewed in the diff editor (Mark File Reviewed)
  }
  if (file.hunks.length === 0) {
    return file.key !== undefined ? [file.key] : [];
  }
  return file.hunks.map((hunk) => hunk.key ?? '').filter((key) => key !== '');
}

export class ChangeSetReviewControls {
  private runKey = '';
  private files: readonly ChangeSetFileView[] = [];
  private review: ChangeSetReview | undefined;

  constructor(
    /** Where the rows are mounted (the diff's scroller). */
    private readonly root: HTMLElement,
    private readonly deps: ChangeSetReviewDeps,
  ) {}

  show(runKey: string, files: readonly ChangeSetFileView[], review: ChangeSetReview | undefined): void {
    this.runKey = runKey;
    this.files = files;
    this.review = review;
    this.deps.onChange();
  }

  /** New marks from the host: the summary and every mounted control follow. */
  update(review: ChangeSetReview): void {
    this.review = review;
    for (const box of this.root.querySelectorAll<HTMLInputElement>('input.cs-reviewed-box')) {
      this.setBox(box, Number(box.dataset['file']), box.dataset['hunk'] === undefined ? undefined : Number(box.dataset['hunk']));
    }
    for (const note of this.root.querySelectorAll<HTMLElement>('.cs-review-dropped')) {
      note.replaceWith(this.droppedNote(Number(note.dataset['file'])));
    }
    this.deps.onChange();
  }

  /** `2 of 5 hunks reviewed`, or '' when there is nothing to review or no marks were sent. */
  summaryText(): string {
    if (!this.review) {
      return '';
    }
    let reviewed = 0;
    let total = 0;
    for (const file of this.review.files) {
      reviewed += file.reviewed.filter(Boolean).length;
      total += file.reviewed.length;
    }
    return total === 0 ? '' : `${reviewed} of ${total} hunk${total === 1 ? '' : 's'} reviewed`;
  }

  /** The controls of a file header: its Reviewed checkbox, Undo File, and the dropped-marks note. */
  fileControls(pos: number): HTMLElement | null {
    const file = this.files[pos];
    if (!file || !this.review) {
      return null;
    }
    const keys = keysOf(file);
    const label = fileLabel(file);
    const parts: HTMLElement[] = [this.droppedNote(pos)];
    if (keys.length > 0) {
      parts.push(this.checkbox(pos, undefined, keys, `Reviewed: every hunk of ${label}`));
    }
    if (file.undo !== undefined && keys.length > 0) {
      parts.push(this.undoButton(pos, undefined, keys, `Undo the agent's changes to ${label} (written back to the file; undoable)`, 'Undo file'));
    }
    return h('span', { class: 'cs-review-controls' }, ...parts);
  }

  /** The controls of a hunk header: its Reviewed checkbox and, for an edit on disk, Undo. */
  hunkControls(pos: number, hunkIndex: number): HTMLElement | null {
    const file = this.files[pos];
    const key = file?.hunks[hunkIndex]?.key;
    if (!file || key === undefined || !this.review) {
      return null;
    }
    const where = `hunk ${hunkIndex + 1} of ${file.hunks.length} in ${fileLabel(file)}`;
    return h(
      'span',
      { class: 'cs-review-controls' },
      this.checkbox(pos, hunkIndex, [key], `Reviewed: ${where}`),
      file.undo === 'hunks' ? this.undoButton(pos, hunkIndex, [key], `Undo ${where} (written back to the file; undoable)`, 'Undo') : null,
    );
  }

  private reviewedOf(pos: number): readonly boolean[] {
    return this.review?.files[pos]?.reviewed ?? [];
  }

  private setBox(box: HTMLInputElement, pos: number, hunkIndex: number | undefined): void {
    const flags = this.reviewedOf(pos);
    const done = flags.filter(Boolean).length;
    const checked = hunkIndex === undefined ? flags.length > 0 && done === flags.length : flags[hunkIndex] === true;
    box.checked = checked;
    box.indeterminate = hunkIndex === undefined && done > 0 && !checked;
    box.closest('.cs-row')?.classList.toggle('cs-reviewed-row', checked);
  }

  private checkbox(pos: number, hunkIndex: number | undefined, keys: readonly string[], label: string): HTMLElement {
    const box = h('input', { type: 'checkbox', class: 'cs-reviewed-box', 'aria-label': label, title: label, 'data-file': pos, 'data-hunk': hunkIndex });
    const file = this.files[pos];
    box.addEventListener('change', () => {
      if (file) {
        this.deps.post({ type: 'setReviewed', runKey: this.runKey, fileIndex: file.index, keys: [...keys], reviewed: box.checked });
      }
    });
    const wrapper = h('label', { class: 'cs-reviewed' }, box, h('span', { class: 'cs-reviewed-text', 'aria-hidden': 'true' }, 'Reviewed'));
    // Set once the row is in the DOM too (the class goes on the row): the caller appends it right away.
    queueMicrotask(() => this.setBox(box, pos, hunkIndex));
    this.setBox(box, pos, hunkIndex);
    return wrapper;
  }

  private undoButton(pos: number, hunkIndex: number | undefined, keys: readonly string[], label: string, text: string): HTMLElement {
    const file = this.files[pos];
    return button({
      label,
      text,
      icon: 'discard',
      className: 'cs-undo',
      onClick: () => {
        if (file) {
          this.deps.post({ type: 'undoChange', runKey: this.runKey, fileIndex: file.index, ...(hunkIndex !== undefined ? { hunkIndex } : {}), keys: [...keys] });
        }
      },
    });
  }

  private droppedNote(pos: number): HTMLElement {
    const dropped = this.review?.files[pos]?.dropped ?? 0;
    // Changed by the agent in a later turn, or undone: either way the reviewed content is not in the change set now.
    const text = dropped === 0 ? '' : `${dropped} review mark${dropped === 1 ? '' : 's'} dropped: ${dropped === 1 ? 'a hunk' : 'hunks'} changed or undone after your review`;
    return h('span', { class: 'cs-review-dropped', 'data-file': pos, role: dropped === 0 ? null : 'note', hidden: dropped === 0 }, text);
  }
}
