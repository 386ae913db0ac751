/**
 * The message box under the transcript: a labelled textarea, Send (Ctrl/Cmd+Enter) — "Queue" while a turn runs on a
 * daemon that queues — and Stop, or End Run once an interactive run finished answering (it never ends by itself).
 * Hidden when the run accepts no messages. The draft of each run is the host's (it comes with the snapshot and
 * every change is reported back, debounced), so the sidebar and an editor tab of a run share it and it survives a
 * reload. A `/` at the start offers the agent's slash commands (slashCommandMenu.ts).
 */
import type { RunSummary, WebviewToHost } from '../extension/protocol/webviewMessages';
import { button, h, setButtonText } from './dom';
import { isTurnActive } from './runStateDisplay';
import { SlashCommandMenu } from './slashCommandMenu';

const MAX_HEIGHT_PX = 240;
/** Draft reports wait for a pause in typing: one message per burst, not per key. */
const DRAFT_DELAY_MS = 250;

export class Composer {
  /** `#composer`. */
  readonly element: HTMLDivElement;
  private readonly input: HTMLTextAreaElement;
  private readonly placeholder: string;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly endButton: HTMLButtonElement;
  private readonly inputRow: HTMLDivElement;
  private readonly slashMenu: SlashCommandMenu;
  private run: RunSummary | null = null;
  /** The draft the next snapshot brought, shown when its run becomes the composer's run. */
  private incomingDraft = '';
  /** A draft change not reported to the host yet. */
  private pendingDraft: { runKey: string; text: string } | undefined;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly post: (message: WebviewToHost) => void) {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    const shortcut = mac ? '⌘Enter' : 'Ctrl+Enter';
    this.placeholder = `Message the agent (${shortcut} to send)`;
    this.input = h('textarea', {
      id: 'composer-input',
      class: 'composer-input',
      rows: 2,
      placeholder: this.placeholder,
      'aria-keyshortcuts': mac ? 'Meta+Enter' : 'Control+Enter',
    });
    this.sendButton = button({ label: 'Send', text: 'Send', icon: 'send', className: 'primary', onClick: () => this.send() });
    this.sendButton.id = 'composer-send';
    this.stopButton = button({ label: 'Stop the run', text: 'Stop', icon: 'debug-stop', className: 'secondary', onClick: () => this.stop() });
    this.stopButton.id = 'composer-stop';
    this.endButton = button({ label: 'End the run (it is waiting for your message)', text: 'End Run', icon: 'stop-circle', className: 'secondary', onClick: () => this.end() });
    this.endButton.id = 'composer-end';
    this.slashMenu = new SlashCommandMenu(this.input, () => this.textChanged());
    this.inputRow = h(
      'div',
      { class: 'composer-input-row' },
      h('label', { for: 'composer-input', class: 'sr-only' }, 'Message to the agent'),
      this.slashMenu.element,
      this.input,
      this.slashMenu.hintElement,
    );
    this.element = h(
      'div',
      { id: 'composer', class: 'composer' },
      this.inputRow,
      h('div', { class: 'composer-actions' }, h('span', { class: 'composer-hint' }, shortcut), this.stopButton, this.endButton, this.sendButton),
    );
    this.element.hidden = true;

    this.input.addEventListener('keydown', (event) => {
      if (this.slashMenu.handleKey(event)) {
        // The list took the key (↑ ↓ Enter Tab Escape): no newline, no focus move, no Escape for the views behind.
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing) {
        event.preventDefault();
        this.send();
      }
    });
    this.input.addEventListener('input', () => {
      this.textChanged();
      this.slashMenu.update();
    });
  }

  /** The draft of the run a snapshot is about to show (applied by `render` only when the run changes). */
  restoreDraft(text: string): void {
    this.incomingDraft = text;
  }

  /**
   * The draft of `runKey` changed in another view of the run. Taken only when nobody is typing here (no focus, no
   * unreported change): never move text or caret under the user's hands.
   */
  offerDraft(runKey: string, text: string): void {
    if (this.run?.key !== runKey || this.pendingDraft || document.activeElement === this.input || this.input.value === text) {
      return;
    }
    this.input.value = text;
    this.autosize();
    this.updateSendEnabled();
  }

  render(run: RunSummary | null): void {
    const previousKey = this.run?.key;
    if (run?.key !== previousKey) {
      this.flushDraft(); // the run being left keeps what was typed into it
    }
    this.run = run;
    if (!run) {
      this.slashMenu.setCommands(undefined);
      this.element.hidden = true;
      return;
    }
    if (run.key !== previousKey) {
      // Only on a change of run: a resync of the same run must not overwrite what the user is typing.
      this.input.value = this.incomingDraft;
    }
    this.incomingDraft = '';
    this.slashMenu.setCommands(canSendCommands(run));
    const canSend = run.actions.send;
    this.inputRow.hidden = !canSend;
    this.sendButton.hidden = !canSend;
    this.stopButton.hidden = !run.actions.stop;
    this.endButton.hidden = !run.actions.end;
    this.element.hidden = !canSend && !run.actions.stop && !run.actions.end;
    const queue = run.actions.queues && isTurnActive(run.state);
    // A stopped hyperhive agent still takes messages: its inbox keeps them for its next start.
    const stopped = run.state === 'stopped';
    setButtonText(this.sendButton, queue || stopped ? 'Queue' : 'Send', stopped ? 'Queue the message in the agent\'s inbox for its next start' : queue ? 'Queue the message' : 'Send the message');
    this.input.placeholder = stopped ? 'The agent is stopped: your message waits in its inbox until it starts' : this.placeholder;
    this.updateSendEnabled();
    this.autosize();
  }

  /** Puts `text` at the caret (with a space before it when it would touch a word), keeping the draft in step. */
  insert(text: string): void {
    const { selectionStart: start, selectionEnd: end, value } = this.input;
    const before = value.slice(0, start);
    const piece = before !== '' && !/\s$/.test(before) ? ` ${text}` : text;
    this.input.value = `${before}${piece}${value.slice(end)}`;
    this.input.selectionStart = this.input.selectionEnd = start + piece.length;
    this.textChanged();
  }

  /** Moves keyboard focus into the textarea (or Stop when sending is not possible). */
  focus(): void {
    if (!this.element.hidden && !this.inputRow.hidden) {
      this.input.focus();
    } else if (!this.stopButton.hidden) {
      this.stopButton.focus();
    } else if (!this.endButton.hidden) {
      this.endButton.focus();
    }
  }

  private send(): void {
    const run = this.run;
    const text = this.input.value;
    if (!run || !run.actions.send || text.trim() === '') {
      return;
    }
    this.cancelDraft(); // the host forgets the draft when it gets the send
    this.post({ type: 'send', runKey: run.key, text });
    this.input.value = '';
    this.autosize();
    this.updateSendEnabled();
    this.input.focus();
  }

  private stop(): void {
    if (this.run?.actions.stop) {
      this.post({ type: 'stop', runKey: this.run.key });
    }
  }

  private end(): void {
    if (this.run?.actions.end) {
      this.post({ type: 'endRun', runKey: this.run.key });
    }
  }

  /** After the text changed (typed, or a slash command inserted): keep the draft, the height and Send in step. */
  private textChanged(): void {
    this.autosize();
    this.updateSendEnabled();
    if (this.run) {
      this.pendingDraft = { runKey: this.run.key, text: this.input.value };
      this.draftTimer ??= setTimeout(() => this.flushDraft(), DRAFT_DELAY_MS);
    }
  }

  /** Reports a pending draft change now (the page is going away, or another run is shown). */
  flushDraft(): void {
    const pending = this.pendingDraft;
    this.cancelDraft();
    if (pending) {
      this.post({ type: 'draft', runKey: pending.runKey, text: pending.text });
    }
  }

  private cancelDraft(): void {
    if (this.draftTimer !== undefined) {
      clearTimeout(this.draftTimer);
    }
    this.draftTimer = undefined;
    this.pendingDraft = undefined;
  }

  private updateSendEnabled(): void {
    this.sendButton.disabled = this.input.value.trim() === '';
  }

  /** Grows the textarea with its content up to MAX_HEIGHT_PX (CSSOM style, which the CSP allows). */
  private autosize(): void {
    this.input.style.height = 'auto';
    const height = this.input.scrollHeight;
    // A hidden textarea measures 0: leave the stylesheet's height until it is shown.
    this.input.style.height = height > 0 ? `${Math.min(MAX_HEIGHT_PX, height + 2)}px` : '';
  }
}

/** The run's slash commands, when a message can be sent at all (else there is nothing to type them into). */
function canSendCommands(run: RunSummary): RunSummary['slashCommands'] {
  return run.actions.send ? run.slashCommands : undefined;
}
