/**
 * Transient notices from the host (`toast`) and a polite screen-reader announcer. Toasts close themselves
 * (errors stay longer) and can be dismissed; errors use role="alert", others role="status".
 */
import { button, codicon, h } from './dom';

const DURATION_MS = { info: 5_000, warning: 8_000, error: 12_000 } as const;
const MAX_TOASTS = 4;

export class Toasts {
  /** `#toasts`. */
  readonly element: HTMLDivElement;
  /** `#announcer`: visually hidden, aria-live="polite". */
  readonly announcer: HTMLDivElement;

  constructor() {
    this.element = h('div', { id: 'toasts', class: 'toasts' });
    this.announcer = h('div', { id: 'announcer', class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' });
  }

  show(level: 'info' | 'warning' | 'error', text: string): void {
    const icon = level === 'info' ? 'info' : level;
    const toast = h(
      'div',
      { class: `toast toast-${level}`, role: level === 'error' ? 'alert' : 'status' },
      codicon(icon),
      h('span', { class: 'toast-text' }, text),
    );
    const close = (): void => {
      clearTimeout(timer);
      toast.remove();
    };
    toast.appendChild(button({ label: 'Dismiss notification', icon: 'close', className: 'toast-close', onClick: close }));
    const timer = setTimeout(close, DURATION_MS[level]);
    this.element.appendChild(toast);
    while (this.element.childElementCount > MAX_TOASTS) {
      this.element.firstElementChild?.remove();
    }
  }

  /** Says `text` to screen readers without showing anything. */
  announce(text: string): void {
    this.announcer.textContent = '';
    // A separate task makes repeated identical announcements audible.
    setTimeout(() => {
      this.announcer.textContent = text;
    }, 50);
  }
}
