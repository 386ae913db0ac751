/** What item views may do besides building DOM: talk to the host and remember what the user expanded. */
import type { WebviewToHost } from '../../extension/protocol/webviewMessages';
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';

export interface RenderContext {
  /** Key of the run being shown (null when none). */
  readonly runKey: () => string | null;
  /** Posts a validated message to the host. */
  readonly post: (message: WebviewToHost) => void;
  /** The user's explicit open/closed choice for `key` (e.g. `reasoning:<id>`), or `undefined` for the default. */
  readonly expansion: (key: string) => boolean | undefined;
  /** Remembers an open/closed choice (forgotten when it equals `defaultOpen`). */
  readonly setExpansion: (key: string, open: boolean, defaultOpen: boolean) => void;
  /** Scrolls to the hyperhive message with this id (asked of the host, which has the whole transcript). */
  readonly revealMessage: (messageId: string) => void;
  /** Why *Continue from here* cannot be used on this run's checkpoint markers now (undefined: it can). */
  readonly continueBlocked: () => string | undefined;
}

/** One rendered transcript item. The element is the list row; it is reused until the item scrolls out of view. */
export interface ItemView {
  readonly element: HTMLElement;
  /** The item changed (merge or replacement): re-render this item only. */
  update(item: TranscriptItem): void;
  /** `chunk` was appended to `field` (the item already includes it); must cost O(chunk). */
  append(field: 'text' | 'output', chunk: string, item: TranscriptItem): void;
  /** The row left the window: release timers and listeners. */
  dispose(): void;
}

/** Wires a `<details>` to the persisted expand state: `defaultOpen` unless the user chose otherwise. */
export function bindDetails(details: HTMLDetailsElement, ctx: RenderContext, key: string, defaultOpen: boolean, onOpen?: () => void): void {
  const open = ctx.expansion(key) ?? defaultOpen;
  details.open = open;
  if (open) {
    onOpen?.();
  }
  details.addEventListener('toggle', () => {
    ctx.setExpansion(key, details.open, defaultOpen);
    if (details.open) {
      onOpen?.();
    }
  });
}
