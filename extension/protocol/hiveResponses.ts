/**
 * hyperhive `mcp.sock` — the response the daemon writes (`kind`-tagged; WIRE.md 4.4), read leniently: unknown keys
 * are kept and companion lists parse element by element (`hiveCompanionTypes.ts`).
 */
import * as z from 'zod';
import {
  ContainerInfo,
  DeliveredMessage,
  InboxRow,
  MatrixIdentity,
  ReminderStats,
  WireSchedule,
  lenientArray,
  parseLooseEnd,
} from './hiveCompanionTypes';
import { i64, isRecord, uint } from './hivePrimitives';

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
