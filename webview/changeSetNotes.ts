/**
 * Notes to the agent in the change-set diff (issue #26). Select lines of one hunk — click a line's number (Shift+click
 * or drag to extend), or from the keyboard: ↑/↓ move a line cursor through the diff, Shift+↑/↓ extend it within the
 * hunk, Enter opens *Add note*, Escape clears — and write a note in the editor that opens under the lines. Pending
 * notes show under their last line, each with Edit and Delete; the bar under the diff says how many there are and
 * has *Send notes* and *Discard*.
 *
 * The notes are the host's (one writer: ui/reviewNotes/reviewNoteStore.ts): this view asks for every change and
 * shows what the host sends back (`reviewNotes`). Only the rows whose look changes are mounted again (O(selection +
 * notes)), never the whole diff.
 */
import type { DiffRow } from '../extension/protocol/changeSetRows';
import type { ReviewNote, ReviewNoteAnchor, WebviewToHost } from '../extension/protocol/webviewMessages';
import { h } from './dom';
import { noteCard, noteEditor, placeText } from './reviewNoteCards';
import type { LineRowCache, NotePlacement, NotesDiffHost } from './reviewNoteSelection';
import { anchorOfRows, clampToHunk, isNotableRow, nextNotableRow, placeNotes } from './reviewNoteSelection';
import { ReviewNotesBar } from './reviewNotesBar';
import { followDrag } from './pointerDrag';

type Editing = { readonly kind: 'new'; readonly anchor: ReviewNoteAnchor; readonly row: number; text: string } | { readonly kind: 'edit'; readonly noteId: string; text: string };

export class ChangeSetNotes {
  private readonly notesBar: ReviewNotesBar;
  private runKey: string | null = null;
  private notes: readonly ReviewNote[] = [];
  private placement: NotePlacement = { byRow: new Map(), elsewhere: [] };
  /** The line rows of the files walked to place notes, for the change set shown (reset with it). */
  private lineRows: LineRowCache = new Map();
  private selection: { anchor: number; focus: number } | null = null;
  private editing: Editing | null = null;
  private focusEditor = false;
  private dragging = false;

  constructor(
    private readonly host: NotesDiffHost,
    private readonly post: (message: WebviewToHost) => void,
  ) {
    this.notesBar = new ReviewNotesBar({ add: () => this.openNew(), send: () => this.request('notesSend'), discard: () => this.request('notesDiscard') });
    this.update();
  }

  /** `#cs-notes-bar`, under the diff. */
  get bar(): HTMLElement {
    return this.notesBar.element;
  }

  /** The diff now shows another change set (or none): selection and an open editor go; placements are recomputed. */
  reset(runKey: string | null): void {
    if (runKey !== this.runKey) {
      this.notes = [];
    }
    this.runKey = runKey;
    this.selection = null;
    this.editing = null;
    this.lineRows = new Map();
    this.placement = placeNotes(this.host.rows(), this.host.files(), this.notes, this.lineRows);
    this.update();
  }

  /** The host's notes of a run (after a change, and after its change set). */
  setNotes(runKey: string, notes: readonly ReviewNote[]): void {
    if (runKey !== this.runKey) {
      return;
    }
    const before = [...this.placement.byRow.keys()];
    this.notes = notes;
    this.placement = placeNotes(this.host.rows(), this.host.files(), notes, this.lineRows);
    if (this.editing?.kind === 'edit' && !notes.some((n) => this.editing?.kind === 'edit' && n.id === this.editing.noteId)) {
      this.editing = null; // the note went (sent or deleted elsewhere)
    }
    for (const row of new Set([...before, ...this.placement.byRow.keys()])) {
      this.host.refreshRow(row);
    }
    this.update();
  }

  /** Called for every row the diff mounts: marks selected lines and puts notes (and an open editor) under theirs. */
  decorate(index: number, row: DiffRow, element: HTMLElement): HTMLElement {
    if (!isNotableRow(row) && row.kind !== 'file') {
      return element;
    }
    element.dataset['row'] = String(index);
    if (isNotableRow(row)) {
      const selected = this.isSelected(index);
      element.classList.toggle('cs-selected', selected);
      element.setAttribute('aria-selected', String(selected));
      element.querySelector('.cs-gutter')?.setAttribute('title', 'Click to select this line for a note (Shift+click to extend)');
    }
    const notes = this.placement.byRow.get(index) ?? [];
    const editorHere = this.editing?.kind === 'new' && this.editing.row === index;
    if (notes.length === 0 && !editorHere) {
      return element;
    }
    const wrapper = h('div', { class: 'cs-row cs-noted', role: 'listitem', 'data-row': index });
    element.removeAttribute('role');
    wrapper.append(element);
    for (const note of notes) {
      wrapper.append(this.editing?.kind === 'edit' && this.editing.noteId === note.id ? this.editorFor(placeText(note), false) : noteCard(note, { edit: () => this.openEdit(note), remove: () => this.remove(note) }));
    }
    if (editorHere && this.editing?.kind === 'new') {
      wrapper.append(this.editorFor(placeText(this.editing.anchor), true));
    }
    return wrapper;
  }

  /** Mouse down in the diff: a line number selects its line (Shift extends); dragging over numbers extends. */
  onMouseDown(event: MouseEvent): void {
    const index = this.lineRowOf(event.target, true);
    if (index === undefined || event.button !== 0) {
      return;
    }
    event.preventDefault();
    this.host.focus();
    this.select(event.shiftKey && this.selection ? this.selection.anchor : index, index);
    this.dragging = true;
    followDrag(
      (element) => {
        const over = this.lineRowOf(element, false);
        if (over !== undefined && this.selection) {
          this.select(this.selection.anchor, over);
        }
      },
      () => (this.dragging = false),
    );
  }

  /** Keys on the diff itself (not in a note's editor or buttons). Says whether it took the key. */
  onKeyDown(event: KeyboardEvent): boolean {
    const rows = this.host.rows();
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !event.altKey && !event.ctrlKey && !event.metaKey) {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (!this.selection) {
        const start = this.host.firstVisibleRow();
        const first = isNotableRow(rows.row(start)) ? start : nextNotableRow(rows, start, 1);
        if (first !== undefined) {
          this.select(first, first);
        }
        return first !== undefined;
      }
      const next = nextNotableRow(rows, this.selection.focus, step);
      if (next === undefined) {
        return true;
      }
      this.select(event.shiftKey ? this.selection.anchor : next, next);
      return true;
    }
    if (event.key === 'Enter' && this.selection && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      this.openNew();
      return true;
    }
    if (event.key === 'Escape' && this.selection) {
      this.select(null, null);
      return true;
    }
    return false;
  }

  private select(anchor: number | null, focus: number | null): void {
    const rows = this.host.rows();
    const before = this.selection;
    this.selection = anchor === null || focus === null ? null : { anchor, focus: clampToHunk(rows, anchor, focus) };
    if (this.selection && !this.dragging) {
      this.host.revealRow(this.selection.focus); // first: while the row is still mounted, it knows if it is in view
    }
    for (const range of [before, this.selection]) {
      if (range) {
        for (let i = Math.min(range.anchor, range.focus); i <= Math.max(range.anchor, range.focus); i++) {
          this.host.refreshRow(i);
        }
      }
    }
    this.update();
  }

  private isSelected(index: number): boolean {
    const s = this.selection;
    return s !== null && index >= Math.min(s.anchor, s.focus) && index <= Math.max(s.anchor, s.focus);
  }

  /** The line row a mouse target is on: its number or sign only when `onNumber`, anywhere on it otherwise. */
  private lineRowOf(target: EventTarget | null, onNumber: boolean): number | undefined {
    if (!(target instanceof Element) || (onNumber && !target.closest('.cs-gutter, .cs-sign'))) {
      return undefined;
    }
    const line = target.closest<HTMLElement>('.cs-line[data-row]');
    const index = line ? Number(line.dataset['row']) : NaN;
    return Number.isInteger(index) && isNotableRow(this.host.rows().row(index)) ? index : undefined;
  }

  private openNew(): void {
    const s = this.selection;
    const anchor = s && anchorOfRows(this.host.rows(), this.host.files(), s.anchor, s.focus);
    if (!s || !anchor) {
      return;
    }
    const previous = this.editing;
    this.editing = { kind: 'new', anchor, row: Math.max(s.anchor, s.focus), text: '' };
    this.refreshEditing(previous);
  }

  private openEdit(note: ReviewNote): void {
    const previous = this.editing;
    this.editing = { kind: 'edit', noteId: note.id, text: note.text };
    this.refreshEditing(previous);
  }

  private remove(note: ReviewNote): void {
    if (this.runKey) {
      this.post({ type: 'noteRemove', runKey: this.runKey, noteId: note.id });
    }
    this.host.focus();
  }

  private closeEditor(): void {
    const previous = this.editing;
    this.editing = null;
    this.focusEditor = false;
    this.refreshEditing(previous);
    this.host.focus();
  }

  /** Mounts again the rows an editor was and is on, and focuses the new editor once it is in the DOM. */
  private refreshEditing(previous: Editing | null): void {
    const row = this.editing && this.rowOfEditor(this.editing);
    if (row !== undefined && row !== null) {
      this.focusEditor = true;
      this.host.revealRow(row); // first: while the row is still mounted, it knows if it is in view
    }
    for (const editing of [previous, this.editing]) {
      const at = editing && this.rowOfEditor(editing);
      if (at !== undefined && at !== null) {
        this.host.refreshRow(at);
      }
    }
    this.update();
  }

  private rowOfEditor(editing: Editing): number | undefined {
    const placed = editing.kind === 'edit' ? [...this.placement.byRow].find(([, notes]) => notes.some((n) => n.id === editing.noteId)) : undefined;
    return editing.kind === 'new' ? editing.row : placed?.[0];
  }

  private editorFor(place: string, isNew: boolean): HTMLElement {
    const editing = this.editing!;
    const editor = noteEditor({
      place,
      text: editing.text,
      isNew,
      changed: (text) => {
        editing.text = text; // kept while the row scrolls out of the DOM and back
      },
      save: (text) => this.save(editing, text),
      cancel: () => this.closeEditor(),
    });
    if (this.focusEditor) {
      this.focusEditor = false;
      requestAnimationFrame(() => editor.focus());
    }
    return editor.element;
  }

  private save(editing: Editing, text: string): void {
    if (!this.runKey) {
      return;
    }
    if (editing.kind === 'new') {
      this.post({ type: 'noteAdd', runKey: this.runKey, anchor: editing.anchor, text });
      this.select(null, null);
    } else {
      this.post({ type: 'noteEdit', runKey: this.runKey, noteId: editing.noteId, text });
    }
    this.closeEditor();
  }

  private request(type: 'notesSend' | 'notesDiscard'): void {
    if (this.runKey) {
      this.post({ type, runKey: this.runKey });
    }
  }

  /** The bar: what is selected, how many notes, and the buttons that apply now. */
  private update(): void {
    const s = this.selection;
    const anchor = s ? anchorOfRows(this.host.rows(), this.host.files(), s.anchor, s.focus) : undefined;
    const lines = s ? Math.abs(s.focus - s.anchor) + 1 : 0;
    this.notesBar.render({
      selection: s ? (anchor ? `${lines} line${lines === 1 ? '' : 's'} selected (${placeText(anchor)})` : 'Lines selected') : undefined,
      notes: this.notes.length,
      elsewhere: this.placement.elsewhere.length,
      adding: this.editing?.kind === 'new',
    });
  }
}
