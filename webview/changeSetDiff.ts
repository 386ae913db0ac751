/**
 * The rendered diff of a change set: every file's header, notes, hunk headers and lines as rows of a
 * `VirtualList`, so a 100k-line patch keeps a few hundred rows in the DOM. Lines are text nodes only (the patch is
 * agent output), `white-space: pre` with a horizontal scroll sized to the widest line, and a sticky gutter with
 * the old/new line numbers.
 */
import type { DiffRow, DiffRows } from '../extension/protocol/changeSetRows';
import { buildDiffRows } from '../extension/protocol/changeSetRows';
import type { ChangeSetFileView } from '../extension/protocol/webviewMessages';
import { button, h } from './dom';
import { countsView, fileDescription, fileLabel, statusBadge } from './changeSetLabels';
import type { ChangeSetReviewControls } from './changeSetReview';
import { VirtualList } from './virtualList';

/** Longer lines are cut for display (layout of a megabyte-long line is slow); the diff editor shows them whole. */
export const MAX_LINE_CHARS = 5_000;

const SIGN: Readonly<Record<string, string>> = { context: ' ', add: '+', del: '−' };

export interface ChangeSetDiffActions {
  /** "Open in diff editor" on a file header (`index` into the shown files). */
  readonly openFile: (index: number) => void;
  /** Adds to a row being mounted (the notes to the agent: changeSetNotes.ts); returns the element to mount. */
  readonly decorate?: (index: number, row: DiffRow, element: HTMLElement) => HTMLElement;
  /** The review controls of file and hunk headers (changeSetReview.ts), once it exists. */
  readonly review?: () => ChangeSetReviewControls;
}

type Estimates = Record<DiffRow['kind'], number>;

export class ChangeSetDiff {
  /** `#cs-diff`: the scroller. */
  readonly element: HTMLDivElement;
  private readonly list: VirtualList;
  private files: readonly ChangeSetFileView[] = [];
  private rows: DiffRows = buildDiffRows([]);
  private estimates: Estimates = { file: 32, hunk: 22, context: 18, add: 18, del: 18, noeol: 18, note: 22 };

  constructor(
    private readonly actions: ChangeSetDiffActions,
    requestFrame: () => void,
  ) {
    this.element = h('div', { id: 'cs-diff', class: 'cs-diff', tabindex: '0', role: 'region', 'aria-label': 'Diff' });
    this.list = new VirtualList(
      this.element,
      {
        mount: (index) => this.mount(index),
        unmount: () => {},
        estimate: (index) => this.estimates[this.rows.row(index)?.kind ?? 'context'],
      },
      requestFrame,
    );
    this.list.windowEl.setAttribute('role', 'list');
  }

  /** The rows shown (the notes to the agent read them). */
  get diffRows(): DiffRows {
    return this.rows;
  }

  get shownFiles(): readonly ChangeSetFileView[] {
    return this.files;
  }

  /** Mounts row `index` again at the next layout (its decoration changed). */
  refreshRow(index: number): void {
    this.list.invalidate(index, index + 1);
  }

  /** The first row in view. */
  firstVisibleRow(): number {
    return this.list.position.anchorIndex;
  }

  /** Scrolls so row `index` is in view, unless it is already. */
  revealRow(index: number): void {
    const el = this.list.row(index);
    const view = this.element.getBoundingClientRect();
    const box = el?.getBoundingClientRect();
    if (!box || box.top < view.top || box.bottom > view.bottom) {
      this.list.scrollToIndex(index, Math.max(0, Math.round(view.height / 3)));
    }
  }

  /** Rows in the DOM, for tests and diagnostics. */
  get renderedRange(): { start: number; end: number } {
    return this.list.renderedRange;
  }

  show(files: readonly ChangeSetFileView[]): void {
    this.files = files;
    this.rows = buildDiffRows(files);
    const digits = String(Math.max(this.rows.maxLineNumber, 99)).length;
    this.element.style.setProperty('--cs-digits', String(digits));
    this.element.style.setProperty('--cs-cols', String(Math.min(this.rows.maxColumns, MAX_LINE_CHARS + 40)));
    this.measureEstimates();
    this.list.reset(this.rows.length, { pinned: false, anchorIndex: 0, anchorDelta: 0 });
  }

  /** Scrolls so the header of file `index` is at the top. */
  revealFile(index: number): void {
    const row = this.rows.fileStarts[index];
    if (row !== undefined) {
      this.list.scrollToIndex(row, 0);
    }
  }

  layout(): void {
    this.list.layout();
  }

  /** Heights of each row kind as the current theme and font render them, so offsets are right before measuring. */
  private measureEstimates(): void {
    if (this.element.clientHeight === 0) {
      return; // not laid out (hidden): keep the defaults; ResizeObserver corrects them
    }
    const probe: ChangeSetFileView = { index: 0, path: 'x', status: 'modified', additions: 1, deletions: 1, binary: false, hunks: [] };
    const samples: [DiffRow['kind'], HTMLElement][] = (['file', 'hunk', 'context', 'note'] as const).map((kind) => [
      kind,
      this.render({ kind, file: 0, oldLine: 1, newLine: 1, text: 'x', hunk: -1 }, probe),
    ]);
    for (const [, el] of samples) {
      this.list.windowEl.appendChild(el);
    }
    const heights = Object.fromEntries(samples.map(([kind, el]) => [kind, el.getBoundingClientRect().height]));
    for (const [, el] of samples) {
      el.remove();
    }
    const line = heights['context'] || this.estimates.context;
    this.estimates = {
      file: heights['file'] || this.estimates.file,
      hunk: heights['hunk'] || this.estimates.hunk,
      context: line,
      add: line,
      del: line,
      noeol: line,
      note: heights['note'] || this.estimates.note,
    };
  }

  private mount(index: number): HTMLElement {
    const row = this.rows.row(index);
    const file = row && this.files[row.file];
    if (!row || !file) {
      return h('div', { class: 'cs-row' });
    }
    const element = this.render(row, file);
    return this.actions.decorate ? this.actions.decorate(index, row, element) : element;
  }

  private render(row: DiffRow, file: ChangeSetFileView): HTMLElement {
    switch (row.kind) {
      case 'file': {
        const label = fileLabel(file);
        const open = button({ label: `Open ${label} in the diff editor`, icon: 'diff-single', className: 'cs-open-file', onClick: () => this.actions.openFile(row.file) });
        return h(
          'div',
          { class: 'cs-row cs-file-row', role: 'listitem', 'data-file-index': file.index, 'aria-label': fileDescription(file) },
          h('div', { class: 'cs-file-head' }, statusBadge(file), h('span', { class: 'cs-file-path', title: label }, label), countsView(file), this.actions.review?.().fileControls(row.file) ?? null, open),
        );
      }
      case 'hunk':
        return h(
          'div',
          { class: 'cs-row cs-hunk', role: 'listitem' },
          h('span', { class: 'cs-gutter', 'aria-hidden': 'true' }),
          // Before the header text, and sticky beside the gutter: in view however far the lines scroll sideways.
          row.hunk >= 0 ? (this.actions.review?.().hunkControls(row.file, row.hunk) ?? null) : null,
          h('span', { class: 'cs-text' }, row.text),
        );
      case 'note':
        return h('div', { class: 'cs-row cs-note', role: 'listitem' }, h('span', { class: 'cs-note-text' }, row.text));
      default:
        return this.renderLine(row);
    }
  }

  private renderLine(row: DiffRow): HTMLElement {
    const cut = row.text.length > MAX_LINE_CHARS;
    return h(
      'div',
      { class: `cs-row cs-line cs-${row.kind}`, role: 'listitem' },
      h(
        'span',
        { class: 'cs-gutter' },
        h('span', { class: 'cs-ln' }, row.oldLine > 0 ? String(row.oldLine) : ''),
        h('span', { class: 'cs-ln' }, row.newLine > 0 ? String(row.newLine) : ''),
      ),
      h('span', { class: 'cs-sign' }, SIGN[row.kind] ?? ' '),
      h(
        'span',
        { class: 'cs-text' },
        cut ? row.text.slice(0, MAX_LINE_CHARS) : row.text,
        cut ? h('span', { class: 'cs-cut' }, ` … ${(row.text.length - MAX_LINE_CHARS).toLocaleString('en-US')} more characters`) : null,
      ),
    );
  }
}
