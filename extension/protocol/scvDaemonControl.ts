/**
 * SCV protocol 3 — management: `daemon.control` commands (client → daemon, socket only, no session needed) and the
 * `DaemonStatus` every successful command answers with (WIRE.md §2.10). Several nested shapes are only partly
 * specified, so the status is read leniently and unclear parts are kept raw (`unknown`).
 */
import * as z from 'zod';
import { int, openEnum, uint } from './scvTypes';

const optString = z.string().optional();

/** Every `action` protocol 3 defines. A daemon answers any other action with `invalid_json`. */
export const DAEMON_ACTIONS = [
  'status',
  'reload',
  'channel_set',
  'channel_logout',
  'delegations',
  'delegation_kill',
  'restart_when_idle',
  'confirm_ask',
  'confirm_status',
] as const;
export type DaemonAction = (typeof DAEMON_ACTIONS)[number];

/** `command` of `daemon.control`, tagged by `action`. */
export const DaemonCommandSchema = z.discriminatedUnion('action', [
  /** Report the daemon's state. */
  z.object({ action: z.literal('status') }),
  /** Reload the configuration. */
  z.object({ action: z.literal('reload') }),
  /** Configure a chat channel account. `workspace` is required and may be `null`. */
  z.object({
    action: z.literal('channel_set'),
    channel: z.string(),
    account: z.string(),
    enabled: z.boolean(),
    workspace: z.string().nullable(),
    remote_tools: z.enum(['none', 'owner']).optional(),
    senders: z.enum(['owner', 'anyone']).optional(),
    /** Newer servers only. */
    purpose: z.enum(['chat', 'mail']).optional(),
  }),
  /** Log a chat channel account out. */
  z.object({ action: z.literal('channel_logout'), channel: z.string(), account: z.string() }),
  /** List delegations (`all` default false). */
  z.object({ action: z.literal('delegations'), all: z.boolean().optional() }),
  /** Kill a delegation by handle, or the orphans. */
  z.object({ action: z.literal('delegation_kill'), handle: optString, orphans: z.boolean().optional() }),
  /** Restart (into another version, when given) once idle. All four fields are `Option` in the Rust. */
  z.object({
    action: z.literal('restart_when_idle'),
    version: optString,
    commit: optString,
    parent: optString,
    max_wait_seconds: uint.optional(),
  }),
  /** Ask the owner a yes/no question over chat. */
  z.object({
    action: z.literal('confirm_ask'),
    question: z.string(),
    parent: optString,
    timeout_seconds: uint.optional(),
  }),
  /** Poll a question asked with `confirm_ask`. */
  z.object({ action: z.literal('confirm_status'), id: z.string() }),
]);
export type DaemonCommand = z.infer<typeof DaemonCommandSchema>;

/** One chat component (`"<channel>:<account>"`). `channel` is `#[serde(default)]`: older daemons omit it. */
export const DaemonComponentSchema = z.object({
  id: z.string(),
  channel: z.string().default(''),
  account: z.string(),
  bot_id: z.union([z.string(), int]).nullable().default(null),
  user_id: z.union([z.string(), int]).nullable().default(null),
  enabled: z.boolean(),
  state: openEnum([
    'disabled',
    'starting',
    'connected',
    'disconnected',
    'backoff',
    'stopping',
    'stopped',
    'failed',
  ] as const),
  last_success_unix_seconds: int.nullable().default(null),
  error: z.string().nullable().default(null),
  restarts: uint.default(0),
  remote_tools: z.string().optional(),
  senders: z.string().optional(),
});
export type DaemonComponent = z.infer<typeof DaemonComponentSchema>;

/** A delegated agent process the daemon supervises. */
export const DelegationEntrySchema = z.object({
  handle: z.string(),
  agent: z.string(),
  session: z.string(),
  depth: uint,
  pid: uint,
  owner_pid: uint,
  /** Shape unverified (count or list); kept raw. */
  processes: z.unknown().optional(),
  cwd: z.string(),
  started_unix_seconds: int,
  orphaned: z.boolean(),
  /** `Option<String>`: absent, or `null` from a serializer that writes `None`. */
  conversation: z.string().nullish(),
  /** The delegating turn's number: `Option<u32>`, an integer (not a turn id string). */
  turn: uint.nullish(),
});
export type DelegationEntry = z.infer<typeof DelegationEntrySchema>;

/** `#[serde(default)]` as a whole: older daemons omit it, which reads as no delegations. */
const DelegationsSchema = z.object({
  active: uint.default(0),
  reaped: uint.default(0),
  entries: z.array(DelegationEntrySchema).default([]),
  /** Shapes unverified; kept raw. */
  killed: z.unknown().optional(),
  idle: z.unknown().optional(),
});

export const DaemonStatusSchema = z.object({
  version: z.string(),
  pid: uint,
  components: z.array(DaemonComponentSchema).default([]),
  delegations: DelegationsSchema.default({ active: 0, reaped: 0, entries: [] }),
  restart: z
    .object({
      to_version: z.string(),
      waiting_for: z.unknown().optional(),
      requester: z.unknown().optional(),
      origin: z.unknown().optional(),
      deadline_unix_seconds: int,
    })
    .optional(),
  confirm: z
    .object({
      id: z.string(),
      state: openEnum(['pending', 'yes', 'no', 'expired', 'withdrawn', 'failed'] as const),
      chat: z.unknown().optional(),
      deadline_unix_seconds: int,
    })
    .optional(),
});
export type DaemonStatus = z.infer<typeof DaemonStatusSchema>;
