/**
 * Whether a run's transcript is in memory (issue #25 §2: history that costs nothing until it is opened). A finished
 * run comes back at connect from its index summary — fields, counts, last line — and is `unloaded`; opening it
 * replays its checkpoint and journal (`runLoading` empties it first, so the replay's sequences are not taken for
 * overlap); once no view shows it, `runReleased` drops the transcript again. Pure: the reducer's helpers.
 */
import type { RunFields, RunSummaryCounts } from './modelActions';
import type { RunDigest, RunInfo } from './modelTypes';
import { runKeyOf } from './runKeys';

/** A run as the model first holds it: no items, no sequence, `starting` until a field says otherwise. */
export function newRun(connectionId: string, runId: string, now: number): RunInfo {
  return {
    key: runKeyOf(connectionId, runId),
    connectionId,
    runId,
    title: runId,
    state: 'starting',
    createdAt: now,
    lastSequence: 0,
    pendingApprovals: [],
    openTools: NO_OPEN_TOOLS,
    itemCount: 0,
  };
}

/** Shared by every new run: the reducer copies a run's map before it changes it (runEditor.ts), never writes it. */
const NO_OPEN_TOOLS: ReadonlyMap<string, string> = new Map();

/** A stored run from its summary: its fields and counts, and what the board shows, no transcript. */
export function summarizedRun(connectionId: string, runId: string, fields: RunFields, summary: RunSummaryCounts, now: number): RunInfo {
  // A connect brings back a thousand of these in one pass: a plain loop, not entries → filter → fromEntries.
  const given: Record<string, unknown> = {};
  for (const name in fields) {
    const value = fields[name as keyof RunFields];
    if (value !== undefined) {
      given[name] = value;
    }
  }
  return {
    ...newRun(connectionId, runId, fields.createdAt ?? now),
    ...given,
    itemCount: summary.itemCount,
    lastSequence: summary.lastSequence,
    ...(summary.usage !== undefined ? { usage: summary.usage } : {}),
    unloaded: summary.digest,
  };
}

/** The run about to be replayed: its fields, none of what its transcript made (the replay makes it again). */
export function loadingRun(run: RunInfo): RunInfo {
  const { unloaded: _digest, openTextId: _t, openReasoningId: _r, openAnonymousToolId: _a, compactionItems: _c, messageItems: _m, redoItemId: _d, ...fields } = run;
  return { ...fields, itemCount: 0, lastSequence: 0, openTools: new Map(), pendingApprovals: [] };
}

/** The run without its transcript: counts and fields stay, streaming books go (a finished run has none open). */
export function releasedRun(run: RunInfo, digest: RunDigest): RunInfo {
  const { openTextId: _t, openReasoningId: _r, openAnonymousToolId: _a, compactionItems: _c, messageItems: _m, redoItemId: _d, ...fields } = run;
  return { ...fields, openTools: new Map(), unloaded: digest };
}
