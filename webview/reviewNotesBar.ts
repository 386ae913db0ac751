/**
 * The bar under the change-set diff for notes to the agent (issue #26): what is selected, how many notes wait, and
 * the buttons that apply now — *Add note* (a selection), *Discard* and *Send notes* (notes wait).
 */
import { button, h } from './dom';

export interface NotesBarActions {
  readonly add: () => void;
  readonly send: () => void;
  readonly discard: () => void;
}

export interface NotesBarState {
  /** `2 lines selected (src/a.ts:3-4)`, or undefined without a selection. */
  readonly selection: string | undefined;
  readonly notes: number;
  /** Notes on files the shown change set does not have. */
  readonly elsewhere: number;
  /** A new note's editor is open (Add note would open a second). */
  readonly adding: boolean;
}

export class ReviewNotesBar {
  /** `#cs-notes-bar`. */
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly addButton: HTMLButtonElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly discardButton: HTMLButtonElement;

  constructor(actions: NotesBarActions) {
    this.status = h('span', { id: 'cs-notes-status', class: 'cs-notes-status', role: 'status' });
    this.addButton = button({ label: 'Add a note on the selected lines (Enter)', text: 'Add note', icon: 'comment', className: 'secondary', onClick: () => actions.add() });
    this.addButton.id = 'cs-add-note';
    this.sendButton = button({ label: 'Send every note to the agent as one message', text: 'Send notes', icon: 'send', className: 'primary', onClick: () => actions.send() });
    this.sendButton.id = 'cs-send-notes';
    this.discardButton = button({ label: 'Discard every note', icon: 'discard', className: 'secondary', onClick: () => actions.discard() });
    this.discardButton.id = 'cs-discard-notes';
    this.element = h('div', { id: 'cs-notes-bar', class: 'cs-notes-bar' }, this.status, this.addButton, this.discardButton, this.sendButton);
  }

  render(state: NotesBarState): void {
    const parts: string[] = [];
    if (state.selection !== undefined) {
      parts.push(state.selection);
    }
    if (state.notes > 0) {
      parts.push(`${state.notes} note${state.notes === 1 ? '' : 's'}${state.elsewhere > 0 ? ` (${state.elsewhere} on files not shown)` : ''}`);
    }
    this.status.textContent = parts.length > 0 ? parts.join(' · ') : 'Select lines by their numbers (or ↑/↓) to add a note for the agent';
    this.addButton.hidden = state.selection === undefined;
    this.addButton.disabled = state.adding;
    this.sendButton.hidden = state.notes === 0;
    this.discardButton.hidden = state.notes === 0;
  }
}
