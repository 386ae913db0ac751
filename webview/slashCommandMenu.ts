/**
 * The composer's slash-command suggestions: typing `/` at the start of the message offers the commands the agent
 * advertised (ACP `available_commands_update`), filtered as the name is typed. The textarea keeps focus and the
 * list follows it through `aria-activedescendant`; ↑/↓ move, Enter or Tab insert `/<name> `, Escape closes. Names,
 * descriptions and hints are the agent's text: they become Text nodes only (dom.ts), never markup.
 */
import type { SlashCommandView } from '../extension/protocol/webviewMessages';
import { codicon, h, replaceChildren } from './dom';

/** The most suggestions shown at once: the list scrolls, and typing narrows it. */
const MAX_SHOWN = 50;

/** `/name` at the start of the text, with the caret still inside it: the part typed so far, else undefined. */
export function slashQuery(text: string, caret: number): string | undefined {
  const token = /^\/(\S*)/.exec(text);
  if (!token || caret < 1 || caret > token[0].length) {
    return undefined;
  }
  return text.slice(1, caret);
}

/** Names starting with the query first, then names containing it; case-insensitive, in the agent's order. */
export function matchingCommands(commands: readonly SlashCommandView[], query: string): SlashCommandView[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, MAX_SHOWN);
}

export class SlashCommandMenu {
  /** `#composer-slash-list`, placed above the textarea by the stylesheet. */
  readonly element: HTMLUListElement;
  /** The hint of the command just inserted, while its input is still empty. */
  readonly hintElement: HTMLDivElement;
  private commands: readonly SlashCommandView[] = [];
  private shown: SlashCommandView[] = [];
  private active = 0;
  /** The text Escape closed the list for: it stays closed until the text changes. */
  private dismissedFor: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** Called after the text was changed by an insertion (the composer saves the draft, resizes…). */
    private readonly onInserted: () => void,
  ) {
    this.element = h('ul', { id: 'composer-slash-list', class: 'slash-menu', role: 'listbox', 'aria-label': 'Slash commands' });
    this.element.hidden = true;
    this.hintElement = h('div', { id: 'composer-slash-hint', class: 'slash-hint', 'aria-live': 'polite' });
    this.hintElement.hidden = true;
    input.setAttribute('aria-autocomplete', 'list');
    // Keep the focus in the textarea when an option is clicked.
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
    this.element.addEventListener('click', (event) => {
      const option = (event.target as Element | null)?.closest('[role="option"]');
      const index = option ? Number((option as HTMLElement).dataset['index']) : NaN;
      if (Number.isInteger(index)) {
        this.insert(index);
      }
    });
    input.addEventListener('blur', () => this.close());
    input.addEventListener('focus', () => this.update());
    input.addEventListener('click', () => this.update());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** The agent's current list (a header update). */
  setCommands(commands: readonly SlashCommandView[] | undefined): void {
    this.commands = commands ?? [];
    this.update();
  }

  /** Re-reads the text and caret: opens, filters or closes the list, and shows a just-inserted command's hint. */
  update(): void {
    const text = this.input.value;
    if (this.dismissedFor !== undefined && this.dismissedFor !== text) {
      this.dismissedFor = undefined;
    }
    this.updateHint(text);
    const query = document.activeElement === this.input ? slashQuery(text, this.input.selectionStart ?? text.length) : undefined;
    const shown = query === undefined || this.dismissedFor !== undefined ? [] : matchingCommands(this.commands, query);
    if (shown.length === 0) {
      this.close();
      return;
    }
    const activeName = this.isOpen ? this.shown[this.active]?.name : undefined;
    this.shown = shown;
    this.active = Math.max(0, shown.findIndex((c) => c.name === activeName));
    this.render();
  }

  /**
   * The keys the list takes while open (↑ ↓ Enter Tab Escape); returns whether the key was handled, so the composer
   * does nothing else with it. Ctrl/Cmd+Enter stays the composer's (send).
   */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) {
      return false;
    }
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + this.shown.length) % this.shown.length;
        this.render();
        return true;
      }
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) {
          return false;
        }
        this.insert(this.active);
        return true;
      case 'Escape':
        this.dismissedFor = this.input.value;
        this.close();
        return true;
      default:
        return false;
    }
  }

  private insert(index: number): void {
    const command = this.shown[index];
    if (!command) {
      return;
    }
    const text = this.input.value;
    const token = /^\/\S*/.exec(text)?.[0] ?? '';
    // Replace the typed `/na` (and any space after it) with the whole name and one space.
    const rest = text.slice(token.length).replace(/^[ \t]+/, '');
    const inserted = `/${command.name} `;
    this.input.value = inserted + rest;
    this.input.setSelectionRange(inserted.length, inserted.length);
    this.close();
    this.updateHint(this.input.value);
    this.onInserted();
  }

  private render(): void {
    const options = this.shown.map((command, i) =>
      h(
        'li',
        { id: `composer-slash-${i}`, class: 'slash-option', role: 'option', 'aria-selected': i === this.active ? 'true' : 'false', 'data-index': i, 'data-command': command.name },
        codicon('symbol-event'),
        h('span', { class: 'slash-name' }, `/${command.name}`),
        command.hint ? h('span', { class: 'slash-option-hint' }, command.hint) : null,
        h('span', { class: 'slash-description' }, command.description),
      ),
    );
    replaceChildren(this.element, ...options);
    this.element.hidden = false;
    this.input.setAttribute('aria-controls', this.element.id);
    this.input.setAttribute('aria-activedescendant', `composer-slash-${this.active}`);
    options[this.active]?.scrollIntoView({ block: 'nearest' });
  }

  private close(): void {
    if (this.element.hidden) {
      return;
    }
    this.element.hidden = true;
    this.element.replaceChildren();
    this.input.removeAttribute('aria-activedescendant');
    this.input.removeAttribute('aria-controls');
  }

  /** `/<name> ` exactly, for a command with a hint: show what to type next (ACP: "while no input is provided"). */
  private updateHint(text: string): void {
    const typed = /^\/(\S+) $/.exec(text)?.[1];
    const hint = typed === undefined ? undefined : this.commands.find((c) => c.name === typed)?.hint;
    this.hintElement.hidden = !hint;
    this.hintElement.textContent = hint ? `/${typed ?? ''} ${hint}` : '';
  }
}
