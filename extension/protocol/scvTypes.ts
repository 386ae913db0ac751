/**
 * SCV protocol 3 — nested types carried inside server events (WIRE.md §2.5 "Nested types"), read leniently:
 * unknown keys are dropped, unknown enum strings are kept as opaque values, and keys the server leaves out
 * "when empty" are defaulted here so callers never see `undefined` where the server meant `[]`, `""` or `false`.
 */
import * as z from 'zod';

/**
 * A snake_case enumeration read leniently: the known values are typed for autocompletion, and any other string
 * is kept as it is (a newer server may add values; the Rust side maps them to `unknown`).
 */
export type OpenEnum<T extends string> = T | (string & {});

export function openEnum<const T extends readonly string[]>(values: T): z.ZodType<OpenEnum<T[number]>> {
  return z.custom<OpenEnum<T[number]>>((v) => typeof v === 'string', {
    message: `expected a string (known values: ${values.join(', ')})`,
  });
}

/** A non-negative JSON integer (u64/usize on the Rust side). */
export const uint = z.number().int().nonnegative();
/** A possibly negative JSON integer (i64). */
export const int = z.number().int();

export const ERROR_CODES = [
  'invalid_json',
  'not_initialized',
  'version_mismatch',
  'invalid_request',
  'unsupported',
  'session_not_found',
  'turn_active',
  'turn_not_found',
  'approval_not_found',
  'queue_limit',
  'queue_not_found',
  'queue_conflict',
  'component_error',
  'delegation_error',
  'restart_error',
  'confirm_error',
  'provider_error',
  'context_limit',
  'step_limit',
  'history_limit',
  'response_limit',
  'tool_limit',
  'internal_error',
  'unknown',
] as const;
/** `ErrorCode` (WIRE.md §2.8); unknown codes are opaque. */
export const ErrorCodeSchema = openEnum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ToolErrorKindSchema = openEnum([
  'denied',
  'cancelled',
  'invalid_arguments',
  'unavailable',
  'limit',
  'failed',
  'unknown_tool',
] as const);
export type ToolErrorKind = z.infer<typeof ToolErrorKindSchema>;

export const JobStatusSchema = openEnum(['running', 'completed', 'failed', 'declined', 'timeout', 'cancelled'] as const);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** `{name, version}` of either peer (`initialize.client`, `initialized.server`). */
export const PeerInfoSchema = z.object({ name: z.string(), version: z.string() });
export type PeerInfo = z.infer<typeof PeerInfoSchema>;

/** A file attached to a prompt; `path` is a regular file on the daemon's host. `name`/`mime` omitted when empty. */
export const AttachmentSchema = z.object({
  kind: openEnum(['image', 'audio', 'video', 'file', 'sticker'] as const),
  path: z.string(),
  name: z.string().default(''),
  mime: z.string().default(''),
  size: uint,
  transcript: z.string().optional(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** A queued prompt. `revision` is bumped on every change and must be named by queue edits. */
export const QueueEntrySchema = z.object({
  queue_id: z.string(),
  revision: uint,
  prompt: z.string(),
  /** The client that queued it. */
  submitter: z.string(),
  attachments: z.array(AttachmentSchema).default([]),
});
export type QueueEntry = z.infer<typeof QueueEntrySchema>;

/** Tokens as the provider reported them; `{}` when it reported nothing. */
export const UsageSchema = z.object({ input_tokens: uint.optional(), output_tokens: uint.optional() });
export type Usage = z.infer<typeof UsageSchema>;

/** Summary of a reviewed delegation job's review. */
export const ReviewSummarySchema = z.object({
  outcome: openEnum(['approved', 'unresolved', 'escalated', 'no_verdict', 'stopped'] as const),
  reason: z.string().optional(),
  round: uint,
  rounds: uint,
  reviewer: z.string().default(''),
  /** Shape unverified; kept raw. */
  fallback: z.unknown().optional(),
  tried: z
    .array(
      z.object({
        agent: z.string(),
        result: openEnum(['verdict', 'unavailable', 'declined', 'failed', 'no_slot'] as const),
      }),
    )
    .default([]),
  refusals: z.array(z.object({ agent: z.string(), reply: z.string() })).default([]),
  summary: z.string().optional(),
  open_count: uint.default(0),
  open: z
    .array(z.object({ id: z.union([z.string(), uint]), title: z.string(), location: z.string().optional() }))
    .default([]),
  journal: z.string(),
  journal_incomplete: z.boolean().default(false),
  journal_pending: z.boolean().default(false),
});
export type ReviewSummary = z.infer<typeof ReviewSummarySchema>;

/** Whether and how a delegation job's commits landed. The server runs no git; `commits`/`ref` are all there is. */
export const LandingSummarySchema = z.object({
  mode: openEnum(['none', 'after_approval', 'before_review'] as const),
  status: openEnum(['not_requested', 'not_attempted', 'landed', 'not_landed', 'failed'] as const),
  ref: z.string().optional(),
  commits: z.array(z.string()).default([]),
  evidence: openEnum(['builder_reported', 'reviewer_confirmed', 'reviewer_disputed', 'unconfirmed'] as const).optional(),
  checked_by: z.string().optional(),
  landed_before_review: z.boolean().default(false),
  unauthorized: z.boolean().default(false),
  reason: z.string().optional(),
  detail: z.string().optional(),
});
export type LandingSummary = z.infer<typeof LandingSummarySchema>;

export const JobOutcomeSchema = z.object({
  job: z.string(),
  review: ReviewSummarySchema,
  landing: LandingSummarySchema,
});
export type JobOutcome = z.infer<typeof JobOutcomeSchema>;

/** A background job a tool call started or showed the model (`tool.completed.jobs`). */
export const JobChangeSchema = z.object({
  job: z.string(),
  /** `"agent"`; `"agent_<name>"` from servers ≤ 0.3.0. */
  tool: z.string(),
  agent: z.string().default(''),
  status: JobStatusSchema,
  task: z.string().default(''),
  journal: z.string().optional(),
  outcome: JobOutcomeSchema.optional(),
});
export type JobChange = z.infer<typeof JobChangeSchema>;

/** A finished job the server reports itself (`background.reported`). `reply` is untrusted agent output. */
export const JobReportSchema = z.object({
  job: z.string(),
  agent: z.string(),
  task: z.string().default(''),
  status: JobStatusSchema,
  session: z.string().optional(),
  reply: z.string(),
  outcome: JobOutcomeSchema.optional(),
});
export type JobReport = z.infer<typeof JobReportSchema>;

/** Why the server started a turn itself (background report turns). */
export const TurnOriginSchema = z.object({
  kind: openEnum(['background'] as const),
  jobs: z.array(z.string()).default([]),
  /** Present on a `turn.failed` the server will retry: keep tracking the jobs. */
  retry_seconds: uint.optional(),
  outcomes: z.array(JobOutcomeSchema).default([]),
});
export type TurnOrigin = z.infer<typeof TurnOriginSchema>;
