/**
 * hyperhive `hive-c0re` per-agent / manager `mcp.sock` wire (WIRE.md §4, `hive_mcp_sock.rs`).
 *
 * One NDJSON request (`cmd`-tagged, snake_case) and one NDJSON response (`kind`-tagged) per connection.
 * Request and response envelopes are exact; the companion payload types (`DeliveredMessage`, `InboxRow`,
 * `LooseEnd`, ...) are unverified (WIRE.md 4.5), so every element of a companion list parses to a `Lenient<T>`:
 * `{ok:true, value}` when it matches the best-known shape (unknown keys kept), `{ok:false, raw, error}` otherwise,
 * so the UI can show readable raw JSON instead of failing the whole response.
 */
import * as z from 'zod';

// ---- primitives ------------------------------------------------------------------------------------------------

/** Rust `i64`: any safe integer (never float notation, never beyond 2^53-1). */
const i64 = z.int();
/** Rust `u64`/`u32`: non-negative safe integer. */
const uint = z.int().min(0);
/** Time fields of unverified types: Unix seconds on mcp.sock, but tolerate RFC 3339 strings too. */
const TimeValue = z.union([z.number(), z.string()]);

/** Either the best-known shape, or the raw JSON plus why it did not match. */
export type Lenient<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly raw: unknown; readonly error: string };

/** Parse one value leniently against `schema`. */
export function parseLenient<T>(schema: z.ZodType<T>, raw: unknown): Lenient<T> {
  const result = schema.safeParse(raw);
  return result.success ? { ok: true, value: result.data } : { ok: false, raw, error: z.prettifyError(result.error) };
}

/** A schema for an array whose elements are parsed one by one with `parseLenient`. */
export function lenientArray<T>(schema: z.ZodType<T>) {
  return z.array(z.unknown()).transform((items) => items.map((item) => parseLenient(schema, item)));
}

// ---- companion types (unverified; WIRE.md 4.5) -----------------------------------------------------------------

/** Candidate time keys; the daemon's real name is unknown, so any of these is kept typed. See `pickTime`. */
const timeFields = {
  sent_at: TimeValue.optional(),
  created_at: TimeValue.optional(),
  at: TimeValue.optional(),
  timestamp: TimeValue.optional(),
};

/** First present time field of a companion row (unverified naming), or undefined. */
export function pickTime(row: {
  readonly sent_at?: number | string;
  readonly created_at?: number | string;
  readonly at?: number | string;
  readonly timestamp?: number | string;
}): number | string | undefined {
  return row.sent_at ?? row.created_at ?? row.at ?? row.timestamp;
}

/** One message popped by `recv`. `id` is the broker row id; `redelivered` = popped before but never acked. */
export const DeliveredMessage = z.looseObject({
  id: i64,
  from: z.string(),
  body: z.string(),
  redelivered: z.boolean().optional(),
  in_reply_to: i64.nullish(),
  ...timeFields,
});
export type DeliveredMessage = z.output<typeof DeliveredMessage>;

/** One row of `recent` (newest first, non-mutating). Low confidence beyond `from`/`body`. */
export const InboxRow = z.looseObject({
  id: i64.optional(),
  from: z.string(),
  body: z.string(),
  to: z.string().optional(),
  in_reply_to: i64.nullish(),
  redelivered: z.boolean().optional(),
  ...timeFields,
});
export type InboxRow = z.output<typeof InboxRow>;

/** `ReminderStats`: counts over the rollup window. Names unverified; unknown counters are kept. */
export const ReminderStats = z.looseObject({
  scheduled: uint.optional(),
  delivered: uint.optional(),
  pending: uint.optional(),
});
export type ReminderStats = z.output<typeof ReminderStats>;

/** One matrix account an agent can act as. Shape unknown: any object, known keys typed. */
export const MatrixIdentity = z.looseObject({
  user_id: z.string().optional(),
  display_name: z.string().optional(),
  homeserver: z.string().optional(),
});
export type MatrixIdentity = z.output<typeof MatrixIdentity>;

/** One scheduled prompt as `list_schedules` reports it. */
export const WireSchedule = z.looseObject({
  id: i64,
  body: z.string().optional(),
  description: z.string().nullish(),
  interval_seconds: uint.nullish(),
  next_fire_at_unix: i64.nullish(),
  targets: z.array(z.string()).optional(),
});
export type WireSchedule = z.output<typeof WireSchedule>;

/** One descendant container (`list_descendants`). `running` is known; the rest is best-known. */
export const ContainerInfo = z.looseObject({
  name: z.string(),
  running: z.boolean(),
  parent: z.string().nullish(),
  depth: uint.optional(),
});
export type ContainerInfo = z.output<typeof ContainerInfo>;

/** Loose-end kinds `cancel_loose_end` accepts (snake_case; the set is unverified). */
export type CancelLooseEndKind = 'question' | 'todo' | 'reminder' | 'approval' | (string & {});
/** Syslog priority name for `get_host_journal` (unverified set). */
export type JournalPriority = 'emerg' | 'alert' | 'crit' | 'err' | 'warning' | 'notice' | 'info' | 'debug' | (string & {});

const age = { age_seconds: uint.optional() };

/** A queued approval (init_config / update_meta_inputs / schedule_prompt ...), decided on host.sock. */
export const ApprovalLooseEnd = z.looseObject({
  kind: z.literal('approval'),
  id: i64,
  agent: z.string().optional(),
  commit_ref: z.string().nullish(),
  description: z.string().nullish(),
  ...age,
});
/** A question asked by (or routed to) this agent, not answered yet. */
export const QuestionLooseEnd = z.looseObject({
  kind: z.literal('question'),
  id: i64,
  question: z.string(),
  asker: z.string().optional(),
  target: z.string().nullish(),
  options: z.array(z.string()).optional(),
  multi: z.boolean().optional(),
  ...age,
});
/** A todo (loose-ends v2) from an in-container subsystem. */
export const TodoLooseEnd = z.looseObject({
  kind: z.literal('todo'),
  id: i64,
  summary: z.string(),
  subsystem: z.string().optional(),
  key: z.string().nullish(),
  source: z.string().nullish(),
  ...age,
});
/** A reminder not delivered yet. */
export const ReminderLooseEnd = z.looseObject({
  kind: z.literal('reminder'),
  id: i64,
  message: z.string().optional(),
  due_at: TimeValue.optional(),
  ...age,
});
const KnownLooseEnd = z.discriminatedUnion('kind', [ApprovalLooseEnd, QuestionLooseEnd, TodoLooseEnd, ReminderLooseEnd]);

/** A loose end with a tag this client does not know: kept whole so the UI can show it. */
export interface OtherLooseEnd {
  readonly kind: 'other';
  /** The tag as the daemon wrote it. */
  readonly tag: string;
  readonly id?: number;
  readonly fields: Readonly<Record<string, unknown>>;
}
export type LooseEnd = z.output<typeof KnownLooseEnd> | OtherLooseEnd;

const KNOWN_LOOSE_END_TAGS: ReadonlySet<string> = new Set(['approval', 'question', 'todo', 'reminder']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `LooseEnd` tag key is unknown (WIRE.md 4.5), so accept internal tags `kind` or `type` and serde's default
 * external tagging (`{"question": {...}}`). A known tag whose fields do not match, or an object with no
 * recognisable tag, becomes `{ok:false, raw}`; an unknown tag becomes `kind:'other'`.
 */
export function parseLooseEnd(raw: unknown): Lenient<LooseEnd> {
  if (!isRecord(raw)) {
    return { ok: false, raw, error: 'loose end is not a JSON object' };
  }
  let tag: string | undefined;
  let body: Record<string, unknown> = raw;
  if (typeof raw['kind'] === 'string') {
    tag = raw['kind'];
  } else if (typeof raw['type'] === 'string') {
    tag = raw['type'];
  } else {
    const keys = Object.keys(raw);
    const inner = keys.length === 1 ? raw[keys[0]!] : undefined;
    if (isRecord(inner)) {
      tag = keys[0]!;
      // An inner `kind` (e.g. an approval's own kind) must not be lost under the tag.
      body = 'kind' in inner ? { ...inner, inner_kind: inner['kind'] } : inner;
    }
  }
  if (tag === undefined) {
    return { ok: false, raw, error: 'loose end has no recognisable tag (kind/type/external)' };
  }
  if (!KNOWN_LOOSE_END_TAGS.has(tag)) {
    const id = body['id'];
    const other: OtherLooseEnd = { kind: 'other', tag, fields: body, ...(Number.isSafeInteger(id) ? { id: id as number } : {}) };
    return { ok: true, value: other };
  }
  const result = KnownLooseEnd.safeParse({ ...body, kind: tag });
  return result.success ? { ok: true, value: result.data } : { ok: false, raw, error: z.prettifyError(result.error) };
}

// ---- requests (client writes; strict) --------------------------------------------------------------------------

/** Payload of `request_schedule_prompt`, flattened beside `cmd`. Unverified: extra keys are passed through. */
export const SchedulePromptPayload = z.looseObject({
  body: z.string(),
  description: z.string().optional(),
  interval_seconds: uint.optional(),
  next_fire_at_unix: i64.optional(),
  targets: z.array(z.string()).optional(),
});
export type SchedulePromptPayload = z.output<typeof SchedulePromptPayload>;

const req = <C extends string, S extends z.ZodRawShape>(cmd: C, shape: S) =>
  z.strictObject({ cmd: z.literal(cmd), ...shape });
const optName = z.string().optional();

export const HiveRequest = z.discriminatedUnion('cmd', [
  /** Agent → agent message (on the manager socket: the manager sends). Creates a row: never retry blindly. */
  req('send', { to: z.string(), body: z.string(), in_reply_to: i64.optional() }),
  /** Harness only: long-poll pop of this agent's inbox. Consumes messages. */
  req('recv', { wait_seconds: uint.optional(), max: uint.optional() }),
  /** Non-mutating unread count. */
  req('status', {}),
  /** Operator → this agent (`from` = "operator"). Creates a row: never retry blindly. */
  req('operator_msg', { body: z.string() }),
  /** In-container wake injection with caller-chosen `from`. Harness only. */
  req('wake', { from: z.string(), body: z.string() }),
  /** Last `limit` rows addressed to this agent, newest first; non-mutating. */
  req('recent', { limit: uint }),
  /** Queue a question to the operator or another agent; replies `question_queued`. */
  req('ask', {
    question: z.string(),
    options: z.array(z.string()).optional(),
    multi: z.boolean().optional(),
    ttl_seconds: uint.optional(),
    to: z.string().optional(),
  }),
  /** Answer a question routed to this socket's principal. */
  req('answer', { id: i64, answer: z.string() }),
  /** Schedule a reminder to this agent. `timing` (ReminderTiming) is unverified: sent as given. */
  req('remind', { message: z.string(), timing: z.unknown(), file_path: z.string().optional() }),
  /** Loose ends of self / a child / (manager) any agent or `"*"`. */
  req('get_loose_ends', { agent: optName }),
  /** Upsert a subsystem todo (in-container producers). */
  req('upsert_todo', { subsystem: z.string(), key: z.string().optional(), summary: z.string(), source: z.string().optional() }),
  /** Clear producer-resolved todos. */
  req('clear_todo', { subsystem: z.string(), key: z.string().optional(), all: z.boolean().optional() }),
  /** List todos, optionally of one subsystem. */
  req('list_todos', { subsystem: z.string().optional() }),
  /** Mark one of this principal's todos done. */
  req('mark_todo_done', { id: i64 }),
  /** Count of undelivered reminders (same targeting as `get_loose_ends`). */
  req('count_pending_reminders', { agent: optName }),
  /** Reminder stats over the last `since_secs` (0 = all). */
  req('reminder_rollup', { since_secs: uint, agent: optName }),
  /** Set this agent's free-text status ("" clears). */
  req('set_status', { text: z.string() }),
  /** Identity + status of self (`name` absent) or another agent. */
  req('get_agent_meta', { name: optName }),
  /** Cancel an open loose end this principal owns. */
  req('cancel_loose_end', { kind: z.string().min(1), id: i64 }),
  /** Create a repo in the c0re-owned `agents` org. */
  req('create_repo', { repo: z.string() }),
  /** Harness only: ack every row popped since the last ack_turn. */
  req('ack_turn', {}),
  /** Harness only: ack every row with id ≤ up_to. */
  req('ack_until', { up_to: i64 }),
  /** Harness only (boot): requeue popped-but-unacked rows. */
  req('requeue_inflight', {}),
  /** Harness only: the graceful-stop checkpoint turn finished. */
  req('graceful_stop_complete', {}),
  /** Host journal lines (capability `read_host_journal`); `lines` default 30, max 100. */
  req('get_host_journal', {
    unit: z.string().optional(),
    container: z.string().optional(),
    lines: uint.max(100).optional(),
    priority: z.string().optional(),
    grep: z.string().optional(),
    since: z.string().optional(),
    until: z.string().optional(),
  }),
  /** (privileged) Initialise a new agent's config repo and queue an approval. */
  req('request_init_config', { name: z.string(), description: z.string().optional() }),
  /** (privileged) Stop a sub-agent gracefully. */
  req('kill', { name: z.string() }),
  /** (privileged) Start a stopped sub-agent. */
  req('start', { name: z.string() }),
  /** (privileged) Restart a sub-agent. */
  req('restart', { name: z.string() }),
  /** (privileged) Rebuild a sub-agent against the current flake. */
  req('update', { name: z.string() }),
  /** (privileged) Journal lines of a sub-agent container. */
  req('get_logs', { agent: z.string(), lines: uint.optional() }),
  /** (privileged) Queue an approval for `nix flake update [inputs...]`. */
  req('request_update_meta_inputs', { inputs: z.array(z.string()), description: z.string().optional() }),
  /** (privileged) Queue an approval to add a scheduled prompt; payload flattened beside `cmd`. */
  z.looseObject({ cmd: z.literal('request_schedule_prompt'), ...SchedulePromptPayload.shape }),
  /** (privileged) Cancel a schedule, or only some of its targets. */
  req('cancel_schedule', { id: i64, targets: z.array(z.string()).optional() }),
  /** (privileged) Every schedule in the queue. */
  req('list_schedules', {}),
  /** Descendant containers of the caller (gated by the `lifecycle` tool group). */
  req('list_descendants', {}),
  /** (privileged) Fire a schedule now, out of band. */
  req('fire_schedule_now', { id: i64 }),
  /**
   * (privileged) Edit a schedule. `description`/`interval_seconds` are "absent = unchanged" and `null` also reads
   * as unchanged (WIRE.md 4.9 #5), so they cannot be cleared: only values are accepted.
   */
  req('edit_schedule', {
    id: i64,
    body: z.string().optional(),
    description: z.string().optional(),
    interval_seconds: uint.optional(),
    next_fire_at_unix: i64.optional(),
    targets_add: z.array(z.string()).optional(),
    targets_remove: z.array(z.string()).optional(),
  }),
]);
export type HiveRequest = z.output<typeof HiveRequest>;
export type HiveCmd = HiveRequest['cmd'];
export type HiveRequestOf<C extends HiveCmd> = Extract<HiveRequest, { cmd: C }>;

/** Requests an agent socket rejects with `err` "privileged variant..." (manager socket only). */
export const HIVE_PRIVILEGED_CMDS: ReadonlySet<HiveCmd> = new Set<HiveCmd>([
  'request_init_config', 'kill', 'start', 'restart', 'update', 'get_logs', 'request_update_meta_inputs',
  'request_schedule_prompt', 'cancel_schedule', 'list_schedules', 'fire_schedule_now', 'edit_schedule',
]);

/** Prefix of the daemon's `err.message` for a privileged request on an agent socket. */
export const PRIVILEGED_ERR_PREFIX = 'privileged variant';

// ---- responses (daemon writes; lenient) ------------------------------------------------------------------------

const res = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.looseObject({ kind: z.literal(kind), ...shape });

export const HiveResponse = z.discriminatedUnion('kind', [
  /** Generic success (send, operator_msg, lifecycle, ...; for many requests inferred). */
  res('ok', {}),
  /** Any failure; the only error form (no code). */
  res('err', { message: z.string() }),
  /** `recv`: FIFO batch plus inbox depth after the pop. */
  res('messages', { messages: lenientArray(DeliveredMessage), remaining: uint }),
  /** `status`: pending messages for this agent. */
  res('status', { unread: uint }),
  /** `ack_until`: rows newly marked handled. */
  res('acked', { count: uint }),
  /** `recent`: newest-first inbox rows. */
  res('recent', { rows: lenientArray(InboxRow) }),
  /** `ask`: the queued question id. */
  res('question_queued', { id: i64 }),
  /** `get_loose_ends` (and probably `list_todos`). */
  res('loose_ends', { loose_ends: z.array(z.unknown()).transform((items) => items.map(parseLooseEnd)) }),
  /** `count_pending_reminders`. */
  res('pending_reminders_count', { count: uint }),
  /** `reminder_rollup`: ReminderStats flattened beside `kind`. */
  ReminderStats.extend({ kind: z.literal('reminder_rollup') }),
  /** `get_agent_meta`. `running` absent = true; `matrix_accounts` omitted when empty. */
  res('agent_meta', {
    name: z.string(),
    running: z.boolean().default(true),
    hyperhive_rev: z.string().nullish(),
    status_text: z.string().nullish(),
    status_set_at: i64.nullish(),
    hive_name: z.string().nullish(),
    swarm_name: z.string().nullish(),
    matrix_accounts: lenientArray(MatrixIdentity).default([]),
  }),
  /** `get_logs` (manager socket only). */
  res('logs', { content: z.string() }),
  /** `get_host_journal`. */
  res('host_journal', { content: z.string() }),
  /** `list_schedules` (manager socket only). */
  res('schedules', { schedules: lenientArray(WireSchedule) }),
  /** `create_repo`. */
  res('repo_created', { full_name: z.string(), clone_url: z.string() }),
  /** `list_descendants`: parents before children, alphabetical within a depth. */
  res('containers', { containers: lenientArray(ContainerInfo) }),
  /** `recv` while a graceful stop is pending (instead of `messages`). */
  res('graceful_stop', {}),
]);
export type HiveResponse = z.output<typeof HiveResponse>;
export type HiveResponseKind = HiveResponse['kind'];
export type HiveResponseOf<K extends HiveResponseKind> = Extract<HiveResponse, { kind: K }>;
export type AgentMeta = HiveResponseOf<'agent_meta'>;

/** A parsed response line: a known variant, or (unknown `kind` / malformed known variant) the raw JSON. */
export type HiveReply =
  | { readonly ok: true; readonly response: HiveResponse }
  | { readonly ok: false; readonly raw: unknown; readonly kind: string | undefined; readonly error: string };

/** Parse one decoded response JSON value. Never throws. */
export function parseHiveResponse(value: unknown): HiveReply {
  const result = HiveResponse.safeParse(value);
  if (result.success) {
    return { ok: true, response: result.data };
  }
  const kind = isRecord(value) && typeof value['kind'] === 'string' ? value['kind'] : undefined;
  return { ok: false, raw: value, kind, error: z.prettifyError(result.error) };
}
