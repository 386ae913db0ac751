/**
 * AgencyProxy protocol 0.3 — run events, the payload of event frames (WIRE.md §1.7). Payload objects are snake_case.
 * Reading is lenient: an unknown event type, or a known one whose payload does not match, parses into an `unknown`
 * event that keeps the raw JSON.
 */
import * as z from 'zod';
import { nullableString } from './agencyProxyPrimitives';

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
