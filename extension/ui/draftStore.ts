/**
 * The composer drafts of every run, owned by the host so that every view of a run (the sidebar transcript, its
 * editor tab) shows the same draft and a draft survives hiding the view and reloading the window. Kept in the
 * workspace state (drafts belong to the runs of this workspace). Bounded: at most MAX_RUNS drafts (the least
 * recently typed go first) of at most MAX_DRAFT_CHARS each; writes are debounced.
 */
import type * as vscode from 'vscode';
import { Emitter } from '../base/emitter';

const STORAGE_KEY = 'agentSwitchboard.drafts';
export const MAX_RUNS = 50;
export const MAX_DRAFT_CHARS = 100_000;
const SAVE_DELAY_MS = 250;

/** A draft changed; `origin` is whoever changed it (a surface does not echo its own change back). */
export interface DraftChange {
  readonly runKey: string;
  readonly text: string;
  readonly origin: unknown;
}

interface StoredDraft {
  readonly text: string;
  readonly touched: number;
}

export class DraftStore {
  private readonly drafts = new Map<string, StoredDraft>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private readonly changeEmitter = new Emitter<DraftChange>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly memento: Pick<vscode.Memento, 'get' | 'update'>,
    private readonly now: () => number = Date.now,
  ) {
    for (const [runKey, draft] of Object.entries(readStored(memento.get<unknown>(STORAGE_KEY)))) {
      this.drafts.set(runKey, draft);
    }
  }

  /** The draft of `runKey`; empty when there is none. */
  get(runKey: string): string {
    return this.drafts.get(runKey)?.text ?? '';
  }

  /** Records what the composer of `runKey` holds now; an empty text forgets the draft. */
  set(runKey: string, text: string, origin?: unknown): void {
    const clipped = text.slice(0, MAX_DRAFT_CHARS);
    if (clipped === this.get(runKey)) {
      return;
    }
    this.drafts.delete(runKey); // re-inserted last: the Map's order is the eviction order
    if (clipped !== '') {
      this.drafts.set(runKey, { text: clipped, touched: this.now() });
      for (const oldest of [...this.drafts.keys()].slice(0, Math.max(0, this.drafts.size - MAX_RUNS))) {
        this.drafts.delete(oldest);
      }
    }
    this.timer ??= setTimeout(() => void this.flush(), SAVE_DELAY_MS);
    this.changeEmitter.fire({ runKey, text: clipped, origin });
  }

  /** Writes a pending change now; resolves when the workspace state has it. */
  flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      const value: Record<string, StoredDraft> = Object.fromEntries(this.drafts);
      this.saving = this.saving.then(() => Promise.resolve(this.memento.update(STORAGE_KEY, { v: 1, drafts: value })));
    }
    return this.saving;
  }

  dispose(): void {
    this.changeEmitter.dispose();
    void this.flush();
  }
}

/** Lenient read of what an earlier window stored: anything malformed is dropped, the oldest first when too many. */
function readStored(raw: unknown): Record<string, StoredDraft> {
  if (typeof raw !== 'object' || raw === null || !('drafts' in raw) || typeof raw.drafts !== 'object' || raw.drafts === null) {
    return {};
  }
  const entries: [string, StoredDraft][] = [];
  for (const [runKey, value] of Object.entries(raw.drafts as Record<string, unknown>)) {
    if (typeof value === 'object' && value !== null && 'text' in value && typeof value.text === 'string' && value.text !== '') {
      const touched = 'touched' in value && typeof value.touched === 'number' ? value.touched : 0;
      entries.push([runKey, { text: value.text.slice(0, MAX_DRAFT_CHARS), touched }]);
    }
  }
  entries.sort((a, b) => a[1].touched - b[1].touched);
  return Object.fromEntries(entries.slice(-MAX_RUNS));
}
