/**
 * Folds one normalized run event into a run: returns the new run info, transcript patches, and approval changes.
 * Pure and O(1) in the transcript length: it never reads the transcript, only the run's small bookkeeping
 * (open streaming items, tool calls in flight, pending approvals).
 */
import type { RunState } from '../protocol/transcriptTypes';
import { isTerminalRunState } from '../protocol/transcriptTypes';
import { approvalRequested, approvalSettled } from './approvalLifecycle';
import type { RunEvent } from './modelActions';
import type { ApprovalInfo, RunInfo } from './modelTypes';
import type { RunEventResult } from './runEditor';
import { RunEditor } from './runEditor';
import { applyFileCheckpoint } from './fileCheckpointRows';
import { applyMessage } from './messageRows';
import { applyCompaction, applyUsage } from './sessionReports';
import { withReportedEdits } from './reportedEdits';

export type { RunEventResult };

/**
 * A run that reached a terminal state gets no more tool results: every call still in flight ends — `cancelled` after a
 * cancel, `unknown` (no result came) otherwise.
 */
export function endToolsOnTerminal(ed: RunEditor, state: RunState): void {
  if (isTerminalRunState(state)) {
    ed.endOpenTools(state === 'canceled' ? 'cancelled' : 'unknown');
  }
}

export function reduceRunEvent(
  run: RunInfo,
  event: RunEvent,
  approvals: ReadonlyMap<string, ApprovalInfo>,
  now: number,
  restored = false,
): RunEventResult {
  const ed = new RunEditor(run);
  switch (event.kind) {
    case 'userPrompt':
      ed.closeStreams();
      ed.add({ id: ed.nextId('u'), kind: 'user', text: event.text, ...(event.note ? { note: event.note } : {}) });
      break;
    case 'textDelta':
      ed.closeReasoning();
      if (ed.run.openTextId !== undefined) {
        ed.append(ed.run.openTextId, 'text', event.text);
      } else {
        const id = ed.nextId('x');
        ed.add({ id, kind: 'text', text: event.text, streaming: true });
        ed.run = { ...ed.run, openTextId: id };
      }
      break;
    case 'textCompleted':
      ed.closeReasoning();
      if (ed.run.openTextId !== undefined) {
        ed.update(ed.run.openTextId, { text: event.text, streaming: false });
        ed.run = { ...ed.run, openTextId: undefined };
      } else if (event.text.length > 0) {
        ed.add({ id: ed.nextId('x'), kind: 'text', text: event.text, streaming: false });
      }
      break;
    case 'reasoningDelta':
      ed.closeText();
      if (ed.run.openReasoningId !== undefined) {
        ed.append(ed.run.openReasoningId, 'text', event.text);
      } else {
        const id = ed.nextId('r');
        ed.add({ id, kind: 'reasoning', text: event.text, streaming: true });
        ed.run = { ...ed.run, openReasoningId: id };
      }
      break;
    case 'messageBoundary':
      ed.closeStreams();
      break;
    case 'toolCall': {
      ed.closeStreams();
      const existing = ed.openTool(event.callId);
      if (existing !== undefined && event.callId !== null) {
        // Same call seen again (e.g. SCV tool.proposed then a re-announcement): refresh its input.
        ed.update(existing, { name: event.name, input: event.input });
      } else {
        ed.addTool(event.callId, event.name, event.input, event.status ?? 'running');
      }
      break;
    }
    case 'toolInputDelta': {
      const id = ed.openTool(event.callId) ?? ed.addTool(event.callId, 'tool', '', 'running');
      // Streamed tool input is shown as it arrives; the final input replaces it on toolResult/toolCall.
      ed.update(id, { input: event.delta });
      break;
    }
    case 'toolStarted': {
      ed.closeStreams();
      const id = ed.openTool(event.callId);
      if (id === undefined) {
        ed.addTool(event.callId, event.name ?? 'tool', null, 'running');
      } else {
        ed.update(id, { status: 'running' });
      }
      break;
    }
    case 'toolProgress': {
      const id = ed.openTool(event.callId) ?? ed.addTool(event.callId, 'tool', null, 'running');
      ed.update(id, { progress: event.text });
      break;
    }
    case 'toolOutputDelta': {
      const id = ed.openTool(event.callId) ?? ed.addTool(event.callId, 'tool', null, 'running');
      ed.append(id, 'output', event.delta);
      break;
    }
    case 'toolTerminals': {
      // Only a call still open: a late update of a finished call must not add a row of its own.
      const id = ed.openTool(event.callId);
      if (id !== undefined) {
        ed.update(id, { terminals: [...event.terminalIds] });
      }
      break;
    }
    case 'toolResult': {
      ed.closeStreams();
      const status = event.ok === null ? 'unknown' : event.ok ? 'succeeded' : 'failed';
      const changes: Record<string, unknown> = {
        status,
        output: event.output,
        truncated: event.truncated ?? false,
        progress: null,
      };
      if (event.errorKind !== undefined) {
        changes.errorKind = event.errorKind;
      }
      const id = ed.openTool(event.callId);
      if (id === undefined) {
        const newId = ed.nextId('t');
        ed.add({
          id: newId,
          kind: 'tool',
          callId: event.callId,
          name: event.name ?? 'tool',
          input: null,
          status,
          output: event.output,
          truncated: event.truncated ?? false,
          ...(event.errorKind !== undefined ? { errorKind: event.errorKind } : {}),
        });
      } else {
        ed.update(id, changes);
        ed.setOpenTool(event.callId, undefined);
      }
      break;
    }
    case 'approvalRequested':
      approvalRequested(ed, event, approvals, now, restored);
      break;
    case 'approvalSettled':
      approvalSettled(ed, event, approvals);
      break;
    case 'usage':
      applyUsage(ed, event);
      break;
    case 'filesEdited': {
      const reportedEdits = withReportedEdits(ed.run.reportedEdits, event.paths, event.at);
      if (reportedEdits !== ed.run.reportedEdits) {
        ed.run = { ...ed.run, reportedEdits };
      }
      break;
    }
    case 'compaction':
      applyCompaction(ed, event);
      break;
    case 'data':
      ed.add({ id: ed.nextId('d'), kind: event.dataKind, data: event.data, summary: event.summary });
      break;
    case 'error':
      ed.closeStreams();
      ed.add({ id: ed.nextId('e'), kind: 'error', message: event.message, ...(event.code !== undefined ? { code: event.code } : {}) });
      break;
    case 'notice':
      ed.add({ id: ed.nextId('n'), kind: 'notice', text: event.text, level: event.level });
      break;
    case 'stateChanged':
      endToolsOnTerminal(ed, event.state);
      ed.run = { ...ed.run, state: event.state, stateDetail: event.detail };
      if (event.announce) {
        ed.closeStreams();
        ed.add({
          id: ed.nextId('n'),
          kind: 'notice',
          text: event.detail ?? `Run ${event.state.replace('_', ' ')}`,
          level: event.state === 'failed' || event.state === 'lost' ? 'error' : event.state === 'interrupted' ? 'warning' : 'info',
          state: event.state,
        });
      }
      break;
    case 'turn':
      ed.closeStreams();
      if (event.phase !== 'started') {
        // A turn that ended leaves no call running: a cancelled turn cancelled them, otherwise their outcome is unknown.
        ed.endOpenTools(event.phase === 'cancelled' ? 'cancelled' : 'unknown');
      }
      ed.add({
        id: ed.nextId('n'),
        kind: 'turn',
        turnId: event.turnId,
        phase: event.phase,
        ...(event.code !== undefined ? { code: event.code } : {}),
        ...(event.message !== undefined ? { message: event.message } : {}),
        ...(event.summary !== undefined ? { summary: event.summary } : {}),
      });
      break;
    case 'message':
      applyMessage(ed, event);
      break;
    case 'raw':
      ed.add({ id: ed.nextId('w'), kind: 'raw', label: event.label, data: event.data });
      break;
    case 'fileCheckpoint':
      applyFileCheckpoint(ed, event);
      break;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
  return { run: ed.run, patches: ed.patches, approvals: ed.approvals };
}
