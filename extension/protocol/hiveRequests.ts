/**
 * hyperhive `mcp.sock` — the requests a client writes (`cmd`-tagged, snake_case; WIRE.md 4.3). Strict: unknown keys
 * are refused, except in `request_schedule_prompt`, whose unverified payload passes extra keys through.
 */
import * as z from 'zod';
import { i64, uint } from './hivePrimitives';

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
