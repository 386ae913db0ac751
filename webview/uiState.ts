/**
 * UI intent persisted with `setState` so a reloaded webview looks the same: per run the scroll position (pinned to
 * the bottom, or the first visible item and an offset) and which items the user expanded or collapsed. Never
 * transcript content, and not the composer draft (the host keeps drafts, shared by every view of a run). In an
 * editor tab also the run the tab shows (`tabRunKey`): VS Code hands this state to the host's serializer to restore
 * the tab after a reload. Bounded: at most MAX_RUNS runs and MAX_EXPANDED keys per run.
 */
import * as z from 'zod/mini';
import type { HostChannel } from './vscodeApi';

const MAX_RUNS = 20;
const MAX_EXPANDED = 400;
const SAVE_DELAY_MS = 250;

const runUiSchema = z.object({
  pinned: z.boolean(),
  anchorId: z.optional(z.string()),
  /** The anchor's index: what restores the position when the anchor is not in the loaded window. */
  anchorIndex: z.optional(z.int()),
  anchorDelta: z.optional(z.number()),
  /** Explicit open/closed choices that differ from an item's default, keyed `<part>:<itemId>`. */
  expanded: z.record(z.string(), z.boolean()),
  touched: z.number(),
});
export type RunUiState = z.infer<typeof runUiSchema>;

const persistedSchema = z.object({ v: z.literal(1), runs: z.record(z.string(), runUiSchema), tabRunKey: z.optional(z.string()) });

export class UiStateStore {
  private runs: Record<string, RunUiState>;
  private tabRunKey: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly channel: HostChannel) {
    const parsed = persistedSchema.safeParse(channel.getState());
    this.runs = parsed.success ? parsed.data.runs : {};
    this.tabRunKey = parsed.success ? parsed.data.tabRunKey : undefined;
  }

  /** This webview is an editor tab of `runKey`: stored at once, so a reload right after opening restores the tab. */
  setTabRunKey(runKey: string | undefined): void {
    if (runKey !== this.tabRunKey) {
      this.tabRunKey = runKey;
      this.flush();
    }
  }

  /** The (mutable) UI state of `runKey`, created on first use. Call `save()` after changing it. */
  forRun(runKey: string): RunUiState {
    let state = this.runs[runKey];
    if (!state) {
      state = { pinned: true, expanded: {}, touched: Date.now() };
      this.runs[runKey] = state;
    }
    state.touched = Date.now();
    return state;
  }

  /** Records an explicit expand/collapse; a choice equal to the default is forgotten. */
  setExpanded(runKey: string, key: string, open: boolean, defaultOpen: boolean): void {
    const state = this.forRun(runKey);
    delete state.expanded[key];
    if (open !== defaultOpen) {
      state.expanded[key] = open;
      const keys = Object.keys(state.expanded);
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_EXPANDED))) {
        delete state.expanded[old];
      }
    }
    this.save();
  }

  /** Debounced write. */
  save(): void {
    if (this.timer !== undefined) {
      return;
    }
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = undefined;
    const keys = Object.keys(this.runs).sort((a, b) => (this.runs[b]?.touched ?? 0) - (this.runs[a]?.touched ?? 0));
    for (const key of keys.slice(MAX_RUNS)) {
      delete this.runs[key];
    }
    this.channel.setState({ v: 1, runs: this.runs, ...(this.tabRunKey !== undefined ? { tabRunKey: this.tabRunKey } : {}) });
  }
}
