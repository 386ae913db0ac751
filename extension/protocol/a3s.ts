/**
 * A3S Code harness wire protocol `a3s.code.agent.v1` (WIRE.md §3): HTTP/1.1 + JSON, stateless, polled.
 *
 * Reading is lenient (unknown keys ignored, unknown enum strings kept as plain strings). Writing is strict: the
 * harness rejects unknown keys at every level (400 invalid_json, never naming the field), so every document the
 * client sends is produced by a builder below that constructs a fresh object in the exact declaration order of
 * WIRE.md 3.3/3.4 — which also makes `JSON.stringify` of it the canonical form the command digest is taken over.
 *
 * Pure: imports only `zod`.
 */
import * as z from 'zod';

export const A3S_PROTOCOL = 'a3s.code.agent.v1';

/** The `schema` string of every document, by role. */
export const A3S_SCHEMA = {
  runIdentity: 'a3s.code.agent-run-identity.v1',
  runStart: 'a3s.code.agent-run-start.v1',
  runCancel: 'a3s.code.agent-run-cancel.v1',
  runRecover: 'a3s.code.agent-run-recover.v1',
  receipt: 'a3s.code.agent-command-receipt.v1',
  eventPageRequest: 'a3s.code.agent-event-page-request.v1',
  eventPage: 'a3s.code.agent-event-page.v1',
  changeSetRequest: 'a3s.code.agent-change-set-request.v1',
  changeSet: 'a3s.code.agent-change-set.v1',
  error: 'a3s.code.agent-error.v1',
  health: 'a3s.code.agent-health.v1',
} as const;

/** Stable error codes (WIRE.md 3.10). Branch on these plus the HTTP status, never on the message. */
export const A3S_ERROR_CODE = {
  invalidJson: 'a3s.code.agent_protocol.invalid_json',
  unsupportedSchema: 'a3s.code.agent_protocol.unsupported_schema',
  invalidField: 'a3s.code.agent_protocol.invalid_field',
  identityMismatch: 'a3s.code.agent_protocol.identity_mismatch',
  encoding: 'a3s.code.agent_protocol.encoding',
  sequenceOverflow: 'a3s.code.agent_protocol.sequence_overflow',
  runNotFound: 'a3s.code.agent_protocol.run_not_found',
  sessionNotFound: 'a3s.code.agent_protocol.session_not_found',
  releaseMismatch: 'a3s.code.agent_protocol.release_mismatch',
  releaseProtocolMismatch: 'a3s.code.agent_protocol.release_protocol_mismatch',
  sessionMismatch: 'a3s.code.agent_protocol.session_mismatch',
  runUnavailable: 'a3s.code.agent_protocol.run_unavailable',
  changeSetUnavailable: 'a3s.code.agent_protocol.change_set_unavailable',
  changeSetPending: 'a3s.code.agent_protocol.change_set_pending',
  sessionCapacity: 'a3s.code.agent_protocol.session_capacity',
  harnessClosed: 'a3s.code.agent_protocol.harness_closed',
} as const;

/** Byte limits (UTF-8) and counts from WIRE.md 3.10. */
export const A3S_LIMITS = {
  requestBodyBytes: 131_072,
  idBytes: 256,
  promptBytes: 65_536,
  reasonBytes: 1_024,
  maxEventsPerPage: 64,
  pageResponseBytes: 6_291_456,
  eventRecordBytes: 65_536,
  eventTypeBytes: 128,
  patchBytes: 4_194_304,
  changeSetResponseBytes: 5_723_477,
  sessions: 1_024,
} as const;

export const A3S_CHANGE_SET_FORMAT = 'git_unified_diff_v1';
export const A3S_CHANGE_SET_ENCODING = 'base64';
/** Appended to string leaves the harness halved to fit the 64 KiB payload bound (WIRE.md 3.6). */
export const A3S_TRUNCATION_SUFFIX = '\n…[a3s.code.agent-protocol.truncated]';
/** `reason` of the stub that replaces a payload which halving could not bound. */
export const A3S_BOUNDED_REASON = 'agent_protocol_event_payload_limit';

/** RunState. `cancelled` has two Ls. Unknown future states are kept as plain strings. */
export const A3S_RUN_STATES = ['created', 'planning', 'executing', 'verifying', 'completed', 'failed', 'cancelled'] as const;
export type A3sKnownRunState = (typeof A3S_RUN_STATES)[number];
export type A3sRunState = A3sKnownRunState | (string & {});
const TERMINAL_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export function isA3sTerminalState(state: string): boolean {
  return TERMINAL_STATES.has(state);
}

/** Non-negative JSON integer within the exact JS range (the Rust peer rejects float notation anyway). */
const uint = z.int().nonnegative();

// ---------------------------------------------------------------------------------------------------------------
// Run identity (3.2) — embedded in every request, echoed in every response.

const identityShape = {
  schema: z.string(),
  protocol: z.string(),
  agent_release_identity: z.string(),
  session_id: z.string(),
  run_id: z.string(),
};
/** Lenient reading of an echoed identity. */
export const A3sRunIdentitySchema = z.object(identityShape);
/** Strict: exactly the five keys (what the harness accepts). */
export const A3sRunIdentityStrictSchema = z.strictObject(identityShape);
export type A3sRunIdentity = z.infer<typeof A3sRunIdentitySchema>;

// ---------------------------------------------------------------------------------------------------------------
// Commands (3.3), strict shapes. `schema` is a plain string here: a wrong value is `unsupported_schema`, which the
// harness reports after (and separately from) the structural `invalid_json` check.

/** start: client → harness. Creates the run; returns once the worker is admitted. */
export const A3sStartRequestSchema = z.strictObject({
  schema: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentityStrictSchema,
  prompt: z.string(),
});
/** cancel: client → harness. Terminal run → replayed:true; live run → cancelled; else 409 run_unavailable. */
export const A3sCancelRequestSchema = z.strictObject({
  schema: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentityStrictSchema,
  reason: z.string(),
});
/** recover: client → harness. New run (identity.run_id) resuming the checkpoint of `checkpoint_run_id`. */
export const A3sRecoverRequestSchema = z.strictObject({
  schema: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentityStrictSchema,
  checkpoint_run_id: z.string(),
});
/** Body of `POST /v1/agent/commands`, tagged by `action`. */
export const A3sCommandSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('start'), request: A3sStartRequestSchema }),
  z.strictObject({ action: z.literal('cancel'), request: A3sCancelRequestSchema }),
  z.strictObject({ action: z.literal('recover'), request: A3sRecoverRequestSchema }),
]);
export type A3sCommand = z.infer<typeof A3sCommandSchema>;
export type A3sCommandAction = A3sCommand['action'];
export type A3sStartCommand = Extract<A3sCommand, { action: 'start' }>;
export type A3sCancelCommand = Extract<A3sCommand, { action: 'cancel' }>;
export type A3sRecoverCommand = Extract<A3sCommand, { action: 'recover' }>;

/** Receipt (3.5): harness → client, the 200 answer to every command. */
export const A3sReceiptSchema = z.object({
  schema: z.string(),
  action: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentitySchema,
  command_digest: z.string(),
  state: z.string(),
  latest_event_sequence_exclusive: uint,
  observed_at_ms: uint,
  replayed: z.boolean(),
});
export type A3sReceipt = z.infer<typeof A3sReceiptSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Event pages (3.6)

/** `POST /v1/agent/events:page` body: client → harness. Every key is sent; `after_event_sequence:null` = from 0. */
export const A3sEventPageRequestSchema = z.strictObject({
  schema: z.string(),
  identity: A3sRunIdentityStrictSchema,
  after_event_sequence: uint.nullable(),
  limit: uint,
});
export type A3sEventPageRequest = z.infer<typeof A3sEventPageRequestSchema>;

/** The envelope inside a record. `type` may be any string (the catalogue grows); `payload` is any JSON. */
export const A3sEventEnvelopeSchema = z.object({
  version: z.number(),
  type: z.string(),
  payload: z.unknown(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type A3sEventEnvelope = z.infer<typeof A3sEventEnvelopeSchema>;

/**
 * One stored event: harness → client inside a page. `event` is kept as raw JSON so a malformed or future
 * envelope never fails the whole page; decode it with {@link decodeA3sEvent}.
 */
export const A3sEventRecordSchema = z.object({
  sequence: uint,
  occurred_at_ms: uint,
  event: z.unknown(),
});
export type A3sEventRecord = z.infer<typeof A3sEventRecordSchema>;

/** EventPage: harness → client. Sequences are 0-based and contiguous; `*_exclusive` are counts. */
export const A3sEventPageSchema = z.object({
  schema: z.string(),
  identity: A3sRunIdentitySchema,
  after_event_sequence: uint.nullable().default(null),
  first_available_sequence: uint.nullable().default(null),
  latest_sequence_exclusive: uint,
  next_after_event_sequence: uint.nullable().default(null),
  state: z.string(),
  observed_at_ms: uint,
  retention_gap: z.boolean().default(false),
  has_more: z.boolean().default(false),
  events: z.array(A3sEventRecordSchema).default([]),
});
export type A3sEventPage = z.infer<typeof A3sEventPageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Change sets (3.8), errors (3.10), health (3.1)

/** `POST /v1/agent/changes` body: client → harness. */
export const A3sChangeSetRequestSchema = z.strictObject({
  schema: z.string(),
  identity: A3sRunIdentityStrictSchema,
});
export type A3sChangeSetRequest = z.infer<typeof A3sChangeSetRequestSchema>;

/** ChangeSet: harness → client once a terminal run's capture finished. Verify before use (changeSet.ts). */
export const A3sChangeSetSchema = z.object({
  schema: z.string(),
  identity: A3sRunIdentitySchema,
  state: z.string(),
  format: z.string(),
  encoding: z.string(),
  base_tree: z.string(),
  result_tree: z.string(),
  patch_digest: z.string(),
  patch_bytes: uint,
  patch_base64: z.string(),
  observed_at_ms: uint,
});
export type A3sChangeSet = z.infer<typeof A3sChangeSetSchema>;

/** Every non-200 body: harness → client. */
export const A3sErrorBodySchema = z.object({
  schema: z.string(),
  error: z.object({ code: z.string(), message: z.string() }),
});
export type A3sErrorBody = z.infer<typeof A3sErrorBodySchema>;

/** Readiness (`ready` / `not_ready` on 503) and liveness (`live`) answers. */
export const A3sHealthSchema = z.object({ schema: z.string(), status: z.string() });
export type A3sHealth = z.infer<typeof A3sHealthSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Strict writing: builders. Each constructs a fresh object in declaration order from named fields only, so no
// caller-supplied extra key can ever reach the wire.

export interface A3sRunRef {
  readonly agentReleaseIdentity: string;
  readonly sessionId: string;
  readonly runId: string;
}

export function buildRunIdentity(ref: A3sRunRef): A3sRunIdentity {
  return {
    schema: A3S_SCHEMA.runIdentity,
    protocol: A3S_PROTOCOL,
    agent_release_identity: ref.agentReleaseIdentity,
    session_id: ref.sessionId,
    run_id: ref.runId,
  };
}

/** Re-creates an identity with exactly the five keys in order (drops anything else an echo carried). */
export function copyRunIdentity(identity: A3sRunIdentity): A3sRunIdentity {
  return {
    schema: identity.schema,
    protocol: identity.protocol,
    agent_release_identity: identity.agent_release_identity,
    session_id: identity.session_id,
    run_id: identity.run_id,
  };
}

export function buildStartCommand(requestId: string, identity: A3sRunIdentity, prompt: string): A3sStartCommand {
  return {
    action: 'start',
    request: { schema: A3S_SCHEMA.runStart, request_id: requestId, identity: copyRunIdentity(identity), prompt },
  };
}

export function buildCancelCommand(requestId: string, identity: A3sRunIdentity, reason: string): A3sCancelCommand {
  return {
    action: 'cancel',
    request: { schema: A3S_SCHEMA.runCancel, request_id: requestId, identity: copyRunIdentity(identity), reason },
  };
}

export function buildRecoverCommand(
  requestId: string,
  identity: A3sRunIdentity,
  checkpointRunId: string,
): A3sRecoverCommand {
  return {
    action: 'recover',
    request: {
      schema: A3S_SCHEMA.runRecover,
      request_id: requestId,
      identity: copyRunIdentity(identity),
      checkpoint_run_id: checkpointRunId,
    },
  };
}

/** Rebuilds any command in canonical declaration order, keeping its `schema` strings as they are. */
export function canonicalA3sCommand(command: A3sCommand): A3sCommand {
  const r = command.request;
  const head = { schema: r.schema, request_id: r.request_id, identity: copyRunIdentity(r.identity) };
  switch (command.action) {
    case 'start':
      return { action: 'start', request: { ...head, prompt: command.request.prompt } };
    case 'cancel':
      return { action: 'cancel', request: { ...head, reason: command.request.reason } };
    case 'recover':
      return { action: 'recover', request: { ...head, checkpoint_run_id: command.request.checkpoint_run_id } };
  }
}

export function buildEventPageRequest(
  identity: A3sRunIdentity,
  afterEventSequence: number | null,
  limit: number,
): A3sEventPageRequest {
  return {
    schema: A3S_SCHEMA.eventPageRequest,
    identity: copyRunIdentity(identity),
    after_event_sequence: afterEventSequence,
    limit,
  };
}

export function buildChangeSetRequest(identity: A3sRunIdentity): A3sChangeSetRequest {
  return { schema: A3S_SCHEMA.changeSetRequest, identity: copyRunIdentity(identity) };
}

export function sameRunIdentity(a: A3sRunIdentity, b: A3sRunIdentity): boolean {
  return (
    a.schema === b.schema &&
    a.protocol === b.protocol &&
    a.agent_release_identity === b.agent_release_identity &&
    a.session_id === b.session_id &&
    a.run_id === b.run_id
  );
}

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
