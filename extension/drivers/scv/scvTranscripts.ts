/**
 * Durable SCV transcripts: what the driver folds into a session's run is also appended to the run's journal in the
 * extension's storage, so a window reload shows old sessions. SCV has no replay (WIRE.md §2.6), so the journal
 * keeps the model's events (not wire frames): transcript events, gaps and the background-jobs panel. Display-only
 * tool progress is not kept. A session never outlives its connection, so after a reload every session that was
 * still live is marked interrupted and its pending approvals expire. The prompts waiting in a session's queue are
 * kept in its stored run (`extra.queued`) as they change, so when the session ends — a reload included — they are
 * still there to offer to the next session (`scvLeftovers.ts`).
 */
import { join } from 'node:path';
import type { RunEvent } from '../../model/modelActions';
import type { Panel } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import { isTerminalRunState, runStateSchema } from '../../protocol/transcriptTypes';
import { RunJournal, safeFileName } from '../../storage/runJournal';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import { SESSION_RELOADED } from './scvErrorText';
import { parseStoredPrompts, quotePrompts, samePrompts } from './scvLeftovers';
import type { ScvLeftoverPrompt } from './scvLeftovers';

/** One journal line. */
export type ScvJournalRecord =
  | { readonly l: RunEvent }
  | { readonly g: { readonly from: number; readonly to: number; readonly reason: string } }
  | { readonly p: readonly Panel[] };

export class ScvTranscripts {
  private readonly journal: RunJournal;
  private readonly writes = new Set<Promise<void>>();
  private loaded: Promise<void> | undefined;
  /** run id → prompts queued in it that never ran (the live queue while the session lasts). */
  private readonly queued = new Map<string, readonly ScvLeftoverPrompt[]>();

  constructor(private readonly ctx: DriverContext) {
    this.journal = new RunJournal(join(ctx.storageDir, 'transcripts', safeFileName(ctx.connectionId)));
  }

  /** Folds a transcript event into the run and keeps it. */
  event(runId: string, event: RunEvent): void {
    this.ctx.store.dispatch({ type: 'runEvent', runKey: this.keyOf(runId), event });
    if (event.kind !== 'toolProgress') {
      this.append(runId, { l: event });
    }
  }

  /** Events `from`..`to` (the lost seqs, inclusive) never arrived. The model's gap action takes (from, to]. */
  gap(runId: string, from: number, to: number, reason: string): void {
    const g = { from: from - 1, to, reason };
    this.ctx.store.dispatch({ type: 'runGap', runKey: this.keyOf(runId), ...g });
    this.append(runId, { g });
  }

  panels(runId: string, panels: readonly Panel[]): void {
    this.ctx.store.dispatch({ type: 'runPanels', runKey: this.keyOf(runId), panels, merge: true });
    this.append(runId, { p: panels });
  }

  /** The prompts that waited in the run's queue when it was last saved (its leftovers once it ended). */
  queuedOf(runId: string): readonly ScvLeftoverPrompt[] {
    return this.queued.get(runId) ?? [];
  }

  /** Keeps the run's waiting prompts with its stored data (rewritten only when they change). */
  setQueued(runId: string, prompts: readonly ScvLeftoverPrompt[]): void {
    if (samePrompts(this.queuedOf(runId), prompts)) {
      return;
    }
    if (prompts.length > 0) {
      this.queued.set(runId, prompts);
    } else {
      this.queued.delete(runId);
    }
    void this.saveRun(runId);
  }

  /** Records the run's title/model/state and waiting prompts in the index (small; rewritten whole). */
  async saveRun(runId: string): Promise<void> {
    const run = this.ctx.store.state.runs.get(this.keyOf(runId));
    if (!run) {
      return;
    }
    const stored: StoredRun = {
      runId,
      title: run.title,
      ...(run.model !== undefined ? { model: run.model } : {}),
      state: run.state,
      createdAt: run.createdAt,
      ...(run.workspaceRoots ? { workspaceRoots: run.workspaceRoots } : {}),
      ...(this.queued.has(runId) ? { extra: { queued: this.queued.get(runId) } } : {}),
    };
    await this.track(this.journal.saveRun(stored));
  }

  /** Rebuilds the stored sessions once (after a window reload), before the first connect. */
  load(): Promise<void> {
    this.loaded ??= this.loadOnce();
    return this.loaded;
  }

  /** Resolves once everything recorded so far is on disk (or failed and was logged). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.writes]);
  }

  /** Waits for pending writes, then closes the files. */
  async close(): Promise<void> {
    await this.flush();
    await this.journal.close();
  }

  private async loadOnce(): Promise<void> {
    for (const stored of await this.journal.loadRuns()) {
      const key = this.keyOf(stored.runId);
      if (this.ctx.store.state.runs.has(key)) {
        continue; // already shown (the driver was recreated in the same window)
      }
      const parsed = runStateSchema.safeParse(stored.state);
      const state = parsed.success ? parsed.data : 'interrupted';
      this.ctx.store.dispatch({
        type: 'runUpserted',
        connectionId: this.ctx.connectionId,
        runId: stored.runId,
        fields: {
          title: stored.title,
          ...(stored.model !== undefined ? { model: stored.model } : {}),
          state,
          createdAt: stored.createdAt,
          ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}),
        },
      });
      for (const record of await this.journal.readRecords(stored.runId)) {
        this.replay(key, record);
      }
      if (this.ctx.store.state.runs.get(key)?.state !== state) {
        // Replaying must not change what the index says the session ended as.
        this.ctx.store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'stateChanged', state } });
      }
      for (const approvalId of this.ctx.store.state.runs.get(key)?.pendingApprovals ?? []) {
        this.ctx.store.dispatch({ type: 'runEvent', runKey: key, event: { kind: 'approvalSettled', approvalId, expired: true, reason: 'Its SCV session ended with the earlier window.' } });
      }
      const queued = parseStoredPrompts(stored.extra?.['queued']);
      if (queued.length > 0) {
        this.queued.set(stored.runId, queued);
      }
      if (!isTerminalRunState(state)) {
        if (queued.length > 0) {
          this.event(stored.runId, { kind: 'notice', level: 'warning', text: neverRanNotice(queued) });
        }
        this.event(stored.runId, { kind: 'stateChanged', state: 'interrupted', detail: SESSION_RELOADED, announce: true });
        await this.saveRun(stored.runId);
      }
    }
  }

  private replay(runKey: string, record: unknown): void {
    if (record === null || typeof record !== 'object') {
      return;
    }
    const r = record as Partial<Record<'l' | 'g' | 'p', unknown>>;
    if (r.l !== null && typeof r.l === 'object' && typeof (r.l as { kind?: unknown }).kind === 'string') {
      this.ctx.store.dispatch({ type: 'runEvent', runKey, event: r.l as RunEvent, restored: true });
    } else if (r.g !== null && typeof r.g === 'object') {
      const g = r.g as { from?: unknown; to?: unknown; reason?: unknown };
      if (typeof g.from === 'number' && typeof g.to === 'number') {
        this.ctx.store.dispatch({ type: 'runGap', runKey, from: g.from, to: g.to, reason: typeof g.reason === 'string' ? g.reason : 'events lost' });
      }
    } else if (Array.isArray(r.p)) {
      this.ctx.store.dispatch({ type: 'runPanels', runKey, panels: r.p as Panel[], merge: true });
    }
  }

  private append(runId: string, record: ScvJournalRecord): void {
    void this.track(this.journal.append(runId, record));
  }

  private track(write: Promise<void>): Promise<void> {
    const tracked = write.catch((error: unknown) => this.ctx.log.error(`Could not store SCV session ${this.ctx.connectionId}: ${String(error)}`));
    this.writes.add(tracked);
    void tracked.finally(() => this.writes.delete(tracked));
    return tracked;
  }

  private keyOf(runId: string): string {
    return runKeyOf(this.ctx.connectionId, runId);
  }
}

/** Said on a session that ended with prompts still queued. */
export function neverRanNotice(prompts: readonly ScvLeftoverPrompt[]): string {
  return `These queued prompts never ran: ${quotePrompts(prompts)}. They are kept: the next SCV session here offers to queue them.`;
}
