/**
 * A3S Code harness `a3s.code.agent.v1` — the JSON documents of the wire (WIRE.md 3.2–3.8, 3.10, 3.1): the run
 * identity, commands and their receipt, event pages, change sets, errors and health. Shapes the client sends are
 * strict (the harness rejects unknown keys); shapes it reads are lenient. Build what you send with `a3sBuilders.ts`.
 */
import * as z from 'zod';

/** Non-negative JSON integer within the exact JS range (the Rust peer rejects float notation anyway). */
const uint = z.int().nonnegative();

// ---------------------------------------------------------------------------------------------------------------
// Run identity (3.2) — embedded in every request, echoed in every response.

const identityShape = {
  schema: z.string(),
  protocol: z.string(),
  agent_release_identity: z.string(),
  session_id: z.string(),
  run_id: z.string(),
};
/** Lenient reading of an echoed identity. */
export const A3sRunIdentitySchema = z.object(identityShape);
/** Strict: exactly the five keys (what the harness accepts). */
export const A3sRunIdentityStrictSchema = z.strictObject(identityShape);
export type A3sRunIdentity = z.infer<typeof A3sRunIdentitySchema>;

// ---------------------------------------------------------------------------------------------------------------
// Commands (3.3), strict shapes. `schema` is a plain string here: a wrong value is `unsupported_schema`, which the
// harness reports after (and separately from) the structural `invalid_json` check.

/** start: client → harness. Creates the run; returns once the worker is admitted. */
export const A3sStartRequestSchema = z.strictObject({
  schema: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentityStrictSchema,
  prompt: z.string(),
});
/** cancel: client → harness. Terminal run → replayed:true; live run → cancelled; else 409 run_unavailable. */
export const A3sCancelRequestSchema = z.strictObject({
  schema: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentityStrictSchema,
  reason: z.string(),
});
/** recover: client → harness. New run (identity.run_id) resuming the checkpoint of `checkpoint_run_id`. */
export const A3sRecoverRequestSchema = z.strictObject({
  schema: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentityStrictSchema,
  checkpoint_run_id: z.string(),
});
/** Body of `POST /v1/agent/commands`, tagged by `action`. */
export const A3sCommandSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('start'), request: A3sStartRequestSchema }),
  z.strictObject({ action: z.literal('cancel'), request: A3sCancelRequestSchema }),
  z.strictObject({ action: z.literal('recover'), request: A3sRecoverRequestSchema }),
]);
export type A3sCommand = z.infer<typeof A3sCommandSchema>;
export type A3sCommandAction = A3sCommand['action'];
export type A3sStartCommand = Extract<A3sCommand, { action: 'start' }>;
export type A3sCancelCommand = Extract<A3sCommand, { action: 'cancel' }>;
export type A3sRecoverCommand = Extract<A3sCommand, { action: 'recover' }>;

/** Receipt (3.5): harness → client, the 200 answer to every command. */
export const A3sReceiptSchema = z.object({
  schema: z.string(),
  action: z.string(),
  request_id: z.string(),
  identity: A3sRunIdentitySchema,
  command_digest: z.string(),
  state: z.string(),
  latest_event_sequence_exclusive: uint,
  observed_at_ms: uint,
  replayed: z.boolean(),
});
export type A3sReceipt = z.infer<typeof A3sReceiptSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Event pages (3.6)

/** `POST /v1/agent/events:page` body: client → harness. Every key is sent; `after_event_sequence:null` = from 0. */
export const A3sEventPageRequestSchema = z.strictObject({
  schema: z.string(),
  identity: A3sRunIdentityStrictSchema,
  after_event_sequence: uint.nullable(),
  limit: uint,
});
export type A3sEventPageRequest = z.infer<typeof A3sEventPageRequestSchema>;

/** The envelope inside a record. `type` may be any string (the catalogue grows); `payload` is any JSON. */
export const A3sEventEnvelopeSchema = z.object({
  version: z.number(),
  type: z.string(),
  payload: z.unknown(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type A3sEventEnvelope = z.infer<typeof A3sEventEnvelopeSchema>;

/**
 * One stored event: harness → client inside a page. `event` is kept as raw JSON so a malformed or future
 * envelope never fails the whole page; decode it with `decodeA3sEvent` (`a3sEventCatalogue.ts`).
 */
export const A3sEventRecordSchema = z.object({
  sequence: uint,
  occurred_at_ms: uint,
  event: z.unknown(),
});
export type A3sEventRecord = z.infer<typeof A3sEventRecordSchema>;

/** EventPage: harness → client. Sequences are 0-based and contiguous; `*_exclusive` are counts. */
export const A3sEventPageSchema = z.object({
  schema: z.string(),
  identity: A3sRunIdentitySchema,
  after_event_sequence: uint.nullable().default(null),
  first_available_sequence: uint.nullable().default(null),
  latest_sequence_exclusive: uint,
  next_after_event_sequence: uint.nullable().default(null),
  state: z.string(),
  observed_at_ms: uint,
  retention_gap: z.boolean().default(false),
  has_more: z.boolean().default(false),
  events: z.array(A3sEventRecordSchema).default([]),
});
export type A3sEventPage = z.infer<typeof A3sEventPageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Change sets (3.8), errors (3.10), health (3.1)

/** `POST /v1/agent/changes` body: client → harness. */
export const A3sChangeSetRequestSchema = z.strictObject({
  schema: z.string(),
  identity: A3sRunIdentityStrictSchema,
});
export type A3sChangeSetRequest = z.infer<typeof A3sChangeSetRequestSchema>;

/** ChangeSet: harness → client once a terminal run's capture finished. Verify before use (changeSet.ts). */
export const A3sChangeSetSchema = z.object({
  schema: z.string(),
  identity: A3sRunIdentitySchema,
  state: z.string(),
  format: z.string(),
  encoding: z.string(),
  base_tree: z.string(),
  result_tree: z.string(),
  patch_digest: z.string(),
  patch_bytes: uint,
  patch_base64: z.string(),
  observed_at_ms: uint,
});
export type A3sChangeSet = z.infer<typeof A3sChangeSetSchema>;

/** Every non-200 body: harness → client. */
export const A3sErrorBodySchema = z.object({
  schema: z.string(),
  error: z.object({ code: z.string(), message: z.string() }),
});
export type A3sErrorBody = z.infer<typeof A3sErrorBodySchema>;

/** Readiness (`ready` / `not_ready` on 503) and liveness (`live`) answers. */
export const A3sHealthSchema = z.object({ schema: z.string(), status: z.string() });
export type A3sHealth = z.infer<typeof A3sHealthSchema>;
