/**
 * AgencyProxy protocol 0.3 (WIRE.md §1, `agency_proxy_protocol.rs`): zod schemas of every frame exactly as serde
 * writes it, plus builders for canonical client frames.
 *
 * Reading is lenient: unknown keys are ignored, unknown state/capability/error-code strings are kept, unknown event
 * and response types parse into an `unknown` shape that keeps the raw JSON. Writing is strict: the builders emit
 * every key in serde's order (RunRequest options as `null`), validate against the client schemas and refuse integers
 * that a JS number cannot carry exactly.
 *
 * Case trap (§1.14): client frames say `requestId` (camelCase envelope) with snake_case message fields; responses say
 * `request_id`; RunRequest / RunSnapshot / ProviderStatus / ProviderAccountUsage are camelCase; event payload objects
 * are snake_case.
 */
import * as z from 'zod';

export const PROTOCOL_VERSION = { major: 0, minor: 3 } as const;
/** Largest JSON payload of one frame; the frame length adds the kind byte. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** First minor that knows `shutdown{mode}` (§1.12). */
export const SHUTDOWN_MIN_MINOR = 3;

export const CAPABILITIES = [
  'event_replay', 'live_injection', 'approvals', 'cancellation', 'provider_detection', 'lifecycle_control',
] as const;
export const ERROR_CODES = [
  'incompatible_version', 'protocol_violation', 'not_found', 'not_implemented', 'conflict', 'internal',
] as const;
export type KnownErrorCode = (typeof ERROR_CODES)[number];
export const ACTIVE_RUN_STATES = ['starting', 'running', 'waiting_approval', 'finishing'] as const;
export const TERMINAL_RUN_STATES = ['completed', 'failed', 'canceled', 'interrupted'] as const;
export const PROVIDERS = ['claude', 'codex', 'copilot'] as const;
export const PERMISSIONS = ['read_only', 'read-only', 'plan', 'edit', 'auto', 'bypass'] as const;
export const APPROVAL_DECISIONS = ['allow_once', 'allow_similar', 'deny'] as const;
export const SHUTDOWN_MODES = ['drain', 'terminate'] as const;

/** Run states are kept as strings so an unknown future state survives parsing (it is treated as active). */
export function isTerminalRunState(state: string): boolean {
  return (TERMINAL_RUN_STATES as readonly string[]).includes(state);
}

const uint = z.number().int().nonnegative();
const u16 = z.number().int().min(0).max(0xffff);
const nullableString = z.string().nullable().default(null);

// ---------------------------------------------------------------------------------------------------------------
// Shared data types

export const ProtocolVersionSchema = z.object({ major: u16, minor: u16 });
export type ProtocolVersion = z.infer<typeof ProtocolVersionSchema>;

export const ApprovalDecisionSchema = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
export const ShutdownModeSchema = z.enum(SHUTDOWN_MODES);
export type ShutdownMode = z.infer<typeof ShutdownModeSchema>;

/** What the client asks the daemon to run (camelCase). Absent Option fields read as null, absent maps as empty. */
export const RunRequestSchema = z.object({
  provider: z.string(),
  model: z.string(),
  prompt: z.string(),
  isCommand: z.boolean().default(false),
  system: nullableString,
  permission: z.string(),
  effort: nullableString,
  extraThinking: z.boolean().nullable().default(null),
  approvals: z.boolean(),
  interactive: z.boolean(),
  workspaceRoots: z.array(z.string()),
  resumeSessionId: nullableString,
  binary: nullableString,
  environment: z.record(z.string(), z.string()).default({}),
  uncheckedArgs: z.array(z.string()).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

/** One run as the daemon sees it (camelCase). `state` keeps unknown strings. */
export const RunSnapshotSchema = z.object({
  runId: z.string(),
  state: z.string(),
  provider: z.string(),
  model: z.string(),
  providerSessionId: nullableString,
  latestSequence: uint,
  acknowledgedSequence: uint,
  workspaceRoots: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type RunSnapshot = z.infer<typeof RunSnapshotSchema>;

/** Result of probing one provider CLI (camelCase). */
export const ProviderStatusSchema = z.object({
  provider: z.string(),
  installed: z.boolean(),
  version: nullableString,
  outdated: z.boolean(),
  authState: z.string(),
  detail: z.string(),
  authMethod: nullableString,
  account: nullableString,
  plan: nullableString,
  loginHint: z.string(),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

/** Account usage of one provider (camelCase); `usage` is provider-specific, show it raw. */
export const ProviderAccountUsageSchema = z.object({
  provider: z.string(),
  supported: z.boolean(),
  usage: z.unknown().optional().transform((v) => (v === undefined ? null : v)),
  error: nullableString,
});
export type ProviderAccountUsage = z.infer<typeof ProviderAccountUsageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Client frames (client → daemon). Envelope `requestId` is camelCase; message fields are snake_case.

const envelope = { requestId: uint };
const runIdField = { run_id: z.string() };

/** Must be the first frame of a connection, sent once. */
export const HelloFrameSchema = z.object({
  ...envelope, type: z.literal('hello'), client_name: z.string(), version: ProtocolVersionSchema,
});
/** Every run since daemon start. */
export const ListRunsFrameSchema = z.object({ ...envelope, type: z.literal('list_runs') });
/** Which provider CLIs are installed and logged in. */
export const ProbeProvidersFrameSchema = z.object({ ...envelope, type: z.literal('probe_providers') });
/** Provider account usage. */
export const ReadAccountUsageFrameSchema = z.object({ ...envelope, type: z.literal('read_account_usage') });
/** Stop the daemon only if no run is active (else `conflict`). */
export const ShutdownIfIdleFrameSchema = z.object({ ...envelope, type: z.literal('shutdown_if_idle') });
/** Minor ≥ 3 only: close admission, then drain or terminate runs and exit. */
export const ShutdownFrameSchema = z.object({ ...envelope, type: z.literal('shutdown'), mode: ShutdownModeSchema });
/** Start a run; does not attach it. */
export const StartRunFrameSchema = z.object({
  ...envelope, type: z.literal('start_run'), ...runIdField, request: RunRequestSchema, idempotency_key: z.string(),
});
/** Snapshot (`run`), then journal events with sequence > after_sequence, then live events. */
export const AttachRunFrameSchema = z.object({
  ...envelope, type: z.literal('attach_run'), ...runIdField, after_sequence: uint,
});
/** Stop forwarding a run's events to this connection. */
export const DetachRunFrameSchema = z.object({ ...envelope, type: z.literal('detach_run'), ...runIdField });
/** Send a user message into an interactive run (not deduplicated). */
export const InjectMessageFrameSchema = z.object({
  ...envelope, type: z.literal('inject_message'), ...runIdField, body: z.string(), idempotency_key: z.string(),
});
/** Cooperatively cancel a run (a second cancel gets `conflict`). */
export const CancelRunFrameSchema = z.object({
  ...envelope, type: z.literal('cancel_run'), ...runIdField, idempotency_key: z.string(),
});
/** Answer an `approval_requested`. */
export const DecideApprovalFrameSchema = z.object({
  ...envelope, type: z.literal('decide_approval'), ...runIdField, approval_id: z.string(),
  decision: ApprovalDecisionSchema, idempotency_key: z.string(),
});
/** Delete journal entries ≤ through_sequence (clamped to latestSequence) for every connection. */
export const AckEventsFrameSchema = z.object({
  ...envelope, type: z.literal('ack_events'), ...runIdField, through_sequence: uint,
});

/** A parseable client frame, as the daemon reads it (unknown `type` or missing key = unparseable). */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  HelloFrameSchema, ListRunsFrameSchema, ProbeProvidersFrameSchema, ReadAccountUsageFrameSchema,
  ShutdownIfIdleFrameSchema, ShutdownFrameSchema, StartRunFrameSchema, AttachRunFrameSchema, DetachRunFrameSchema,
  InjectMessageFrameSchema, CancelRunFrameSchema, DecideApprovalFrameSchema, AckEventsFrameSchema,
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;
export type ClientFrameType = ClientFrame['type'];

// ---------------------------------------------------------------------------------------------------------------
// Run events (inside event frames). Adjacently tagged: {"type": …, "payload": …}.

const ev = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({ type: z.literal(type), payload });

/** Terminal: the outcome after the provider process was reaped (shape unverified; show raw). */
export const FinishedEventSchema = ev('finished', z.unknown().optional().transform((v) => (v === undefined ? null : v)));
/** Terminal: the provider could not produce an outcome. */
export const FailedEventSchema = ev('failed', z.string());
/** Defined but never emitted by the 0.3 daemon. */
export const StateChangedEventSchema = ev('state_changed', z.string());
/** Provider session opened; state becomes `running`. */
export const SessionOpenedEventSchema = ev('session_opened', z.object({
  provider_session_id: z.string(), model: nullableString,
}));
/** A chunk of reasoning text. */
export const ReasoningEventSchema = ev('reasoning', z.string());
/** A chunk of answer text. */
export const TextEventSchema = ev('text', z.string());
/** The current assistant message ended. No `payload` key on the wire (null tolerated). */
export const MessageBoundaryEventSchema = z
  .object({ type: z.literal('message_boundary'), payload: z.unknown().optional() })
  .transform(() => ({ type: 'message_boundary' as const }));
/** The model called a tool; `input` = the tool arguments as is. */
export const ToolCallEventSchema = ev('tool_call', z.object({
  id: nullableString, name: z.string(), input: z.unknown().optional().transform((v) => (v === undefined ? null : v)),
}));
/** Tool output. */
export const ToolResultEventSchema = ev('tool_result', z.object({
  id: nullableString, ok: z.boolean().nullable().default(null), output: z.string(),
}));
/** Waits for `decide_approval`; `title` = tool name, `detail` = tool input. State becomes `waiting_approval`. */
export const ApprovalRequestedEventSchema = ev('approval_requested', z.object({
  approval_id: z.string(), title: z.string(),
  detail: z.unknown().optional().transform((v) => (v === undefined ? null : v)),
}));
const rawPayload = z.unknown().optional().transform((v) => (v === undefined ? null : v));
/** Provider-specific; show raw. */
export const UsageEventSchema = ev('usage', rawPayload);
export const RateLimitEventSchema = ev('rate_limit', rawPayload);
export const CompactionEventSchema = ev('compaction', rawPayload);
export const CommandsEventSchema = ev('commands', rawPayload);
/** Defined but never emitted by the 0.3 daemon. */
export const ErrorEventSchema = ev('error', z.string());

export const KnownRunEventSchema = z.discriminatedUnion('type', [
  FinishedEventSchema, FailedEventSchema, StateChangedEventSchema, SessionOpenedEventSchema, ReasoningEventSchema,
  TextEventSchema, ToolCallEventSchema, ToolResultEventSchema, ApprovalRequestedEventSchema, UsageEventSchema,
  RateLimitEventSchema, CompactionEventSchema, CommandsEventSchema, ErrorEventSchema,
]);
export type KnownRunEvent = z.infer<typeof KnownRunEventSchema> | z.infer<typeof MessageBoundaryEventSchema>;

/** An event type this client does not know, or a known type whose payload did not match (`issue` says why). */
export interface UnknownRunEvent {
  readonly type: 'unknown';
  readonly rawType: string;
  readonly payload: unknown;
  readonly issue?: string;
}
export type RunEvent = KnownRunEvent | UnknownRunEvent;

/** Reads any `{type, payload?}` object; never fails once `type` is a string. */
export const RunEventSchema = z
  .looseObject({ type: z.string(), payload: z.unknown().optional() })
  .transform((raw): RunEvent => {
    if (raw.type === 'message_boundary') {
      return { type: 'message_boundary' };
    }
    const known = KnownRunEventSchema.safeParse(raw);
    if (known.success) {
      return known.data;
    }
    const isKnownType = KnownRunEventSchema.options.some((o) => o.shape.type.value === raw.type);
    return isKnownType
      ? { type: 'unknown', rawType: raw.type, payload: raw.payload ?? null, issue: z.prettifyError(known.error) }
      : { type: 'unknown', rawType: raw.type, payload: raw.payload ?? null };
  });

/** The canonical wire form of an event (message_boundary has no payload; unknown events get their raw type back). */
export function serializeRunEvent(event: RunEvent): Record<string, unknown> {
  if (event.type === 'message_boundary') {
    return { type: 'message_boundary' };
  }
  if (event.type === 'unknown') {
    return event.payload === null ? { type: event.rawType } : { type: event.rawType, payload: event.payload };
  }
  return { type: event.type, payload: event.payload };
}

// ---------------------------------------------------------------------------------------------------------------
// Server frames (daemon → client). Responses are flat: {kind, request_id, type, …fields}.

const resp = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ kind: z.literal('response'), request_id: uint, type: z.literal(type), ...shape });

/** Reply to hello: the negotiated version (smaller minor) and capabilities (unknown strings kept). */
export const HelloResponseSchema = resp('hello', {
  server_name: z.string(), version: ProtocolVersionSchema, capabilities: z.array(z.string()),
});
/** Reply to list_runs. */
export const RunsResponseSchema = resp('runs', { runs: z.array(RunSnapshotSchema) });
/** Reply to probe_providers. */
export const ProvidersResponseSchema = resp('providers', { providers: z.array(ProviderStatusSchema) });
/** Reply to read_account_usage. */
export const AccountUsageResponseSchema = resp('account_usage', { providers: z.array(ProviderAccountUsageSchema) });
/** Reply to attach_run, before the replayed events. */
export const RunResponseSchema = resp('run', { run: RunSnapshotSchema });
/** Generic success. */
export const AcceptedResponseSchema = resp('accepted', {});
/** Any failure; `message` is human text, branch on `code` only. */
export const ErrorResponseSchema = resp('error', { code: z.string(), message: z.string() });

export const KnownResponseFrameSchema = z.discriminatedUnion('type', [
  HelloResponseSchema, RunsResponseSchema, ProvidersResponseSchema, AccountUsageResponseSchema, RunResponseSchema,
  AcceptedResponseSchema, ErrorResponseSchema,
]);
export type KnownResponseFrame = z.infer<typeof KnownResponseFrameSchema>;

/** A response type this client does not know, or a known one that failed validation; `raw` is the whole frame. */
export interface UnknownResponseFrame {
  readonly kind: 'response';
  readonly request_id: number;
  readonly type: 'unknown';
  readonly rawType: string;
  readonly raw: Record<string, unknown>;
  readonly issue?: string;
}
export type ResponseFrame = KnownResponseFrame | UnknownResponseFrame;

export const ResponseFrameSchema = z
  .looseObject({ kind: z.literal('response'), request_id: uint, type: z.string() })
  .transform((raw): ResponseFrame => {
    const known = KnownResponseFrameSchema.safeParse(raw);
    if (known.success) {
      return known.data;
    }
    const isKnownType = KnownResponseFrameSchema.options.some((o) => o.shape.type.value === raw.type);
    const base = { kind: 'response', request_id: raw.request_id, type: 'unknown', rawType: raw.type, raw } as const;
    return isKnownType ? { ...base, issue: z.prettifyError(known.error) } : base;
  });

/** An event of a run this connection attached. */
export const EventFrameSchema = z.object({
  kind: z.literal('event'), run_id: z.string(), sequence: uint, event: RunEventSchema,
});
export type EventFrame = z.infer<typeof EventFrameSchema>;

export const ServerFrameSchema = z.union([ResponseFrameSchema, EventFrameSchema]);
export type ServerFrame = ResponseFrame | EventFrame;

export type ServerFrameParse =
  | { readonly ok: true; readonly frame: ServerFrame }
  | { readonly ok: false; readonly error: string };

/**
 * Streamed `text` / `reasoning` chunks are most of the traffic (a long answer is thousands of frames), and running
 * them through the schemas costs more than parsing their JSON. This checks exactly those two shapes by hand and
 * builds exactly what `EventFrameSchema` would (the declared keys only, unknown ones dropped). Anything else, or
 * anything unusual about these two, returns undefined and goes through the schemas.
 */
function parseChunkEventFrame(value: object): EventFrame | undefined {
  const frame = value as { run_id?: unknown; sequence?: unknown; event?: unknown };
  const runId = frame.run_id;
  const sequence = frame.sequence;
  const event = frame.event;
  if (typeof runId !== 'string' || !Number.isSafeInteger(sequence) || (sequence as number) < 0 ||
    typeof event !== 'object' || event === null) {
    return undefined;
  }
  const { type, payload } = event as { type?: unknown; payload?: unknown };
  if ((type !== 'text' && type !== 'reasoning') || typeof payload !== 'string') {
    return undefined;
  }
  return { kind: 'event', run_id: runId, sequence: sequence as number, event: { type, payload } };
}

/** Parses one decoded JSON value from the daemon with a readable error (never throws). */
export function parseServerFrame(value: unknown): ServerFrameParse {
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  if (kind === 'event') {
    const chunk = parseChunkEventFrame(value as object);
    if (chunk !== undefined) {
      return { ok: true, frame: chunk };
    }
  }
  const schema = kind === 'response' ? ResponseFrameSchema : kind === 'event' ? EventFrameSchema : undefined;
  if (schema === undefined) {
    return { ok: false, error: `server frame has no known "kind" (got ${JSON.stringify(kind) ?? 'undefined'})` };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, frame: parsed.data } : { ok: false, error: z.prettifyError(parsed.error) };
}

// ---------------------------------------------------------------------------------------------------------------
// Canonical client frame builders (strict writing).

/** RunRequest as a caller supplies it: options may be left out; the builder writes them as null / empty. */
export type RunRequestInput = Pick<RunRequest, 'provider' | 'prompt' | 'permission' | 'approvals' | 'interactive'> &
  Partial<Omit<RunRequest, 'provider' | 'prompt' | 'permission' | 'approvals' | 'interactive'>>;

/** Every RunRequest key in serde's declaration order, `null` for unset options (WIRE.md §1.5 advice). */
export function canonicalRunRequest(input: RunRequestInput): RunRequest {
  return {
    provider: input.provider,
    model: input.model ?? '',
    prompt: input.prompt,
    isCommand: input.isCommand ?? false,
    system: input.system ?? null,
    permission: input.permission,
    effort: input.effort ?? null,
    extraThinking: input.extraThinking ?? null,
    approvals: input.approvals,
    interactive: input.interactive,
    workspaceRoots: [...(input.workspaceRoots ?? [])],
    resumeSessionId: input.resumeSessionId ?? null,
    binary: input.binary ?? null,
    environment: { ...(input.environment ?? {}) },
    uncheckedArgs: [...(input.uncheckedArgs ?? [])],
    metadata: { ...(input.metadata ?? {}) },
  };
}

/** Conventional idempotency keys (§1.10); the 0.3 daemon ignores them but requires the field. */
export const idempotencyKeys = {
  start: (runId: string): string => `${runId}:start`,
  inject: (runId: string, n: number): string => `${runId}:inject:${n}`,
  cancel: (runId: string): string => `${runId}:cancel`,
  approval: (runId: string, approvalId: string): string => `${runId}:approval:${approvalId}`,
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type StartRunFrame = Extract<ClientFrame, { type: 'start_run' }>;
/** Messages as the builder takes them: a client frame without the envelope; start_run takes a RunRequestInput. */
export type ClientMessage =
  | DistributiveOmit<Exclude<ClientFrame, StartRunFrame>, 'requestId'>
  | (Omit<StartRunFrame, 'requestId' | 'request'> & { readonly request: RunRequestInput });

function assertWireInt(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer in 0..${Number.MAX_SAFE_INTEGER}, got ${value}`);
  }
}

/**
 * Builds the canonical frame `{requestId, type, …fields}` in serde order and validates it, so a frame the daemon
 * would silently close on is never written. Throws on a programming error (bad integer, missing field).
 */
export function buildClientFrame(requestId: number, message: ClientMessage): ClientFrame {
  assertWireInt('requestId', requestId);
  const body: Record<string, unknown> = { requestId, ...message };
  if (message.type === 'start_run') {
    body['request'] = canonicalRunRequest(message.request);
  }
  for (const key of ['after_sequence', 'through_sequence'] as const) {
    if (key in message) {
      assertWireInt(key, (message as unknown as Record<string, number>)[key]!);
    }
  }
  const parsed = ClientFrameSchema.safeParse(body);
  if (!parsed.success) {
    throw new TypeError(`invalid ${message.type} frame: ${z.prettifyError(parsed.error)}`);
  }
  // zod output follows the schema's key order, which is serde's declaration order.
  return parsed.data;
}
