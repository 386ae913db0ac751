/**
 * Maps one AgencyProxy run event onto the common model: zero or more `RunEvent`s, plus run fields to merge
 * (state, model). Pure. The daemon never sends `state_changed` (WIRE.md 1.8), so state follows the events the
 * daemon itself uses: `session_opened` → running, `approval_requested` → waiting_approval; after `finished` the
 * driver re-reads the snapshot for the exact final state.
 */
import { formatCount } from '../../base/formatCount';
import { subjectOf } from '../../model/approvalSubject';
import type { RunEvent as ModelRunEvent, RunFields } from '../../model/modelActions';
import type { RunEvent as WireRunEvent } from '../../protocol/agencyProxy';
import type { RunState } from '../../protocol/transcriptTypes';
import { runStateSchema } from '../../protocol/transcriptTypes';

export interface MappedEvent {
  readonly events: readonly ModelRunEvent[];
  readonly fields?: RunFields;
  /** The run reached a terminal event; the driver should re-read the snapshot for the final state. */
  readonly terminal?: boolean;
}

/** AgencyProxy RunState strings → the common states (unknown strings keep the run "running" with a detail). */
export function mapRunState(state: string): { state: RunState; detail?: string } {
  const parsed = runStateSchema.safeParse(state === 'cancelled' ? 'canceled' : state);
  return parsed.success ? { state: parsed.data } : { state: 'running', detail: `daemon state: ${state}` };
}

/** A one-line summary of provider usage data (shape is provider-specific, so only well-known keys are read). */
export function summarizeUsage(data: unknown): string {
  if (data === null || typeof data !== 'object') {
    return typeof data === 'string' ? data : 'usage';
  }
  const d = data as Record<string, unknown>;
  const num = (...keys: string[]) => keys.map((k) => d[k]).find((v): v is number => typeof v === 'number');
  const input = num('input_tokens', 'inputTokens', 'prompt_tokens');
  const output = num('output_tokens', 'outputTokens', 'completion_tokens');
  const cost = num('total_cost_usd', 'cost_usd', 'costUsd');
  const parts: string[] = [];
  if (input !== undefined) {
    parts.push(`${formatCount(input)} in`);
  }
  if (output !== undefined) {
    parts.push(`${formatCount(output)} out`);
  }
  if (cost !== undefined) {
    parts.push(`$${cost.toFixed(4)}`);
  }
  return parts.length > 0 ? `Tokens: ${parts.join(' · ')}` : 'Usage reported';
}

function summarizeRateLimit(data: unknown): string {
  if (data !== null && typeof data === 'object') {
    const d = data as Record<string, unknown>;
    const reset = d.resets_at ?? d.reset_at ?? d.resetsAt;
    const status = d.status ?? d.type;
    return [typeof status === 'string' ? `Rate limit: ${status}` : 'Rate limit', typeof reset === 'string' || typeof reset === 'number' ? `resets ${String(reset)}` : undefined]
      .filter(Boolean)
      .join(' · ');
  }
  return typeof data === 'string' ? `Rate limit: ${data}` : 'Rate limit';
}

/** A streamed chunk's model event (text → textDelta, reasoning → reasoningDelta): the one mapping of both. */
export function mapChunkEvent(event: Extract<WireRunEvent, { readonly type: 'text' | 'reasoning' }>): Extract<ModelRunEvent, { readonly kind: 'textDelta' | 'reasoningDelta' }> {
  return event.type === 'text' ? { kind: 'textDelta', text: event.payload } : { kind: 'reasoningDelta', text: event.payload };
}

export function mapAgencyProxyEvent(event: WireRunEvent): MappedEvent {
  switch (event.type) {
    case 'session_opened':
      return {
        events: [],
        fields: { state: 'running', ...(event.payload.model ? { model: event.payload.model } : {}) },
      };
    case 'reasoning':
    case 'text':
      return { events: [mapChunkEvent(event)] };
    case 'message_boundary':
      return { events: [{ kind: 'messageBoundary' }] };
    case 'tool_call':
      return { events: [{ kind: 'toolCall', callId: event.payload.id, name: event.payload.name, input: event.payload.input }], fields: { state: 'running' } };
    case 'tool_result':
      return { events: [{ kind: 'toolResult', callId: event.payload.id, ok: event.payload.ok, output: event.payload.output }] };
    case 'approval_requested':
      return {
        events: [
          {
            kind: 'approvalRequested',
            approvalId: event.payload.approval_id,
            title: event.payload.title,
            detail: event.payload.detail,
            options: ['allow_once', 'allow_similar', 'deny'],
            // WIRE.md §1.7: `title` is the tool's name and `detail` its input.
            subject: subjectOf(event.payload.title, event.payload.detail),
            // The issue asks for allow_similar on the wire when a rule is saved; the 0.3 daemon treats it as once.
            saveRuleAs: 'allow_similar',
            ruleNote: 'AgencyProxy 0.3 treats Allow similar as once; the rule in the editor answers the rest.',
          },
        ],
        fields: { state: 'waiting_approval' },
      };
    case 'usage':
      return { events: [{ kind: 'data', dataKind: 'usage', data: event.payload, summary: summarizeUsage(event.payload) }] };
    case 'rate_limit':
      return { events: [{ kind: 'data', dataKind: 'rateLimit', data: event.payload, summary: summarizeRateLimit(event.payload) }] };
    case 'compaction':
      return { events: [{ kind: 'data', dataKind: 'compaction', data: event.payload, summary: 'Context compacted' }] };
    case 'commands':
      return { events: [{ kind: 'raw', label: 'Available commands', data: event.payload }] };
    case 'state_changed': {
      const { state, detail } = mapRunState(event.payload);
      return { events: [], fields: { state, ...(detail ? { stateDetail: detail } : {}) } };
    }
    case 'error':
      return { events: [{ kind: 'error', message: event.payload }] };
    case 'finished':
      return { events: [{ kind: 'messageBoundary' }], terminal: true, fields: { state: 'finishing' } };
    case 'failed':
      return { events: [{ kind: 'error', message: event.payload }], terminal: true, fields: { state: 'failed' } };
    case 'unknown':
      return {
        events: [{ kind: 'raw', label: event.issue ? `${event.rawType} (unexpected shape)` : event.rawType, data: event.payload }],
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
