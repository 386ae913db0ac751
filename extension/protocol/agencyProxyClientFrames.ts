/**
 * AgencyProxy protocol 0.3 — client frames (client → daemon, WIRE.md §1.4) and the builders that write them
 * canonically. The envelope says `requestId` (camelCase) while message fields are snake_case (§1.14). Writing is
 * strict: the builders emit every key in serde's order (RunRequest options as `null`), validate against the client
 * schemas and refuse integers that a JS number cannot carry exactly.
 */
import * as z from 'zod';
import { uint } from './agencyProxyPrimitives';
import { ApprovalDecisionSchema, ProtocolVersionSchema, RunRequestSchema, ShutdownModeSchema } from './agencyProxyTypes';
import type { RunRequest } from './agencyProxyTypes';

// ---------------------------------------------------------------------------------------------------------------
// Client frames (client → daemon). Envelope `requestId` is camelCase; message fields are snake_case.

const envelope = { requestId: uint };
const runIdField = { run_id: z.string() };

/** Must be the first frame of a connection, sent once. */
export const HelloFrameSchema = z.object({
  ...envelope, type: z.literal('hello'), client_name: z.string(), version: ProtocolVersionSchema,
});
/** Every run since daemon start. */
export const ListRunsFrameSchema = z.object({ ...envelope, type: z.literal('list_runs') });
/** Which provider CLIs are installed and logged in. */
export const ProbeProvidersFrameSchema = z.object({ ...envelope, type: z.literal('probe_providers') });
/** Provider account usage. */
export const ReadAccountUsageFrameSchema = z.object({ ...envelope, type: z.literal('read_account_usage') });
/** Stop the daemon only if no run is active (else `conflict`). */
export const ShutdownIfIdleFrameSchema = z.object({ ...envelope, type: z.literal('shutdown_if_idle') });
/** Minor ≥ 3 only: close admission, then drain or terminate runs and exit. */
export const ShutdownFrameSchema = z.object({ ...envelope, type: z.literal('shutdown'), mode: ShutdownModeSchema });
/** Start a run; does not attach it. */
export const StartRunFrameSchema = z.object({
  ...envelope, type: z.literal('start_run'), ...runIdField, request: RunRequestSchema, idempotency_key: z.string(),
});
/** Snapshot (`run`), then journal events with sequence > after_sequence, then live events. */
export const AttachRunFrameSchema = z.object({
  ...envelope, type: z.literal('attach_run'), ...runIdField, after_sequence: uint,
});
/** Stop forwarding a run's events to this connection. */
export const DetachRunFrameSchema = z.object({ ...envelope, type: z.literal('detach_run'), ...runIdField });
/** Send a user message into an interactive run (not deduplicated). */
export const InjectMessageFrameSchema = z.object({
  ...envelope, type: z.literal('inject_message'), ...runIdField, body: z.string(), idempotency_key: z.string(),
});
/** Cooperatively cancel a run (a second cancel gets `conflict`). */
export const CancelRunFrameSchema = z.object({
  ...envelope, type: z.literal('cancel_run'), ...runIdField, idempotency_key: z.string(),
});
/** Answer an `approval_requested`. */
export const DecideApprovalFrameSchema = z.object({
  ...envelope, type: z.literal('decide_approval'), ...runIdField, approval_id: z.string(),
  decision: ApprovalDecisionSchema, idempotency_key: z.string(),
});
/** Delete journal entries ≤ through_sequence (clamped to latestSequence) for every connection. */
export const AckEventsFrameSchema = z.object({
  ...envelope, type: z.literal('ack_events'), ...runIdField, through_sequence: uint,
});

/** A parseable client frame, as the daemon reads it (unknown `type` or missing key = unparseable). */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  HelloFrameSchema, ListRunsFrameSchema, ProbeProvidersFrameSchema, ReadAccountUsageFrameSchema,
  ShutdownIfIdleFrameSchema, ShutdownFrameSchema, StartRunFrameSchema, AttachRunFrameSchema, DetachRunFrameSchema,
  InjectMessageFrameSchema, CancelRunFrameSchema, DecideApprovalFrameSchema, AckEventsFrameSchema,
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;
export type ClientFrameType = ClientFrame['type'];

// ---------------------------------------------------------------------------------------------------------------
// Canonical client frame builders (strict writing).

/** RunRequest as a caller supplies it: options may be left out; the builder writes them as null / empty. */
export type RunRequestInput = Pick<RunRequest, 'provider' | 'prompt' | 'permission' | 'approvals' | 'interactive'> &
  Partial<Omit<RunRequest, 'provider' | 'prompt' | 'permission' | 'approvals' | 'interactive'>>;

/** Every RunRequest key in serde's declaration order, `null` for unset options (WIRE.md §1.5 advice). */
export function canonicalRunRequest(input: RunRequestInput): RunRequest {
  return {
    provider: input.provider,
    model: input.model ?? '',
    prompt: input.prompt,
    isCommand: input.isCommand ?? false,
    system: input.system ?? null,
    permission: input.permission,
    effort: input.effort ?? null,
    extraThinking: input.extraThinking ?? null,
    approvals: input.approvals,
    interactive: input.interactive,
    workspaceRoots: [...(input.workspaceRoots ?? [])],
    resumeSessionId: input.resumeSessionId ?? null,
    binary: input.binary ?? null,
    environment: { ...(input.environment ?? {}) },
    uncheckedArgs: [...(input.uncheckedArgs ?? [])],
    metadata: { ...(input.metadata ?? {}) },
  };
}

/** Conventional idempotency keys (§1.10); the 0.3 daemon ignores them but requires the field. */
export const idempotencyKeys = {
  start: (runId: string): string => `${runId}:start`,
  inject: (runId: string, n: number): string => `${runId}:inject:${n}`,
  cancel: (runId: string): string => `${runId}:cancel`,
  approval: (runId: string, approvalId: string): string => `${runId}:approval:${approvalId}`,
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type StartRunFrame = Extract<ClientFrame, { type: 'start_run' }>;
/** Messages as the builder takes them: a client frame without the envelope; start_run takes a RunRequestInput. */
export type ClientMessage =
  | DistributiveOmit<Exclude<ClientFrame, StartRunFrame>, 'requestId'>
  | (Omit<StartRunFrame, 'requestId' | 'request'> & { readonly request: RunRequestInput });

function assertWireInt(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer in 0..${Number.MAX_SAFE_INTEGER}, got ${value}`);
  }
}

/**
 * Builds the canonical frame `{requestId, type, …fields}` in serde order and validates it, so a frame the daemon
 * would silently close on is never written. Throws on a programming error (bad integer, missing field).
 */
export function buildClientFrame(requestId: number, message: ClientMessage): ClientFrame {
  assertWireInt('requestId', requestId);
  const body: Record<string, unknown> = { requestId, ...message };
  if (message.type === 'start_run') {
    body['request'] = canonicalRunRequest(message.request);
  }
  for (const key of ['after_sequence', 'through_sequence'] as const) {
    if (key in message) {
      assertWireInt(key, (message as unknown as Record<string, number>)[key]!);
    }
  }
  const parsed = ClientFrameSchema.safeParse(body);
  if (!parsed.success) {
    throw new TypeError(`invalid ${message.type} frame: ${z.prettifyError(parsed.error)}`);
  }
  // zod output follows the schema's key order, which is serde's declaration order.
  return parsed.data;
}
