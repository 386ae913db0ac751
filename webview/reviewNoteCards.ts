/**
 * How a note to the agent looks in the change-set diff: a card (where, the note, Edit and Delete) and the inline
 * editor (a labelled textarea, Save with Ctrl/Cmd+Enter, Cancel with Escape). Every string is a Text node (dom.ts):
 * the note is the person's text and the quoted lines are agent output, neither is ever parsed as markup.
 */
import type { ReviewNote } from '../extension/protocol/webviewMessages';
import { MAX_NOTE_CHARS } from '../extension/protocol/webviewMessages';
import { visibleText } from '../extension/protocol/visibleText';
import { button, codicon, h } from './dom';

/**
 * `src/a.ts:12` or `src/a.ts:12-14` — as the message to the agent names it, with hidden characters of the path (a
 * repository's file name) shown as escapes: the person sees what is sent.
 */
export function placeText(note: Pick<ReviewNote, 'path' | 'startLine' | 'endLine'>): string {
  const path = visibleText(note.path);
  return note.startLine === note.endLine ? `${path}:${note.startLine}` : `${path}:${note.startLine}-${note.endLine}`;
}

export interface NoteCardActions {
  readonly edit: () => void;
  readonly remove: () => void;
}

export function noteCard(note: ReviewNote, actions: NoteCardActions): HTMLElement {
  const place = placeText(note);
  return h(
    'div',
    { class: 'cs-note-card', 'data-note-id': note.id, role: 'group', 'aria-label': `Note for the agent on ${place}` },
    h(
      'div',
      { class: 'cs-note-card-head' },
      codicon('comment'),
      h('span', { class: 'cs-note-place' }, place),
      button({ label: `Edit the note on ${place}`, icon: 'edit', className: 'cs-note-edit', onClick: () => actions.edit() }),
      button({ label: `Delete the note on ${place}`, icon: 'trash', className: 'cs-note-delete', onClick: () => actions.remove() }),
    ),
    h('div', { class: 'cs-note-body' }, visibleText(note.text, 'keep')),
  );
}

export interface NoteEditorOptions {
  /** Where the note is, for its label (`src/a.ts:12-14`). */
  readonly place: string;
  readonly text: string;
  readonly isNew: boolean;
  readonly changed: (text: string) => void;
  readonly save: (text: string) => void;
  readonly cancel: () => void;
}

export function noteEditor(options: NoteEditorOptions): { element: HTMLElement; focus: () => void } {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  const input = h('textarea', {
    class: 'cs-note-input',
    rows: 3,
    maxlength: MAX_NOTE_CHARS,
    placeholder: `What should the agent know about these lines? (${mac ? '⌘Enter' : 'Ctrl+Enter'} to save)`,
    'aria-label': `Note for the agent on ${options.place}`,
  });
  input.value = options.text;
  const save = button({ label: 'Save the note', text: options.isNew ? 'Add note' : 'Save', icon: 'check', className: 'primary cs-note-save', onClick: () => trySave() });
  const cancel = button({ label: 'Cancel (Escape)', text: 'Cancel', className: 'secondary cs-note-cancel', onClick: () => options.cancel() });
  const syncSave = (): void => {
    save.disabled = input.value.trim() === '';
  };
  const trySave = (): void => {
    if (input.value.trim() !== '') {
      options.save(input.value);
    }
  };
  input.addEventListener('input', () => {
    syncSave();
    options.changed(input.value);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing) {
      event.preventDefault();
      trySave();
    } else if (event.key === 'Escape') {
      event.preventDefault(); // not Back to the transcript: only the editor closes
      options.cancel();
    }
    event.stopPropagation(); // typing is not the diff's line keys
  });
  syncSave();
  const element = h(
    'div',
    { class: 'cs-note-editor', role: 'group', 'aria-label': `${options.isNew ? 'New note' : 'Edit note'} on ${options.place}` },
    h('div', { class: 'cs-note-card-head' }, codicon('comment'), h('span', { class: 'cs-note-place' }, options.place)),
    input,
    h('div', { class: 'cs-note-editor-actions' }, cancel, save),
  );
  return { element, focus: () => input.focus({ preventScroll: false }) };
}
