/**
 * hyperhive `mcp.sock` — the companion payload types carried in responses (`DeliveredMessage`, `InboxRow`,
 * `LooseEnd`, ...; WIRE.md 4.5). They are unverified, so every element of a companion list parses to a `Lenient<T>`:
 * `{ok:true, value}` when it matches the best-known shape (unknown keys kept), `{ok:false, raw, error}` otherwise.
 */
import * as z from 'zod';
import { TimeValue, i64, isRecord, uint } from './hivePrimitives';

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
