/**
 * A3S Code harness `a3s.code.agent.v1` — the event catalogue (WIRE.md 3.7) and the decoding of one stored event
 * record into something presentable, keeping the raw JSON for anything unknown, bounded or malformed.
 */
import * as z from 'zod';
import { A3S_TRUNCATION_SUFFIX } from './a3sConstants';
import { A3sEventEnvelopeSchema } from './a3sDocuments';
import type { A3sEventRecord } from './a3sDocuments';

// ---------------------------------------------------------------------------------------------------------------
// Event catalogue (3.7) and decoding

export const A3S_EVENT_TYPES = [
  'agent_start', 'agent_mode_changed', 'turn_start', 'text_delta', 'reasoning_delta', 'tool_start',
  'tool_input_delta', 'tool_request_bound', 'tool_execution_start', 'tool_end', 'tool_output_delta', 'turn_end',
  'agent_end', 'error', 'confirmation_required', 'confirmation_received', 'confirmation_timeout', 'user_question',
  'external_task_pending', 'external_task_completed', 'permission_denied', 'context_resolving', 'context_resolved',
  'run_capability_bound', 'model_presentation_bound', 'model_input_bound', 'model_usage_bound',
  'cognitive_context_bound', 'command_dead_lettered', 'command_retry', 'queue_alert', 'task_updated',
  'memory_stored', 'memory_recalled', 'memories_searched', 'memory_cleared', 'subagent_start',
  'subagent_progress', 'subagent_end', 'planning_start', 'planning_end', 'step_start', 'step_end',
  'goal_extracted', 'goal_progress', 'goal_achieved', 'context_compacted', 'run_control_applied',
  'persistence_failed', 'budget_threshold_hit', 'passivation_requested', 'peer_invocation',
] as const;
export type A3sKnownEventType = (typeof A3S_EVENT_TYPES)[number];
const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(A3S_EVENT_TYPES);

export function isKnownA3sEventType(type: string): type is A3sKnownEventType {
  return KNOWN_EVENT_TYPES.has(type);
}

/**
 * The stub replacing a payload that could not be bounded by halving strings. It keeps `id`, `name`, `exit_code`,
 * `tool_id`, `tool_name` and `turn` when they fit.
 */
export const A3sBoundedStubSchema = z.looseObject({
  bounded: z.literal(true),
  reason: z.string(),
  original_payload_sha256: z.string(),
});

export function isA3sBoundedStub(payload: unknown): boolean {
  return A3sBoundedStubSchema.safeParse(payload).success;
}

/** True when any string leaf (depth ≤ 32) ends with the truncation suffix. */
export function hasA3sTruncation(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') {
    return value.endsWith(A3S_TRUNCATION_SUFFIX);
  }
  if (depth >= 32 || value === null || typeof value !== 'object') {
    return false;
  }
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => hasA3sTruncation(child, depth + 1));
}

/**
 * The known payload keys of 3.7, each kept only when it has the expected JSON type (all optional: which are
 * optional is unverified). Anything else stays reachable through `payload`.
 */
export interface A3sPayloadFields {
  text?: string;
  id?: string;
  name?: string;
  delta?: string;
  args?: unknown;
  exit_code?: number;
  output?: string;
  metadata?: unknown;
  error_kind?: string;
  turn?: number;
  total_tokens?: number;
  usage?: unknown;
  verification_summary?: unknown;
  message?: string;
  tool_id?: string;
  tool_name?: string;
  prompt?: string;
}

const STRING_FIELDS = ['text', 'id', 'name', 'delta', 'output', 'error_kind', 'message', 'tool_id', 'tool_name', 'prompt'] as const;
const NUMBER_FIELDS = ['exit_code', 'turn'] as const;
const RAW_FIELDS = ['args', 'metadata', 'usage', 'verification_summary'] as const;

function pickPayloadFields(payload: unknown): A3sPayloadFields {
  const out: A3sPayloadFields = {};
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return out;
  }
  const p = payload as Record<string, unknown>;
  for (const key of STRING_FIELDS) {
    if (typeof p[key] === 'string') {
      out[key] = p[key];
    }
  }
  for (const key of NUMBER_FIELDS) {
    if (typeof p[key] === 'number') {
      out[key] = p[key];
    }
  }
  for (const key of RAW_FIELDS) {
    if (key in p) {
      out[key] = p[key];
    }
  }
  const usage = p['usage'];
  if (usage !== null && typeof usage === 'object' && typeof (usage as Record<string, unknown>)['total_tokens'] === 'number') {
    out.total_tokens = (usage as Record<string, number>)['total_tokens'];
  }
  return out;
}

/** A record made presentable: known fields picked, raw JSON kept for anything unknown or malformed. */
export interface A3sEventView {
  readonly sequence: number;
  readonly occurredAtMs: number;
  /** The envelope `type`, or `''` when the envelope is malformed. */
  readonly type: string;
  readonly known: boolean;
  readonly payload: unknown;
  readonly fields: A3sPayloadFields;
  /** The payload is the bounded stub (content replaced). */
  readonly bounded: boolean;
  /** Some string leaf carries the truncation suffix. */
  readonly truncated: boolean;
  /** Set when the envelope did not match its shape; render `raw`. */
  readonly malformed?: string;
  readonly raw: A3sEventRecord;
}

export function decodeA3sEvent(record: A3sEventRecord): A3sEventView {
  const base = { sequence: record.sequence, occurredAtMs: record.occurred_at_ms, raw: record };
  const parsed = A3sEventEnvelopeSchema.safeParse(record.event);
  if (!parsed.success) {
    const malformed = parsed.error.issues.map((i) => `${i.path.join('.') || 'event'}: ${i.message}`).join('; ');
    return { ...base, type: '', known: false, payload: record.event, fields: {}, bounded: false, truncated: false, malformed };
  }
  const { type, payload } = parsed.data;
  return {
    ...base,
    type,
    known: isKnownA3sEventType(type),
    payload,
    fields: pickPayloadFields(payload),
    bounded: isA3sBoundedStub(payload),
    truncated: hasA3sTruncation(payload),
  };
}
