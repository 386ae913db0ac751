/**
 * The one reducer: `reduce(state, action, now)` returns the next model state and the transcript patches the action
 * produced. Pure: no I/O, no clocks (the caller passes `now`), no mutation of its inputs. The tables are persistent
 * maps (persistentMap.ts): changing one run copies one path of a trie, never the table, so an action costs the same
 * with 10 runs loaded or 1,000 (a replay is linear in the records replayed, issue #25); transcripts change only
 * through the patches.
 */
import type { TranscriptPatch } from '../protocol/transcriptTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import type { ModelAction, RunFields } from './modelActions';
import type { ConnectionInfo, ModelState, Panel, RunInfo } from './modelTypes';
import { approvalKeyOf, runKeyOf } from './runKeys';
import { applyApprovalChange } from './approvalLifecycle';
import { RunEditor } from './runEditor';
import { restoredApprovals, restoredRun } from './runCheckpoint';
import { endToolsOnTerminal, reduceRunEvent } from './runEventReducer';
import type { ReduceResult } from './runEventAction';
import { mergeRunResult, reduceRunEventAction, unchanged, withRun } from './runEventAction';
import { PersistentMap } from './persistentMap';
import { loadingRun, newRun, releasedRun, summarizedRun } from './runResidency';

/** The entries of `map` that `keep` accepts (a new table: used where a whole connection or run goes). */
function filtered<V>(map: ReadonlyMap<string, V>, keep: (key: string, value: V) => boolean): PersistentMap<string, V> {
  let out = PersistentMap.from(map);
  for (const [key, value] of map) {
    if (!keep(key, value)) {
      out = out.delete(key);
    }
  }
  return out;
}

/**
 * Whether upserting `fields` would leave `run` as it is: every given field already has that value, and a terminal
 * state (which ends the run's open tool calls) has none left to end.
 */
function sameFields(run: RunInfo, fields: RunFields): boolean {
  const current = run as unknown as Readonly<Record<string, unknown>>;
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && current[name] !== value) {
      return false;
    }
  }
  return fields.state === undefined || !isTerminalRunState(fields.state) || (run.openTools.size === 0 && run.openAnonymousToolId === undefined);
}

function withConnection(state: ModelState, connection: ConnectionInfo): ModelState {
  return { ...state, connections: PersistentMap.from(state.connections).set(connection.id, connection) };
}

export function reduce(state: ModelState, action: ModelAction, now: number): ReduceResult {
  switch (action.type) {
    case 'connectionAdded': {
      const existing = state.connections.get(action.connection.id);
      const connection: ConnectionInfo = existing
        ? { ...existing, ...action.connection }
        : { ...action.connection, state: { kind: 'idle' }, capabilities: [] };
      return { state: withConnection(state, connection), patches: [], changed: true };
    }
    case 'connectionRemoved': {
      if (!state.connections.has(action.connectionId)) {
        return unchanged(state);
      }
      const connections = PersistentMap.from(state.connections).delete(action.connectionId);
      const runs = filtered(state.runs, (_, r) => r.connectionId !== action.connectionId);
      const approvals = filtered(state.approvals, (_, a) => runs.has(a.runKey));
      const changeSets = filtered(state.changeSets, (k) => runs.has(k));
      return { state: { connections, runs, approvals, changeSets }, patches: [], changed: true };
    }
    case 'connectionState': {
      const connection = state.connections.get(action.connectionId);
      if (!connection) {
        return unchanged(state);
      }
      return { state: withConnection(state, { ...connection, state: action.state }), patches: [], changed: true };
    }
    case 'connectionInfo': {
      const connection = state.connections.get(action.connectionId);
      if (!connection) {
        return unchanged(state);
      }
      const next: ConnectionInfo = {
        ...connection,
        ...(action.capabilities !== undefined ? { capabilities: action.capabilities } : {}),
        ...(action.serverDescription !== undefined ? { serverDescription: action.serverDescription } : {}),
        ...(action.details !== undefined ? { details: action.details } : {}),
        ...(action.warning !== undefined ? { warning: action.warning } : {}),
      };
      return { state: withConnection(state, next), patches: [], changed: true };
    }
    case 'runUpserted': {
      const key = runKeyOf(action.connectionId, action.runId);
      const existing = state.runs.get(key);
      if (existing !== undefined && sameFields(existing, action.fields)) {
        // Drivers restate fields with many events (a tool call says "running" again): no copy, no view refresh.
        return unchanged(state);
      }
      const run = existing ?? newRun(action.connectionId, action.runId, action.fields.createdAt ?? now);
      const fields = Object.fromEntries(Object.entries(action.fields).filter(([, v]) => v !== undefined));
      const ed = new RunEditor({ ...run, ...fields });
      if (action.fields.state !== undefined) {
        // Drivers also end runs through their fields (ACP's interrupted turn, SCV's stored sessions).
        endToolsOnTerminal(ed, action.fields.state);
      }
      const patches = ed.patches.map((patch) => ({ runKey: key, patch }));
      return { state: withRun(state, ed.run), patches, changed: true };
    }
    case 'runRemoved': {
      if (!state.runs.has(action.runKey)) {
        return unchanged(state);
      }
      const runs = PersistentMap.from(state.runs).delete(action.runKey);
      // Settled approvals are on no list of the run: a removal is rare (a person's act), a scan is fine here.
      const approvals = filtered(state.approvals, (_, a) => a.runKey !== action.runKey);
      const changeSets = PersistentMap.from(state.changeSets).delete(action.runKey);
      return { state: { ...state, runs, approvals, changeSets }, patches: [], changed: true };
    }
    case 'runRestored': {
      const key = runKeyOf(action.connectionId, action.runId);
      // A run restored for the first time has no approvals to drop: no scan of every run's approvals per restore.
      let approvals = state.runs.has(key) ? filtered(state.approvals, (_, a) => a.runKey !== key) : PersistentMap.from(state.approvals);
      const restored = restoredRun(action.connectionId, action.runId, key, action.checkpoint.run);
      if (action.unloaded) {
        // Shown from its digest: its settled approvals are transcript rows, and come back with it.
        return { state: { ...withRun(state, releasedRun(restored, action.unloaded)), approvals }, patches: [], changed: true };
      }
      for (const approval of restoredApprovals(key, action.checkpoint.approvals)) {
        approvals = approvals.set(approval.key, approval);
      }
      // The transcript is the store's to install (RunStore.dispatch): no patches for items restored whole.
      return { state: { ...withRun(state, restored), approvals }, patches: [], changed: true };
    }
    case 'runEvent':
      return reduceRunEventAction(state, action.runKey, action.sequence, action.firstSequence, action.event, now, action.restored === true);
    case 'runGap': {
      const run = state.runs.get(action.runKey);
      if (!run || action.to <= action.from) {
        return unchanged(state);
      }
      const closed = reduceRunEvent(run, { kind: 'messageBoundary' }, state.approvals, now);
      const id = `g${closed.run.itemCount}`;
      const patch: TranscriptPatch = {
        op: 'add',
        item: { id, kind: 'gap', from: action.from + 1, to: action.to, reason: action.reason },
      };
      const next = { ...closed.run, itemCount: closed.run.itemCount + 1, lastSequence: Math.max(run.lastSequence, action.to) };
      const patches = [...closed.patches, patch].map((p) => ({ runKey: run.key, patch: p }));
      return { state: withRun(state, next), patches, changed: true };
    }
    case 'runQueue': {
      const run = state.runs.get(action.runKey);
      if (!run) {
        return unchanged(state);
      }
      const next: RunInfo = { ...run, queue: action.queue, ...(action.paused !== undefined ? { queuePaused: action.paused } : {}) };
      return { state: withRun(state, next), patches: [], changed: true };
    }
    case 'runPanels': {
      const run = state.runs.get(action.runKey);
      if (!run) {
        return unchanged(state);
      }
      let panels: readonly Panel[] = action.panels;
      if (action.merge) {
        const replaced = new Map(action.panels.map((p) => [p.id, p]));
        panels = [...(run.panels ?? []).map((p) => replaced.get(p.id) ?? p), ...action.panels.filter((p) => !(run.panels ?? []).some((q) => q.id === p.id))];
      }
      return { state: withRun(state, { ...run, panels }), patches: [], changed: true };
    }
    case 'approvalChange': {
      const run = state.runs.get(action.runKey);
      const approval = run && state.approvals.get(approvalKeyOf(run.key, action.approvalId));
      if (!run || !approval) {
        return unchanged(state);
      }
      const ed = new RunEditor(run);
      applyApprovalChange(ed, approval, action.change);
      return mergeRunResult(state, run, [], ed);
    }
    case 'runsSummarized': {
      let runs = PersistentMap.from(state.runs);
      for (const { runId, fields, summary } of action.runs) {
        const key = runKeyOf(action.connectionId, runId);
        if (!runs.has(key)) {
          runs = runs.set(key, summarizedRun(action.connectionId, runId, fields, summary, now)); // a summary never replaces a transcript
        }
      }
      const connection = state.connections.get(action.connectionId);
      const older = action.olderRuns !== undefined && connection && connection.olderRuns !== action.olderRuns ? { ...connection, olderRuns: action.olderRuns } : undefined;
      if (runs === state.runs && !older) {
        return unchanged(state);
      }
      return { state: { ...(older ? withConnection(state, older) : state), runs }, patches: [], changed: true };
    }
    case 'runLoading': {
      const run = state.runs.get(action.runKey);
      if (run && !run.unloaded && action.again === true) {
        const approvals = filtered(state.approvals, (_, a) => a.runKey !== action.runKey);
        return { state: { ...withRun(state, loadingRun(run)), approvals }, patches: [], changed: true };
      }
      return run?.unloaded ? { state: withRun(state, loadingRun(run)), patches: [], changed: true } : unchanged(state);
    }
    case 'runReleased': {
      const run = state.runs.get(action.runKey);
      if (!run || run.unloaded || run.pendingApprovals.length > 0) {
        return unchanged(state); // a run waiting for a person keeps its transcript
      }
      // Its settled approvals are transcript rows: they go with it (a replay brings them back).
      const approvals = filtered(state.approvals, (_, a) => a.runKey !== action.runKey);
      return { state: { ...withRun(state, releasedRun(run, action.digest)), approvals }, patches: [], changed: true };
    }
    case 'changeSet': {
      const changeSets = PersistentMap.from(state.changeSets).set(action.changeSet.runKey, action.changeSet);
      return { state: { ...state, changeSets }, patches: [], changed: true };
    }
    default: {
      const _exhaustive: never = action;
      return _exhaustive;
    }
  }
}
