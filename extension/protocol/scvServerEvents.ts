/**
 * SCV protocol 3 — the schema of every event the server sends (`ServerEvent`, WIRE.md §2.5,
 * `scv_server_events.rs`), keyed by `type`, and the event union a reader sees (a `type` this client does not know
 * included). Parse with `parseScvServerEvent` (`scvServerEventParser.ts`).
 */
import * as z from 'zod';
import { DaemonStatusSchema } from './scvDaemonControl';
import {
  ErrorCodeSchema,
  JobChangeSchema,
  JobOutcomeSchema,
  JobReportSchema,
  PeerInfoSchema,
  QueueEntrySchema,
  ToolErrorKindSchema,
  TurnOriginSchema,
  UsageSchema,
  uint,
} from './scvTypes';

const seq = uint;
/** Common fields of session events that answer or belong to a request. */
const sessionEvent = { request_id: z.string(), session_id: z.string(), seq };
/** Common fields of turn-scoped events; `request_id` is the `turn.start` that submitted the turn. */
const turnEvent = { ...sessionEvent, turn_id: z.string() };

/** Schemas of every event type protocol 3 defines, keyed by `type`. */
export const scvEventSchemas = {
  /** Answer to `daemon.control`. No `seq`. */
  'daemon.status': z.object({
    type: z.literal('daemon.status'),
    request_id: z.string(),
    status: DaemonStatusSchema,
  }),
  /** Answer to `initialize`. No `seq`. */
  initialized: z.object({
    type: z.literal('initialized'),
    request_id: z.string(),
    protocol_version: uint,
    server: PeerInfoSchema,
  }),
  /** Answer to `session.start`, with the limits the client should use. No `seq`. */
  'session.started': z.object({
    type: z.literal('session.started'),
    request_id: z.string(),
    session_id: z.string(),
    cwd: z.string(),
    model: z.string(),
    context_max_tokens: uint,
    max_server_frame_bytes: uint,
    max_transcript_bytes: uint,
    max_transcript_items: uint,
    max_prompt_history_bytes: uint,
    max_prompt_history_items: uint,
    /** TUI key bindings; omitted when empty. */
    keys: z.record(z.string(), z.string()).default({}),
    /** Newer servers: what the session restored from a stopped one. Shape unknown; show raw. */
    restored: z.unknown().optional(),
  }),
  /** The whole queue; sent after `session.started`. `request_id` is present as `null` when nobody asked. */
  'queue.snapshot': z.object({
    type: z.literal('queue.snapshot'),
    request_id: z.string().nullable().default(null),
    session_id: z.string(),
    seq,
    entries: z.array(QueueEntrySchema),
    paused: z.boolean(),
  }),
  /** A prompt was queued behind the running turn (answer to `turn.start`). */
  'queue.enqueued': z.object({
    type: z.literal('queue.enqueued'),
    ...sessionEvent,
    entry: QueueEntrySchema,
    position: uint,
  }),
  /** Answer to `queue.update`. */
  'queue.updated': z.object({ type: z.literal('queue.updated'), ...sessionEvent, entry: QueueEntrySchema }),
  /** Answer to `queue.move`; `revision` is the entry's revision after the change. */
  'queue.moved': z.object({
    type: z.literal('queue.moved'),
    ...sessionEvent,
    queue_id: z.string(),
    position: uint,
    revision: uint,
  }),
  /** Answer to `queue.remove`. */
  'queue.removed': z.object({
    type: z.literal('queue.removed'),
    ...sessionEvent,
    queue_id: z.string(),
    revision: uint,
  }),
  /** A queued prompt left the queue to run as turn `turn_id`; `request_id` is its `turn.start`. */
  'queue.dequeued': z.object({ type: z.literal('queue.dequeued'), ...turnEvent, queue_id: z.string() }),
  /** Answer to `session.pause`. */
  'session.paused': z.object({ type: z.literal('session.paused'), ...sessionEvent, paused: z.boolean() }),
  /** A turn began; `origin` is set when the server started it itself. */
  'turn.started': z.object({ type: z.literal('turn.started'), ...turnEvent, origin: TurnOriginSchema.optional() }),
  /** Append-only chunk of answer text. */
  'assistant.delta': z.object({ type: z.literal('assistant.delta'), ...turnEvent, content: z.string() }),
  /** Canonical text of one step (replaces that step's deltas); may be empty. */
  'assistant.completed': z.object({ type: z.literal('assistant.completed'), ...turnEvent, content: z.string() }),
  /** The model asked to call a tool. */
  'tool.proposed': z.object({
    type: z.literal('tool.proposed'),
    ...turnEvent,
    call_id: z.string(),
    name: z.string(),
    arguments: z.unknown(),
  }),
  /** A tool call waits for `approval.resolve`. */
  'approval.requested': z.object({
    type: z.literal('approval.requested'),
    ...turnEvent,
    approval_id: z.string(),
    call_id: z.string(),
    name: z.string(),
    risk: z.string(),
    cwd: z.string(),
    summary: z.string(),
  }),
  /** An (approved) tool call began running. */
  'tool.started': z.object({ type: z.literal('tool.started'), ...turnEvent, call_id: z.string(), name: z.string() }),
  /** Display-only status lines from a running tool. */
  'tool.progress': z.object({ type: z.literal('tool.progress'), ...turnEvent, call_id: z.string(), text: z.string() }),
  /** A tool call finished. Classify failures by `error`, never by `output`. */
  'tool.completed': z.object({
    type: z.literal('tool.completed'),
    ...turnEvent,
    call_id: z.string(),
    name: z.string(),
    success: z.boolean(),
    output: z.string(),
    truncated: z.boolean(),
    error: ToolErrorKindSchema.optional(),
    jobs: z.array(JobChangeSchema).default([]),
  }),
  /** Older history was summarized to fit the context window. */
  'context.compacted': z.object({
    type: z.literal('context.compacted'),
    ...turnEvent,
    before_tokens: uint,
    after_tokens: uint,
    removed_messages: uint,
  }),
  /** Old turns were removed to keep the history within its limits. */
  'session.trimmed': z.object({
    type: z.literal('session.trimmed'),
    ...sessionEvent,
    removed_messages: uint,
    history_bytes: uint,
  }),
  /** Answer to `session.clear`: history and queue cleared (`seq` continues). */
  'session.cleared': z.object({ type: z.literal('session.cleared'), ...sessionEvent }),
  /** Terminal: the turn finished. */
  'turn.completed': z.object({
    type: z.literal('turn.completed'),
    ...turnEvent,
    steps: uint,
    usage: UsageSchema,
    origin: TurnOriginSchema.optional(),
  }),
  /** Terminal: the turn was cancelled; its history changes were rolled back. */
  'turn.cancelled': z.object({ type: z.literal('turn.cancelled'), ...turnEvent, origin: TurnOriginSchema.optional() }),
  /** Terminal: the turn failed; its history changes were rolled back. */
  'turn.failed': z.object({
    type: z.literal('turn.failed'),
    ...turnEvent,
    code: ErrorCodeSchema,
    message: z.string(),
    origin: TurnOriginSchema.optional(),
  }),
  /** Jobs the server reports itself because the report turn failed for good; just before that `turn.failed`. */
  'background.reported': z.object({
    type: z.literal('background.reported'),
    session_id: z.string(),
    seq,
    code: ErrorCodeSchema,
    message: z.string(),
    attempts: uint,
    reports: z.array(JobReportSchema),
  }),
  /** Final outcomes of reviewed jobs whose journal was still pending. Belongs to no request or turn. */
  'background.updated': z.object({
    type: z.literal('background.updated'),
    session_id: z.string(),
    seq,
    outcomes: z.array(JobOutcomeSchema),
  }),
  /** A refused request (`request_id` set) or a connection-level error (omitted, or `null`: read as absent). */
  error: z.object({
    type: z.literal('error'),
    request_id: z.string().nullish().transform((id) => id ?? undefined),
    code: ErrorCodeSchema,
    message: z.string(),
    fatal: z.boolean(),
  }),
} as const;

type EventSchemas = typeof scvEventSchemas;
export type ScvKnownEventType = keyof EventSchemas;
export type ScvEventOf<T extends ScvKnownEventType> = z.infer<EventSchemas[T]>;
export type ScvKnownEvent = { [K in ScvKnownEventType]: ScvEventOf<K> }[ScvKnownEventType];

/**
 * An event whose `type` this client does not know (from a newer server). Skip it; it excuses one `seq` gap, and if
 * it carries a numeric `seq` the tracker advances to it.
 */
export interface ScvUnknownEvent {
  readonly type: 'unknown';
  /** The `type` string as sent. */
  readonly eventType: string;
  readonly seq?: number;
  readonly session_id?: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

export type ScvServerEvent = ScvKnownEvent | ScvUnknownEvent;
