/** A run store with connections and runs, for the run board's projection tests (boardGroups, boardRows). */
import assert from 'node:assert/strict';
import type { BoardOptions, BoardSources } from '../../../extension/model/boardGroups';
import { DEFAULT_FAILED_WINDOW_MS } from '../../../extension/model/boardGroups';
import type { BoardGroup } from '../../../extension/model/boardRows';
import type { RunEvent } from '../../../extension/model/modelActions';
import type { Capability } from '../../../extension/model/modelTypes';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { ProtocolName } from '../../../extension/protocol/protocolNames';
import type { RunState } from '../../../extension/protocol/transcriptTypes';
import { RunStore } from '../../../extension/model/runStore';

export const NOW = 10_000_000;

export function world() {
  let clock = NOW - 1000;
  const store = new RunStore(() => clock, (e) => assert.fail(String(e)));
  const connect = (id: string, name: string, protocol: ProtocolName, capabilities: readonly Capability[], connected = true) => {
    store.dispatch({ type: 'connectionAdded', connection: { id, name, protocol } });
    store.dispatch({ type: 'connectionInfo', connectionId: id, capabilities });
    store.dispatch({ type: 'connectionState', connectionId: id, state: connected ? { kind: 'connected', since: 0 } : { kind: 'disconnected' } });
  };
  const run = (connectionId: string, runId: string, state: RunState, createdAt: number, title = runId) => {
    store.dispatch({ type: 'runUpserted', connectionId, runId, fields: { title, state, createdAt } });
    return runKeyOf(connectionId, runId);
  };
  const event = (runKey: string, e: RunEvent) => store.dispatch({ type: 'runEvent', runKey, event: e });
  const approve = (runKey: string, approvalId: string, at: number) => {
    clock = at;
    event(runKey, { kind: 'approvalRequested', approvalId, title: `Edit ${approvalId}`, detail: {}, summary: `summary ${approvalId}`, options: ['allow_once', 'deny'] });
  };
  return { store, connect, run, event, approve };
}

export const noSources: BoardSources = { lastLine: () => undefined, changeStats: () => undefined, questions: () => 0 };
export const options = (o: Partial<BoardOptions> = {}): BoardOptions => ({ doneLimit: 20, acknowledged: new Set(), failedWindowMs: DEFAULT_FAILED_WINDOW_MS, now: NOW, ...o });
export const keysOf = (groups: readonly BoardGroup[]) => Object.fromEntries(groups.map((g) => [g.id, g.rows.map((r) => r.runKey.split('::')[1])]));

export const AP: readonly Capability[] = ['run.start', 'run.inject', 'run.cancel', 'run.end', 'approvals'];
