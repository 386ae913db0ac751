/**
 * What SCV keeps of its sessions across a window reload, besides what the kit's door journals for every run (the
 * model's events, gaps and the background-jobs panel; display-only tool progress is not kept): the prompts waiting
 * in a session's queue, kept in its stored run (`extra.queued`) as they change, so when the session ends — a reload
 * included — they are still there to offer to the next session (`scvLeftovers.ts`), and how a stored session comes
 * back. SCV has no replay (WIRE.md §2.6) and a session never outlives its connection, so nothing is resumed (no
 * cursor): after a reload every session that was still live is marked interrupted and its pending approvals
 * expire. 0.1.0's lines (`{l}`, `{g}`, `{p}`) were model inputs already and load as they are.
 */
import type { RunState } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';
import type { StoredRun } from '../../storage/runJournal';
import type { DriverRuns } from '../kit/driverRuns';
import type { LegacyDecoder } from '../kit/runRecorder';
import type { RestorePolicy, RestoredRun } from '../kit/runJournaling';
import { storedStateOf } from '../kit/runJournaling';
import { SESSION_RELOADED } from './scvErrorText';
import { parseStoredPrompts, quotePrompts, samePrompts } from './scvLeftovers';
import type { ScvLeftoverPrompt } from './scvLeftovers';

export class ScvStoredSessions {
  /** run id → prompts queued in it that never ran (the live queue while the session lasts). */
  private readonly queued = new Map<string, readonly ScvLeftoverPrompt[]>();

  constructor(private readonly runs: DriverRuns) {}

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

  /** The run was removed: its prompts are not offered to anyone any more. */
  forget(runId: string): void {
    this.queued.delete(runId);
  }

  /** Records the run's fields and waiting prompts in the index (small; rewritten whole). */
  saveRun(runId: string): Promise<void> {
    return this.runs.saveRun(runId, this.queued.has(runId) ? { queued: this.queued.get(runId) } : undefined);
  }

  /**
   * How a stored session comes back: as it ended, unless the reload ended it (DriverRuns.replay). Lazily: a session
   * that had ended (completed, failed, canceled, interrupted, lost — nothing can resume an SCV session) comes back
   * from its summary, its transcript when it is opened; its leftover prompts are read from the index entry at
   * connect, so the next session is offered them all the same.
   */
  restorePolicy(): RestorePolicy<never> {
    return {
      open: (stored) => {
        if (this.runs.get(stored.runId) !== undefined) {
          return false; // already shown (the driver was recreated in the same window)
        }
        const queued = parseStoredPrompts(stored.extra?.['queued']);
        if (queued.length > 0) {
          this.queued.set(stored.runId, queued);
        }
        return true;
      },
      // Replaying must not change what the index says the session ended as.
      state: 'as indexed',
      lazy: true,
      legacy: () => legacyScvDecoder,
      restored: (stored) => this.sessionRestored(stored, storedStateOf(stored)),
    };
  }

  /** After a stored session's records: it ended with the earlier window, whatever it was doing. */
  private async sessionRestored(stored: StoredRun, state: RunState): Promise<RestoredRun> {
    const expire = 'Its SCV session ended with the earlier window.';
    const queued = this.queuedOf(stored.runId);
    if (isTerminalRunState(state)) {
      return { expire };
    }
    await this.runs.expireApprovals(stored.runId, expire);
    if (queued.length > 0) {
      await this.runs.event(stored.runId, { kind: 'notice', level: 'warning', text: neverRanNotice(queued) });
    }
    await this.runs.event(stored.runId, { kind: 'stateChanged', state: 'interrupted', detail: SESSION_RELOADED, announce: true });
    await this.saveRun(stored.runId);
    return {};
  }
}

/** 0.1.0's lines, `{l: event}`, `{g: gap}`, `{p: panels}`: already model inputs, only re-keyed. */
export const legacyScvDecoder: LegacyDecoder = (line) => {
  if (line === null || typeof line !== 'object') {
    return undefined;
  }
  const r = line as { readonly l?: unknown; readonly g?: unknown; readonly p?: unknown };
  if (r.l !== undefined) {
    return [{ event: r.l }];
  }
  if (r.g !== null && typeof r.g === 'object') {
    const g = r.g as { readonly reason?: unknown };
    return [{ gap: { ...g, reason: typeof g.reason === 'string' ? g.reason : 'events lost' } }];
  }
  return r.p !== undefined ? [{ panels: r.p }] : undefined;
};

/** Said on a session that ended with prompts still queued. */
export function neverRanNotice(prompts: readonly ScvLeftoverPrompt[]): string {
  return `These queued prompts never ran: ${quotePrompts(prompts)}. They are kept: the next SCV session here offers to queue them.`;
}
