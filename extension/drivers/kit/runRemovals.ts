/**
 * Removing runs for good (issue #25 §2): *Remove Run*, *Clear Finished Runs…* and the history size limit delete a
 * finished run's files and what goes with them, and the run never comes back — not from a daemon that still lists it
 * (AgencyProxy's `list_runs` names every run since the daemon started), not after a window reload, not from another
 * window of this machine that still shows it. What keeps it out is its id, stored beside the run index by the journal
 * (storage/removedRunsFile.ts) and read by every window: `removed` says so to the driver (the run list's sync skips the
 * run), the door drops model inputs for it (`DriverRuns.record`), the index refuses its entry, no window writes its
 * journal again (its lease is refused), and a window that still shows it drops it when it reads the index
 * (`dropRemovedElsewhere`). A driver whose daemon lists its runs tells when it asked (`beginListing`): an id the daemon
 * no longer lists is forgotten, since that daemon forgot the run (it restarted).
 *
 * A driver that journals nothing (hyperhive: a live mirror of the hive, with nothing stored) keeps removed ids in this
 * window only: its daemon lists only what exists now, and an agent that is back is shown again.
 */
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { RunRemoval, RunWriterWindow } from '../driver';
import type { HistoryDoor } from './runHistory';

export class RunRemovals<C> {
  /** Runs removed in this window, with when (a driver that journals nothing has only these). */
  private readonly removedHere = new Map<string, number>();

  /** What else goes with a removed run, each read before its files are deleted (file checkpoints: turnCheckpoints.ts). */
  private readonly removals: Array<(runId: string) => Promise<() => Promise<void>>> = [];

  constructor(
    private readonly door: HistoryDoor<C>,
    /** The history forgets what it noted of the run (its summary's date). */
    private readonly forgotten: (runId: string) => void,
  ) {}

  /** See RunHistory.onRemoval. */
  onRemoval(prepare: (runId: string) => Promise<() => Promise<void>>): void {
    this.removals.push(prepare);
  }

  /**
   * Whether the run was removed — in this window, or for good in any window of this machine (its id is stored) — and
   * is not shown: a daemon's list that names it, or news for it, must not bring it back.
   */
  removed(runId: string): boolean {
    return this.door.get(runId) === undefined && (this.removedHere.has(runId) || this.removedForGood(runId));
  }

  /** Whether the run was removed for good by a window of this machine and is not shown here (the door drops its news). */
  removedForGood(runId: string): boolean {
    return this.door.journal()?.removals.removed(runId) === true && this.door.get(runId) === undefined;
  }

  /**
   * A driver asks its daemon for its list of runs: call this just before, and the function it returns with the ids the
   * daemon listed. Removed ids the daemon no longer lists are forgotten: removed before the list was asked for and not
   * in it, the daemon forgot the run (it restarted), so nothing can bring it back.
   */
  beginListing(): (listed: Iterable<string>) => Promise<void> {
    const asked = Date.now(); // the clock the stored ids are dated by (RunJournal.removeRun)
    return async (listed) => {
      const names = new Set(listed);
      for (const [runId, at] of this.removedHere) {
        if (at < asked && !names.has(runId)) {
          this.removedHere.delete(runId);
        }
      }
      await this.door.journal()?.removals.releaseRemoved(names, asked);
    };
  }

  /**
   * The person opens a removed run again by name, on purpose (ACP's *Open Agent Session…* picks a session whose run was
   * removed): it is no longer kept out, and comes back as a run taken up afresh.
   */
  async reopen(runId: string): Promise<void> {
    this.removedHere.delete(runId);
    await this.door.journal()?.removals.unremove(runId);
  }

  /**
   * Drops from this window's model the runs another window removed since the index was last read (their files are
   * gone already): out of the model, the driver's books and the editor (draft, selection, tab).
   */
  dropRemovedElsewhere(): void {
    for (const runId of this.door.journal()?.removals.takeRemovedElsewhere() ?? []) {
      if (this.door.get(runId) === undefined) {
        continue;
      }
      this.door.handlers()?.forget(runId);
      this.forgotten(runId);
      this.door.removed(runId);
      this.door.ctx.store.dispatch({ type: 'runRemoved', runKey: this.door.key(runId) });
      this.door.ctx.runRemoved?.(this.door.key(runId));
    }
  }

  /**
   * Follows removals by other windows of this machine (the removed ids' file changing) and drops those runs here at
   * once, whatever the driver (one that follows the run index, AgencyProxy, also drops them at its next read of it).
   * Returns the stop.
   */
  watch(): () => void {
    return this.door.journal()?.removals.watchRemoved(() => this.dropRemovedElsewhere()) ?? (() => undefined);
  }

  /** See RunHistory.remove. */
  async remove(runId: string, loading: Promise<void> | undefined): Promise<RunRemoval> {
    const run = this.door.get(runId);
    if (run && !isTerminalRunState(run.state)) {
      return 'not finished';
    }
    await loading?.catch(() => undefined);
    const removed = await this.deleteStored(runId);
    if (removed !== 'removed') {
      return removed;
    }
    this.door.handlers()?.forget(runId);
    if (run) {
      this.door.ctx.store.dispatch({ type: 'runRemoved', runKey: this.door.key(runId) });
    }
    this.door.ctx.runRemoved?.(this.door.key(runId));
    return 'removed';
  }

  /** See RunHistory.removeStored. */
  async removeStored(runId: string): Promise<'removed' | { readonly heldBy: RunWriterWindow }> {
    const removed = await this.deleteStored(runId);
    if (removed === 'removed') {
      this.door.ctx.runRemoved?.(this.door.key(runId));
    }
    return removed;
  }

  /**
   * Deletes what is stored of a run — its files (its id kept as removed), and everything registered with `onRemoval`
   * and the driver's own `removed` — without looking at the model, so that `remove` and `removeStored` take the same
   * things with the run.
   */
  private async deleteStored(runId: string): Promise<'removed' | { readonly heldBy: RunWriterWindow }> {
    const afterwards = await Promise.all(this.removals.map((prepare) => prepare(runId).catch((error: unknown) => {
      this.door.failed(runId, error);
      return () => Promise.resolve();
    })));
    // Another window of this machine writing it keeps it (its writer would recreate the files): refused, and said.
    const removed = (await this.door.journal()?.removeRun(runId)) ?? { kind: 'removed' };
    if (removed.kind === 'held elsewhere') {
      return { heldBy: { pid: removed.holder.pid, ...(removed.holder.name !== undefined ? { name: removed.holder.name } : {}) } };
    }
    for (const step of afterwards) {
      await step().catch((error: unknown) => this.door.failed(runId, error));
    }
    this.removedHere.set(runId, Date.now());
    this.forgotten(runId);
    this.door.removed(runId);
    return 'removed';
  }
}
