/**
 * Durable SCV transcripts: what the driver folds into a session's run is also appended to the run's journal in the
 * extension's storage (the kit's record format, kit/journalRecords.ts), so a window reload shows old sessions: the
 * model's events, gaps and the background-jobs panel. Display-only tool progress is not kept. SCV has no replay
 * (WIRE.md §2.6) and a session never outlives its connection, so nothing is resumed (no cursor): after a reload
 * every session that was still live is marked interrupted and its pending approvals expire. 0.1.0's lines (`{l}`,
 * `{g}`, `{p}`) were model inputs already and load as they are. The prompts waiting in a session's queue are kept
 * in its stored run (`extra.queued`) as they change, so when the session ends — a reload included — they are
 * still there to offer to the next session (`scvLeftovers.ts`).
 */
import * as z from 'zod/mini';
import type { RunEvent } from '../../model/modelActions';
import type { Panel } from '../../model/modelTypes';
import { runKeyOf } from '../../model/modelTypes';
import type { RunState } from '../../protocol/transcriptTypes';
import { isTerminalRunState, runStateSchema } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverContext } from '../connectionManager';
import type { LegacyDecoder } from '../kit/runRecorder';
import { connectionRecorder } from '../kit/connectionJournal';
import type { RunRecorder } from '../kit/runRecorder';
import { SESSION_RELOADED } from './scvErrorText';
import { parseStoredPrompts, quotePrompts, samePrompts } from './scvLeftovers';
import type { ScvLeftoverPrompt } from './scvLeftovers';

export class ScvTranscripts {
  private readonly journal: RunRecorder;
  private readonly writes = new Set<Promise<void>>();
  private loaded: Promise<void> | undefined;
  /** run id → prompts queued in it that never ran (the live queue while the session lasts). */
  private readonly queued = new Map<string, readonly ScvLeftoverPrompt[]>();

  constructor(private readonly ctx: DriverContext) {
    this.journal = connectionRecorder(ctx, z.never());
  }

  /** Folds a transcript event into the run and keeps it. */
  event(runId: string, event: RunEvent): void {
    if (event.kind === 'toolProgress') {
      this.ctx.store.dispatch({ type: 'runEvent', runKey: this.keyOf(runId), event });
    } else {
      void this.track(this.journal.event(runId, event));
    }
  }

  /** Events `from`..`to` (the lost seqs, inclusive) never arrived. The model's gap action takes (from, to]. */
  gap(runId: string, from: number, to: number, reason: string): void {
    void this.track(this.journal.gap(runId, from - 1, to, reason));
  }

  panels(runId: string, panels: readonly Panel[]): void {
    void this.track(this.journal.panels(runId, panels));
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
    const stateOf = (stored: StoredRun) => {
      const parsed = runStateSchema.safeParse(stored.state);
      return parsed.success ? parsed.data : 'interrupted';
    };
    await this.journal.replay({
      open: (stored) => {
        if (this.ctx.store.state.runs.has(this.keyOf(stored.runId))) {
          return undefined; // already shown (the driver was recreated in the same window)
        }
        return {
          title: stored.title,
          ...(stored.model !== undefined ? { model: stored.model } : {}),
          state: stateOf(stored),
          createdAt: stored.createdAt,
          ...(stored.workspaceRoots ? { workspaceRoots: stored.workspaceRoots } : {}),
        };
      },
      legacy: () => legacyScvDecoder,
      close: (stored) => this.sessionRestored(stored, stateOf(stored)),
    });
  }

  /** After a stored session's records: it ended with the earlier window, whatever it was doing. */
  private async sessionRestored(stored: StoredRun, state: RunState): Promise<void> {
    const key = this.keyOf(stored.runId);
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

/** 0.1.0's lines, `{l: event}`, `{g: gap}`, `{p: panels}`: already model inputs, only re-keyed. */
export const legacyScvDecoder: LegacyDecoder = (line) => {
  if (line === null || typeof line !== 'object') {
    return undefined;
  }
  const r = line as { readonly l?: unknown; readonly g?: unknown; readonly p?: unknown };
  if (r.l !== undefined) {
    return [{ v: 2, e: r.l }];
  }
  if (r.g !== null && typeof r.g === 'object') {
    const g = r.g as { readonly reason?: unknown };
    return [{ v: 2, g: { ...g, reason: typeof g.reason === 'string' ? g.reason : 'events lost' } }];
  }
  return r.p !== undefined ? [{ v: 2, p: r.p }] : undefined;
};

/** Said on a session that ended with prompts still queued. */
export function neverRanNotice(prompts: readonly ScvLeftoverPrompt[]): string {
  return `These queued prompts never ran: ${quotePrompts(prompts)}. They are kept: the next SCV session here offers to queue them.`;
}
