/**
 * Maps one decoded A3S event record (WIRE.md 3.6/3.7) onto the common run model. Pure: no I/O; the only state is
 * the small per-run `A3sMappingState` the caller keeps (tool input/output streamed so far), so the same records
 * always give the same model events — live, or replayed from the journal after a reload.
 *
 * A3S has no approval verb (3.9): confirmation and permission events become notices, never approval cards, so
 * the UI never offers an Allow/Deny that could not be delivered. Unknown types and malformed envelopes are shown
 * raw; truncated strings (the harness's suffix) and bounded stubs are shown as truncation.
 */
import type { RunEvent } from '../../model/modelActions';
import { A3S_TRUNCATION_SUFFIX } from '../../protocol/a3s';
import type { A3sEventView } from '../../protocol/a3s';
import type { RunState } from '../../protocol/transcriptTypes';

/** The run state is not derived from events: every page carries the harness's authoritative `state`. */
export interface A3sMapped {
  readonly events: readonly RunEvent[];
}

/** Per-run bookkeeping the mapping needs across records. */
export interface A3sMappingState {
  /** Tool input streamed so far (tool_input_delta appends; the model shows the whole input). */
  readonly toolInput: Map<string, string>;
  /** Tools whose streamed output was truncated or bounded by the harness. */
  readonly truncatedTools: Set<string>;
  /** Whether any answer text was streamed (agent_end's `text` is shown only when none was). */
  sawText: boolean;
}

export function newA3sMappingState(): A3sMappingState {
  return { toolInput: new Map(), truncatedTools: new Set(), sawText: false };
}

/** A3S RunState → the common state (+ the harness's own word as detail while active). */
export function mapA3sRunState(state: string): { state: RunState; detail?: string } {
  switch (state) {
    case 'created':
      return { state: 'starting' };
    case 'planning':
    case 'executing':
    case 'verifying':
      return { state: 'running', detail: state };
    case 'completed':
      return { state: 'completed' };
    case 'failed':
      return { state: 'failed' };
    case 'cancelled':
      return { state: 'canceled' };
    default:
      return { state: 'running', detail: `harness state: ${state}` };
  }
}

const READABLE_TRUNCATION = '\n… (truncated by the harness)';

/** Replaces the harness's truncation suffix with a readable marker. */
function readable(text: string): string {
  return text.endsWith(A3S_TRUNCATION_SUFFIX) ? text.slice(0, -A3S_TRUNCATION_SUFFIX.length) + READABLE_TRUNCATION : text;
}

function str(payload: unknown, ...keys: string[]): string | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return undefined;
  }
  for (const key of keys) {
    const value = (payload as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim() !== '') {
      return readable(value);
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
      return String(value);
    }
  }
  return undefined;
}

function summarizeUsage(usage: unknown): string {
  const total = usage !== null && typeof usage === 'object' ? (usage as Record<string, unknown>).total_tokens : undefined;
  return typeof total === 'number' ? `Tokens: ${total.toLocaleString('en-US')} total` : 'Usage reported';
}

const info = (text: string): RunEvent => ({ kind: 'notice', text, level: 'info' });
const warning = (text: string): RunEvent => ({ kind: 'notice', text, level: 'warning' });

const NO_ANSWER = 'A3S decides confirmations by policy outside this protocol; they cannot be answered from VS Code (cancel the run to stop it).';

function toolLabel(v: A3sEventView): string {
  return v.fields.tool_name ?? v.fields.name ?? v.fields.tool_id ?? v.fields.id ?? 'a tool';
}

/** The bounded stub (payload over 64 KiB replaced): a truncation notice, or a truncated tool result. */
function mapBounded(v: A3sEventView, state: A3sMappingState): A3sMapped {
  const digest = str(v.payload, 'original_payload_sha256');
  const dropped = `(content dropped by the harness: the event exceeded 64 KiB${digest ? `; ${digest}` : ''})`;
  const id = v.fields.id ?? v.fields.tool_id;
  if (v.type === 'tool_end') {
    if (id !== undefined) {
      state.toolInput.delete(id);
      state.truncatedTools.delete(id);
    }
    const exit = v.fields.exit_code;
    return {
      events: [{ kind: 'toolResult', callId: id ?? null, ok: exit === undefined ? null : exit === 0, output: dropped, truncated: true, ...(v.fields.name ? { name: v.fields.name } : {}) }],
    };
  }
  if (v.type === 'tool_output_delta' && id !== undefined) {
    state.truncatedTools.add(id);
    return { events: [{ kind: 'toolOutputDelta', callId: id, delta: `\n${dropped}\n` }] };
  }
  return { events: [warning(`A ${v.type} event was too large; the harness kept only a stub ${dropped}.`)] };
}

function mapToolEnd(v: A3sEventView, state: A3sMappingState): A3sMapped {
  const id = v.fields.id ?? null;
  const streamed = id !== null && state.truncatedTools.has(id);
  if (id !== null) {
    state.toolInput.delete(id);
    state.truncatedTools.delete(id);
  }
  const exit = v.fields.exit_code;
  const errorKind = v.fields.error_kind;
  const ok = errorKind !== undefined ? false : exit === undefined ? null : exit === 0;
  const rawOutput = v.fields.output ?? (isObject(v.payload) && 'output' in v.payload ? JSON.stringify(v.payload.output) : '');
  const truncated = rawOutput.endsWith(A3S_TRUNCATION_SUFFIX) || (v.fields.output === undefined && streamed);
  let output = readable(rawOutput);
  if (exit !== undefined && exit !== 0) {
    output += `${output === '' || output.endsWith('\n') ? '' : '\n'}(exit code ${exit})`;
  }
  return {
    events: [{ kind: 'toolResult', callId: id, ok, output, truncated, ...(errorKind !== undefined ? { errorKind } : {}), ...(v.fields.name ? { name: v.fields.name } : {}) }],
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Maps one record; `state` is updated in place. */
export function mapA3sEvent(v: A3sEventView, state: A3sMappingState): A3sMapped {
  if (v.malformed !== undefined) {
    return { events: [{ kind: 'raw', label: `Malformed A3S event (${v.malformed})`, data: v.raw.event }] };
  }
  if (v.bounded) {
    return mapBounded(v, state);
  }
  const mapped = mapKnown(v, state);
  // Truncation inside any other payload: say so once, next to what was shown.
  if (v.truncated && !['text_delta', 'reasoning_delta', 'tool_output_delta', 'tool_end'].includes(v.type)) {
    return { ...mapped, events: [...mapped.events, info(`Part of this ${v.type} event was truncated by the harness (over 64 KiB).`)] };
  }
  return mapped;
}

function mapKnown(v: A3sEventView, state: A3sMappingState): A3sMapped {
  const f = v.fields;
  const p = v.payload;
  switch (v.type) {
    case 'text_delta':
      state.sawText = true;
      return { events: f.text !== undefined ? [{ kind: 'textDelta', text: readable(f.text) }] : [] };
    case 'reasoning_delta':
      return { events: f.text !== undefined ? [{ kind: 'reasoningDelta', text: readable(f.text) }] : [] };
    case 'tool_start':
      return { events: [{ kind: 'toolCall', callId: f.id ?? null, name: f.name ?? 'tool', input: null, status: 'running' }] };
    case 'tool_input_delta': {
      if (f.id === undefined || f.delta === undefined) {
        return { events: [{ kind: 'raw', label: v.type, data: p }] };
      }
      const input = (state.toolInput.get(f.id) ?? '') + f.delta;
      state.toolInput.set(f.id, input);
      return { events: [{ kind: 'toolInputDelta', callId: f.id, delta: readable(input) }] };
    }
    case 'tool_execution_start':
      return f.id !== undefined ? { events: [{ kind: 'toolStarted', callId: f.id, ...(f.name ? { name: f.name } : {}) }] } : { events: [{ kind: 'raw', label: v.type, data: p }] };
    case 'tool_output_delta': {
      if (f.id === undefined || f.delta === undefined) {
        return { events: [{ kind: 'raw', label: v.type, data: p }] };
      }
      if (f.delta.endsWith(A3S_TRUNCATION_SUFFIX)) {
        state.truncatedTools.add(f.id);
      }
      return { events: [{ kind: 'toolOutputDelta', callId: f.id, delta: readable(f.delta) }] };
    }
    case 'tool_end':
      return mapToolEnd(v, state);
    case 'turn_start':
      return { events: [{ kind: 'turn', turnId: String(f.turn ?? '?'), phase: 'started' }] };
    case 'turn_end': {
      const events: RunEvent[] = [{ kind: 'turn', turnId: String(f.turn ?? '?'), phase: 'completed' }];
      if (f.usage !== undefined) {
        events.push({ kind: 'data', dataKind: 'usage', data: f.usage, summary: summarizeUsage(f.usage) });
      }
      return { events };
    }
    case 'agent_start': {
      const from = str(p, 'recovered_from');
      return { events: from ? [info(`Resumed from the checkpoint of run ${from}.`)] : [] };
    }
    case 'agent_end': {
      const events: RunEvent[] = [{ kind: 'messageBoundary' }];
      if (!state.sawText && f.text !== undefined) {
        events.push({ kind: 'textCompleted', text: readable(f.text) });
      }
      if (f.usage !== undefined) {
        events.push({ kind: 'data', dataKind: 'usage', data: f.usage, summary: `Run total — ${summarizeUsage(f.usage)}` });
      }
      if (f.verification_summary !== undefined) {
        events.push({ kind: 'raw', label: 'Verification summary', data: f.verification_summary });
      }
      return { events };
    }
    case 'error':
      return { events: [{ kind: 'error', message: f.message !== undefined ? readable(f.message) : 'The agent reported an error.' }] };
    case 'confirmation_required':
      return { events: [warning(`The agent asks for confirmation to run ${toolLabel(v)}. ${NO_ANSWER}`)] };
    case 'confirmation_received': {
      const approved = isObject(p) && typeof p.approved === 'boolean' ? (p.approved ? ' (approved)' : ' (denied)') : '';
      return { events: [info(`Confirmation for ${toolLabel(v)} was answered by the harness policy${approved}.`)] };
    }
    case 'confirmation_timeout':
      return { events: [warning(`The confirmation for ${toolLabel(v)} timed out.`)] };
    case 'permission_denied':
      return { events: [warning(`Permission denied: ${toolLabel(v)}.`)] };
    case 'user_question': {
      const question = str(p, 'question', 'text', 'message', 'prompt');
      return {
        events: [warning(`The agent asks${question ? `: ${question}` : ' a question'} — A3S cannot take an answer from VS Code.`), { kind: 'raw', label: 'user_question', data: p }],
      };
    }
    case 'planning_start':
      return { events: [info('Planning…')] };
    case 'planning_end':
      return { events: [{ kind: 'raw', label: 'Plan', data: p }] };
    case 'step_start':
      return { events: [info(`Step: ${str(p, 'description', 'name', 'id') ?? 'started'}`)] };
    case 'step_end':
      return { events: [info(`Step ${str(p, 'id', 'name') ?? ''} finished`.replace('  ', ' '))] };
    case 'goal_extracted':
      return { events: [info(`Goal: ${str(p, 'goal', 'text', 'description') ?? '(unnamed)'}`)] };
    case 'goal_progress': {
      const progress = isObject(p) && typeof p.progress === 'number' ? `${Math.round(p.progress * 100)}%` : str(p, 'text', 'progress');
      return { events: [info(`Goal progress${progress ? `: ${progress}` : ''}`)] };
    }
    case 'goal_achieved':
      return { events: [info(`Goal achieved${str(p, 'goal') ? `: ${str(p, 'goal')}` : ''}`)] };
    case 'subagent_start':
      return { events: [info(`Subagent ${str(p, 'name', 'id') ?? ''} started`)] };
    case 'subagent_progress':
      return { events: [info(`Subagent ${str(p, 'name', 'id') ?? ''}: ${str(p, 'text', 'message') ?? 'working'}`)] };
    case 'subagent_end':
      return { events: [info(`Subagent ${str(p, 'name', 'id') ?? ''} finished`)] };
    case 'context_compacted': {
      const b = isObject(p) ? p.before_tokens : undefined;
      const a = isObject(p) ? p.after_tokens : undefined;
      const detail = typeof b === 'number' && typeof a === 'number' ? ` (${b.toLocaleString('en-US')} → ${a.toLocaleString('en-US')} tokens)` : '';
      return { events: [{ kind: 'data', dataKind: 'compaction', data: p, summary: `Context compacted${detail}` }] };
    }
    case 'run_control_applied':
      return { events: [info(`Run control applied: ${str(p, 'action') ?? 'unknown'}${str(p, 'reason') ? ` (${str(p, 'reason')})` : ''}`)] };
    case 'persistence_failed':
      return { events: [{ kind: 'notice', text: `The harness could not persist run state${str(p, 'message', 'reason') ? `: ${str(p, 'message', 'reason')}` : ''}.`, level: 'error' }] };
    case 'budget_threshold_hit':
    case 'command_dead_lettered':
    case 'queue_alert':
      return { events: [warning(`${v.type.replace(/_/g, ' ')}${str(p, 'message', 'reason') ? `: ${str(p, 'message', 'reason')}` : ''}`), { kind: 'raw', label: v.type, data: p }] };
    default:
      // Everything else in the catalogue and every unknown type: readable raw JSON, never dropped.
      return { events: [{ kind: 'raw', label: v.known ? v.type : `${v.type || 'event'} (unknown type)`, data: p }] };
  }
}
