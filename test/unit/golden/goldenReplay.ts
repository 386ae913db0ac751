/**
 * The replay of each golden stream (test/golden/<daemon>/*.frames.jsonl, recorded from the reference daemons by
 * recordGolden.ts) through that driver's own parser and event mapping into a real RunStore. Used by golden.test.ts
 * (the transcript must equal the recorded text) and goldenWebview.test.ts (the store's patch stream must fold into
 * the webview's TranscriptStore without a resync).
 *
 * The fold around each mapping is the driver's, kept to what shapes the transcript (one sequence per wire event,
 * fields merged after it); connection handling, storage, acks and change sets are the drivers' own tests' business.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { mapA3sEvent, mapA3sRunState, newA3sMappingState } from '../../../extension/drivers/a3s/a3sEventMapping';
import { mapAcpUpdate, newAcpMappingState } from '../../../extension/drivers/acp/acpEventMapping';
import { planPanel } from '../../../extension/drivers/acp/acpPlanPanel';
import { mapAgencyProxyEvent, mapRunState } from '../../../extension/drivers/agencyProxy/eventMapping';
import { InboxTracker } from '../../../extension/drivers/hive/hiveMapping';
import { mapScvEvent } from '../../../extension/drivers/scv/scvEventMapping';
import type { RunEvent, RunFields } from '../../../extension/model/modelActions';
import { runKeyOf } from '../../../extension/model/modelTypes';
import type { ProtocolName } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import { A3sEventPageSchema, decodeA3sEvent } from '../../../extension/protocol/a3s';
import { parseServerFrame } from '../../../extension/protocol/agencyProxy';
import { isTerminalRunState } from '../../../extension/protocol/transcriptTypes';
import type { RunState } from '../../../extension/protocol/transcriptTypes';
import { InboxRow, lenientArray } from '../../../extension/protocol/hive';
import { parseScvServerEvent } from '../../../extension/protocol/scv';
import type { GoldenFrame } from './goldenKit';

const C = 'golden';

/** A store for replaying one golden stream (its connection is added by the replay). */
export function goldenStore(): RunStore {
  return new RunStore(() => 0);
}

/** The store's one connection, and the fold every driver does: events (the first one with the sequence), then fields. */
function storeFor(store: RunStore, protocol: ProtocolName) {
  store.dispatch({ type: 'connectionAdded', connection: { id: C, name: 'golden', protocol } });
  const ensure = (runId: string, fields: RunFields) => {
    if (!store.state.runs.has(runKeyOf(C, runId))) {
      store.dispatch({ type: 'runUpserted', connectionId: C, runId, fields });
    }
  };
  const fold = (runId: string, sequence: number | undefined, events: readonly RunEvent[], fields?: RunFields) => {
    const runKey = runKeyOf(C, runId);
    // A wire event that maps to nothing still takes its sequence (as the drivers do), so no false gap appears.
    const list = events.length > 0 || sequence === undefined ? events : [{ kind: 'messageBoundary' } as const];
    list.forEach((event, i) => store.dispatch({ type: 'runEvent', runKey, ...(i === 0 && sequence !== undefined ? { sequence } : {}), event }));
    if (fields) {
      store.dispatch({ type: 'runUpserted', connectionId: C, runId, fields });
    }
  };
  return { store, ensure, fold };
}

const incoming = (frames: readonly GoldenFrame[]) => frames.filter((f) => f.dir === 'in');

function replayAgencyProxy(frames: readonly GoldenFrame[], store: RunStore): RunStore {
  const { ensure, fold } = storeFor(store, 'agency-proxy');
  let ended: string | undefined;
  for (const f of frames) {
    if (f.dir === 'out') {
      const out = f.frame as { type?: string; run_id?: string; approval_id?: string; decision?: 'allow_once' | 'allow_similar' | 'deny'; request?: { prompt?: string } };
      // The user's prompt and decisions are the driver's own items: taken from the frames it sent (the recording
      // decided through decideApproval's default surface, the palette).
      if (out.type === 'start_run' && out.run_id && out.request?.prompt !== undefined) {
        ensure(out.run_id, { title: out.request.prompt, state: 'starting' });
        fold(out.run_id, undefined, [{ kind: 'userPrompt', text: out.request.prompt }]);
      } else if (out.type === 'decide_approval' && out.run_id && out.approval_id && out.decision) {
        fold(out.run_id, undefined, [{ kind: 'approvalSettled', approvalId: out.approval_id, decision: out.decision, by: 'palette' }]);
      }
      continue;
    }
    const parsed = parseServerFrame(f.frame);
    if (parsed.ok && parsed.frame.kind === 'response' && parsed.frame.type === 'runs' && ended !== undefined) {
      // After a terminal event the driver re-reads the run list for the exact final state.
      const snapshot = parsed.frame.runs.find((r) => r.runId === ended);
      if (snapshot) {
        const { state, detail } = mapRunState(snapshot.state);
        fold(ended, undefined, [{ kind: 'stateChanged', state, ...(detail ? { detail } : {}), announce: true }]);
        ended = undefined;
      }
    }
    if (!parsed.ok || parsed.frame.kind !== 'event') {
      continue;
    }
    const { run_id: runId, sequence, event } = parsed.frame;
    ensure(runId, { title: runId, state: 'running' });
    if (sequence <= store.state.runs.get(runKeyOf(C, runId))!.lastSequence) {
      continue;
    }
    const mapped = mapAgencyProxyEvent(event);
    fold(runId, sequence, mapped.events, mapped.fields);
    ended = mapped.terminal ? runId : ended;
  }
  return store;
}

function replayScv(frames: readonly GoldenFrame[], store: RunStore): RunStore {
  const { ensure, fold } = storeFor(store, 'scv');
  const prompts = new Map<string, string>();
  const toolArguments = new Map<string, unknown>();
  let runId: string | undefined;
  for (const f of frames) {
    const out = f.dir === 'out' ? (f.frame as { type?: string; request_id?: string; prompt?: string; approval_id?: string; approved?: boolean }) : undefined;
    if (out?.type === 'turn.start' && out.request_id !== undefined && out.prompt !== undefined) {
      prompts.set(out.request_id, out.prompt);
    }
    if (out?.type === 'approval.resolve' && runId !== undefined && out.approval_id !== undefined) {
      // SCV has no reply to a decision: the driver records the one it sent (recorded from the palette default).
      fold(runId, undefined, [{ kind: 'approvalSettled', approvalId: out.approval_id, decision: out.approved ? 'allow_once' : 'deny', by: 'palette' }]);
    }
    if (f.dir !== 'in') {
      continue;
    }
    const parsed = parseScvServerEvent(f.frame);
    if (!parsed.ok) {
      continue;
    }
    const event = parsed.event;
    if (event.type === 'session.started') {
      runId = event.session_id;
      ensure(runId, { title: `SCV session ${event.session_id}`, model: event.model, state: 'idle' });
      continue;
    }
    if (runId === undefined || !('session_id' in event) || event.session_id !== runId) {
      continue;
    }
    if (event.type === 'tool.proposed') {
      toolArguments.set(event.call_id, event.arguments);
    }
    const mapped = mapScvEvent(event, {
      turnPrompt: (started) => {
        const text = prompts.get(started.request_id);
        return text === undefined ? undefined : { text };
      },
      toolArguments: (callId) => toolArguments.get(callId),
    });
    // SCV's seq is checked by the client (gaps become runGap); the model folds its events unsequenced.
    fold(runId, undefined, mapped.events, mapped.state ? { state: mapped.state } : undefined);
  }
  return store;
}

function replayA3s(frames: readonly GoldenFrame[], store: RunStore): RunStore {
  const { ensure, fold } = storeFor(store, 'a3s');
  const mapping = newA3sMappingState();
  let last: { runId: string; state: RunState } | undefined;
  for (const f of frames) {
    const out = f.dir === 'out' ? (f.frame as { action?: string; request?: { prompt?: string; identity?: { run_id?: string } } }) : undefined;
    const started = out?.action === 'start' ? out.request : undefined;
    if (started?.identity?.run_id && started.prompt !== undefined) {
      ensure(started.identity.run_id, { title: started.prompt, state: 'starting' });
      fold(started.identity.run_id, undefined, [{ kind: 'userPrompt', text: started.prompt }]);
    }
    if (f.dir !== 'in' || f.http?.path !== '/v1/agent/events:page') {
      continue;
    }
    const page = A3sEventPageSchema.safeParse(f.frame);
    if (!page.success) {
      continue;
    }
    const runId = page.data.identity.run_id;
    ensure(runId, { title: runId, state: 'starting' });
    for (const record of page.data.events) {
      // 0-based on the wire, 1-based in the model; pages overlap when a poll re-reads.
      if (record.sequence + 1 > store.state.runs.get(runKeyOf(C, runId))!.lastSequence) {
        fold(runId, record.sequence + 1, mapA3sEvent(decodeA3sEvent(record), mapping).events);
      }
    }
    const { state, detail } = mapA3sRunState(page.data.state);
    last = { runId, state };
    if (!isTerminalRunState(state)) {
      fold(runId, undefined, [], { state, stateDetail: detail ?? '' });
    }
  }
  // The driver announces the final state once every page is read.
  if (last && isTerminalRunState(last.state)) {
    fold(last.runId, undefined, [{ kind: 'stateChanged', state: last.state, announce: true }]);
  }
  return store;
}

function replayHive(frames: readonly GoldenFrame[], agent: string, store: RunStore): RunStore {
  const { ensure, fold } = storeFor(store, 'hive');
  const inbox = new InboxTracker();
  const rows = lenientArray(InboxRow);
  ensure(agent, { title: agent, state: 'running' });
  for (const f of incoming(frames)) {
    const reply = f.frame as { kind?: string; rows?: unknown };
    if (reply.kind === 'recent') {
      // `recent` is a newest-first window; the tracker folds in the rows not shown yet, oldest first.
      fold(agent, undefined, inbox.take(rows.parse(reply.rows)));
    }
  }
  return store;
}

/** ACP: every `session/update` the agent sent, through the driver's mapping; the plan becomes the plan panel. */
function replayAcp(frames: readonly GoldenFrame[], store: RunStore): RunStore {
  const { ensure, fold } = storeFor(store, 'acp');
  const mapping = newAcpMappingState();
  for (const f of incoming(frames)) {
    const message = f.frame as { method?: string; params?: { sessionId?: string; update?: SessionUpdate } };
    if (message.method !== 'session/update' || !message.params?.sessionId || !message.params.update) {
      continue;
    }
    const runId = message.params.sessionId;
    ensure(runId, { title: 'session', state: 'running' });
    const { events, effects } = mapAcpUpdate(mapping, message.params.update);
    fold(runId, undefined, [...events]);
    if (effects.plan) {
      store.dispatch({ type: 'runPanels', runKey: runKeyOf(C, runId), panels: [planPanel(effects.plan)] });
    }
  }
  return store;
}

/** Every recorded stream and how its driver's mapping replays it into `store` (a fresh `goldenStore()`). */
export const goldens: { daemon: string; name: string; replay: (frames: readonly GoldenFrame[], store: RunStore) => RunStore }[] = [
  { daemon: 'agencyProxy', name: 'edit-allowed', replay: replayAgencyProxy },
  { daemon: 'scv', name: 'tool-approved', replay: replayScv },
  { daemon: 'a3s', name: 'default-run', replay: replayA3s },
  { daemon: 'hive', name: 'iris-inbox', replay: (frames, store) => replayHive(frames, 'iris', store) },
  { daemon: 'acp', name: 'edit-allowed', replay: replayAcp },
];
