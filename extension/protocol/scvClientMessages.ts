/**
 * SCV protocol 3 — what a client sends (WIRE.md §2.4). Schemas are plain (non-strict) objects because the server
 * ignores unknown keys; the reference daemon parses with them. Writing is strict: the builders below produce
 * exactly the canonical frames, with string `request_id`s and unset options *omitted* (never `null`). The only
 * `null`s protocol 3 sends are `queue.move.before_queue_id` (move to end) and `channel_set.workspace`.
 * `session.attach` is deliberately absent: servers do not support it.
 */
import * as z from 'zod';
import { DaemonCommandSchema } from './scvDaemonControl';
import type { DaemonCommand } from './scvDaemonControl';
import { SCV_MAX_TURN_ATTACHMENTS } from './scvLimits';
import { summarizeIssues } from './scvServerEventParser';
import { AttachmentSchema, PeerInfoSchema, uint } from './scvTypes';
import type { Attachment, PeerInfo } from './scvTypes';

const base = { request_id: z.string() };
const sessionBase = { ...base, session_id: z.string() };

/** Options of `session.start`. All optional except `cwd` (absolute, an existing directory on the daemon's host). */
export const SessionStartFieldsSchema = z.object({
  cwd: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
  base_url: z.string().optional(),
  no_tools: z.boolean().optional(),
  delegation_depth: uint.optional(),
  channel: z.string().optional(),
  /** The server approves every approval request of this session, background jobs included. */
  auto_approve: z.boolean().optional(),
  /** Newer servers. Each part ≤ 64 chars of `[A-Za-z0-9_-]`. */
  chat: z.object({ channel: z.string(), account: z.string(), conversation: z.string() }).optional(),
  /** Newer servers. ≤ 16 KiB, only with `no_tools: true`. */
  system_prompt: z.string().optional(),
});
export type SessionStartOptions = z.infer<typeof SessionStartFieldsSchema>;

export const scvClientMessageSchemas = {
  /** First message on every connection. */
  initialize: z.object({ type: z.literal('initialize'), ...base, protocol_version: uint, client: PeerInfoSchema }),
  /** Management (socket only): answered by `daemon.status`. */
  'daemon.control': z.object({ type: z.literal('daemon.control'), ...base, command: DaemonCommandSchema }),
  /** Start this connection's one session: answered by `session.started` then `queue.snapshot`. */
  'session.start': SessionStartFieldsSchema.extend({ type: z.literal('session.start'), ...base }),
  /** Run a prompt (or queue it behind the running turn). Never retry: it may already have run. */
  'turn.start': z.object({
    type: z.literal('turn.start'),
    ...sessionBase,
    prompt: z.string(),
    attachments: z.array(AttachmentSchema).max(SCV_MAX_TURN_ATTACHMENTS).optional(),
  }),
  /** Replace a queued prompt's text; `revision` must be the entry's current one. */
  'queue.update': z.object({
    type: z.literal('queue.update'),
    ...sessionBase,
    queue_id: z.string(),
    revision: uint,
    prompt: z.string(),
  }),
  /** Move a queued prompt before another (`null` = to the end). */
  'queue.move': z.object({
    type: z.literal('queue.move'),
    ...sessionBase,
    queue_id: z.string(),
    revision: uint,
    before_queue_id: z.string().nullable(),
  }),
  /** Drop a queued prompt. */
  'queue.remove': z.object({ type: z.literal('queue.remove'), ...sessionBase, queue_id: z.string(), revision: uint }),
  /** Hold (or release) the queue; the running turn continues. */
  'session.pause': z.object({ type: z.literal('session.pause'), ...sessionBase, paused: z.boolean() }),
  /** Cancel the running turn. */
  'turn.cancel': z.object({ type: z.literal('turn.cancel'), ...sessionBase, turn_id: z.string() }),
  /** Answer an `approval.requested`. No dedicated reply; refusals come back as `error`. */
  'approval.resolve': z.object({
    type: z.literal('approval.resolve'),
    ...sessionBase,
    approval_id: z.string(),
    approved: z.boolean(),
  }),
  /** Clear history and queue of an idle session. */
  'session.clear': z.object({ type: z.literal('session.clear'), ...sessionBase }),
} as const;

type MessageSchemas = typeof scvClientMessageSchemas;
export type ScvClientMessageType = keyof MessageSchemas;
export type ScvClientMessageOf<T extends ScvClientMessageType> = z.infer<MessageSchemas[T]>;
export type ScvClientMessage = { [K in ScvClientMessageType]: ScvClientMessageOf<K> }[ScvClientMessageType];

export function isScvClientMessageType(type: string): type is ScvClientMessageType {
  return Object.prototype.hasOwnProperty.call(scvClientMessageSchemas, type);
}

/** Copies only the keys whose value is not `undefined`, keeping the caller's order. */
function defined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) {
      out[k] = v;
    }
  }
  return out as T;
}

/** The wire form of an attachment: `name`/`mime` omitted when empty. */
function wireAttachment(a: Attachment): Attachment {
  return defined({
    kind: a.kind,
    path: a.path,
    ...(a.name ? { name: a.name } : {}),
    ...(a.mime ? { mime: a.mime } : {}),
    size: a.size,
    transcript: a.transcript,
  }) as Attachment;
}

export function buildInitialize(requestId: string, protocolVersion: number, client: PeerInfo): ScvClientMessageOf<'initialize'> {
  return { type: 'initialize', request_id: requestId, protocol_version: protocolVersion, client: { name: client.name, version: client.version } };
}

export function buildDaemonControl(requestId: string, command: DaemonCommand): ScvClientMessageOf<'daemon.control'> {
  return { type: 'daemon.control', request_id: requestId, command: defined(command) };
}

export function buildSessionStart(requestId: string, options: SessionStartOptions): ScvClientMessageOf<'session.start'> {
  return defined({ type: 'session.start' as const, request_id: requestId, ...options });
}

export function buildTurnStart(
  requestId: string,
  sessionId: string,
  prompt: string,
  attachments: readonly Attachment[] = [],
): ScvClientMessageOf<'turn.start'> {
  return {
    type: 'turn.start',
    request_id: requestId,
    session_id: sessionId,
    prompt,
    ...(attachments.length > 0 ? { attachments: attachments.map(wireAttachment) } : {}),
  };
}

export function buildQueueUpdate(
  requestId: string,
  sessionId: string,
  queueId: string,
  revision: number,
  prompt: string,
): ScvClientMessageOf<'queue.update'> {
  return { type: 'queue.update', request_id: requestId, session_id: sessionId, queue_id: queueId, revision, prompt };
}

export function buildQueueMove(
  requestId: string,
  sessionId: string,
  queueId: string,
  revision: number,
  beforeQueueId: string | null,
): ScvClientMessageOf<'queue.move'> {
  return {
    type: 'queue.move',
    request_id: requestId,
    session_id: sessionId,
    queue_id: queueId,
    revision,
    before_queue_id: beforeQueueId,
  };
}

export function buildQueueRemove(
  requestId: string,
  sessionId: string,
  queueId: string,
  revision: number,
): ScvClientMessageOf<'queue.remove'> {
  return { type: 'queue.remove', request_id: requestId, session_id: sessionId, queue_id: queueId, revision };
}

export function buildSessionPause(requestId: string, sessionId: string, paused: boolean): ScvClientMessageOf<'session.pause'> {
  return { type: 'session.pause', request_id: requestId, session_id: sessionId, paused };
}

export function buildTurnCancel(requestId: string, sessionId: string, turnId: string): ScvClientMessageOf<'turn.cancel'> {
  return { type: 'turn.cancel', request_id: requestId, session_id: sessionId, turn_id: turnId };
}

export function buildApprovalResolve(
  requestId: string,
  sessionId: string,
  approvalId: string,
  approved: boolean,
): ScvClientMessageOf<'approval.resolve'> {
  return { type: 'approval.resolve', request_id: requestId, session_id: sessionId, approval_id: approvalId, approved };
}

export function buildSessionClear(requestId: string, sessionId: string): ScvClientMessageOf<'session.clear'> {
  return { type: 'session.clear', request_id: requestId, session_id: sessionId };
}

/**
 * Checks a built message against its schema before it goes out (catches e.g. a fractional `revision`, which the
 * Rust peer would reject). Returns a readable problem, or `undefined` when the message is valid.
 */
export function validateScvClientMessage(message: ScvClientMessage): string | undefined {
  const result = scvClientMessageSchemas[message.type].safeParse(message);
  if (result.success) {
    return undefined;
  }
  return summarizeIssues(result.error);
}
