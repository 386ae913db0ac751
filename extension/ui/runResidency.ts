/**
 * Which runs' transcripts are in memory (issue #25 §2). A finished run comes back at connect from its summary; the
 * first surface that shows it (the transcript view, a tab, a change set) asks for it here and its driver replays it.
 * A run loaded that way is released again once no view has shown it for a while (GRACE_MS, so flipping between runs
 * does not replay them over and over) — never a live run or one waiting for a person (the driver refuses those).
 * Runs loaded at connect (live, waiting, or without a summary yet) are never released by this: only what it loaded.
 */
import type { ConnectionManager } from '../drivers/connectionManager';
import type { RunStore } from '../model/runStore';
import { runKeyParts } from '../model/runKeys';
import { Disposable } from './disposable';

/** How long a run nobody shows keeps its transcript. */
export const GRACE_MS = 60_000;

export class RunResidency extends Disposable {
  /** Runs this service had loaded, with when a view last showed them. */
  private readonly loadedHere = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly connections: Pick<ConnectionManager, 'driver'>,
    /** The runs some view shows now (the transcript view's, the tabs'). */
    private readonly shown: () => Iterable<string>,
    private readonly log: { warn(message: string): void },
    private readonly graceMs = GRACE_MS,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this._register({ dispose: () => this.timer !== undefined && clearTimeout(this.timer) });
  }

  /**
   * Whether the run is shown from its summary (its transcript not in memory), or stored but older than what the model
   * holds (drivers/kit/olderRuns.ts: not in the model at all).
   */
  isUnloaded(runKey: string): boolean {
    const run = this.store.state.runs.get(runKey);
    return run ? run.unloaded !== undefined : this.olderOf(runKey) !== undefined;
  }

  /**
   * Brings the run's transcript into the store if it is not there — and the run itself when it is stored but older
   * than what the model holds (a command given its key, a restored tab) — resolving once it is (or could not be).
   */
  async ensureLoaded(runKey: string): Promise<void> {
    const older = this.store.state.runs.has(runKey) ? undefined : this.olderOf(runKey);
    if (older) {
      await this.load(older.connectionId, older.runId, runKey);
    }
    const run = this.store.state.runs.get(runKey);
    if (!run) {
      return;
    }
    if (this.loadedHere.has(runKey) || run.unloaded !== undefined) {
      this.loadedHere.set(runKey, this.now());
      this.arm();
    }
    if (run.unloaded !== undefined) {
      await this.load(run.connectionId, run.runId, run.title);
    }
  }

  private async load(connectionId: string, runId: string, what: string): Promise<void> {
    try {
      await this.connections.driver(connectionId)?.history?.load(runId);
    } catch (error) {
      this.log.warn(`Could not load the transcript of ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The run's parts when its driver lists it older (stored, not in the model). */
  private olderOf(runKey: string): { readonly connectionId: string; readonly runId: string } | undefined {
    const parts = runKeyParts(runKey);
    return parts && this.connections.driver(parts.connectionId)?.history?.isOlder(parts.runId) ? parts : undefined;
  }

  /** Releases the runs it loaded that no view showed for the grace period (the timer calls it; tests may too). */
  async sweep(): Promise<void> {
    const shown = new Set(this.shown());
    const now = this.now();
    for (const [runKey, seenAt] of [...this.loadedHere]) {
      const run = this.store.state.runs.get(runKey);
      if (!run || run.unloaded !== undefined) {
        this.loadedHere.delete(runKey); // removed, or released by someone else
        continue;
      }
      if (shown.has(runKey)) {
        this.loadedHere.set(runKey, now);
        continue;
      }
      if (now - seenAt < this.graceMs) {
        continue;
      }
      const released = await this.connections.driver(run.connectionId)?.history?.release(run.runId).catch(() => false);
      if (released || !this.store.state.runs.has(runKey)) {
        this.loadedHere.delete(runKey);
      } else {
        this.loadedHere.set(runKey, now); // live again, or waiting: asked again after another grace period
      }
    }
    this.arm();
  }

  /** A timer only while some run it loaded is still in memory. */
  private arm(): void {
    if (this.timer !== undefined || this.loadedHere.size === 0 || this.isDisposed) {
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sweep();
    }, this.graceMs);
  }
}
