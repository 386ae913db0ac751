/**
 * Tells the user's scrolls from everyone else's (a hidden webview resetting its offset, find-in-page, our own
 * corrections): a scroll counts as the user's while a pointer is down in the list (a scrollbar drag) or within
 * USER_INTENT_MS of wheel, touch, key or focus input there.
 */

/** A scroll this soon after wheel/key/pointer/touch/focus input in the list counts as the user's. */
const USER_INTENT_MS = 1_000;

export class ScrollIntent {
  private lastUserInput = -Infinity;
  private pointerDown = false;

  constructor(scroller: HTMLElement) {
    const noteInput = (): void => {
      this.lastUserInput = performance.now();
    };
    for (const type of ['wheel', 'touchstart', 'touchmove', 'keydown', 'focusin'] as const) {
      scroller.addEventListener(type, noteInput, { passive: true });
    }
    scroller.addEventListener('pointerdown', () => {
      noteInput();
      this.pointerDown = true;
    }, { passive: true });
    window.addEventListener('pointerup', () => {
      if (this.pointerDown) {
        noteInput(); // the end of a scrollbar drag
      }
      this.pointerDown = false;
    }, { passive: true });
  }

  /** Whether a scroll happening now is the user's. */
  get byUser(): boolean {
    return this.pointerDown || performance.now() - this.lastUserInput < USER_INTENT_MS;
  }
}
