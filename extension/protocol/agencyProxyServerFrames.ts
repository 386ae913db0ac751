/**
 * AgencyProxy protocol 0.3 — server frames (daemon → client, WIRE.md §1.6): flat responses that say `request_id`
 * (snake_case, unlike the client envelope) and the event frames of attached runs. Reading is lenient: unknown
 * state/capability/error-code strings are kept, and an unknown response type parses into an `unknown` shape that keeps
 * the raw frame.
 */
import * as z from 'zod';
import { uint } from './agencyProxyPrimitives';
import { RunEventSchema } from './agencyProxyRunEvents';
import { ProtocolVersionSchema, ProviderAccountUsageSchema, ProviderStatusSchema, RunSnapshotSchema } from './agencyProxyTypes';

// ---------------------------------------------------------------------------------------------------------------
// Server frames (daemon → client). Responses are flat: {kind, request_id, type, …fields}.

const resp = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ kind: z.literal('response'), request_id: uint, type: z.literal(type), ...shape });

/** Reply to hello: the negotiated version (smaller minor) and capabilities (unknown strings kept). */
export const HelloResponseSchema = resp('hello', {
  server_name: z.string(), version: ProtocolVersionSchema, capabilities: z.array(z.string()),
});
/** Reply to list_runs. */
export const RunsResponseSchema = resp('runs', { runs: z.array(RunSnapshotSchema) });
/** Reply to probe_providers. */
export const ProvidersResponseSchema = resp('providers', { providers: z.array(ProviderStatusSchema) });
/** Reply to read_account_usage. */
export const AccountUsageResponseSchema = resp('account_usage', { providers: z.array(ProviderAccountUsageSchema) });
/** Reply to attach_run, before the replayed events. */
export const RunResponseSchema = resp('run', { run: RunSnapshotSchema });
/** Generic success. */
export const AcceptedResponseSchema = resp('accepted', {});
/** Any failure; `message` is human text, branch on `code` only. */
export const ErrorResponseSchema = resp('error', { code: z.string(), message: z.string() });

export const KnownResponseFrameSchema = z.discriminatedUnion('type', [
  HelloResponseSchema, RunsResponseSchema, ProvidersResponseSchema, AccountUsageResponseSchema, RunResponseSchema,
  AcceptedResponseSchema, ErrorResponseSchema,
]);
export type KnownResponseFrame = z.infer<typeof KnownResponseFrameSchema>;

/** A response type this client does not know, or a known one that failed validation; `raw` is the whole frame. */
export interface UnknownResponseFrame {
  readonly kind: 'response';
  readonly request_id: number;
  readonly type: 'unknown';
  readonly rawType: string;
  readonly raw: Record<string, unknown>;
  readonly issue?: string;
}
export type ResponseFrame = KnownResponseFrame | UnknownResponseFrame;

export const ResponseFrameSchema = z
  .looseObject({ kind: z.literal('response'), request_id: uint, type: z.string() })
  .transform((raw): ResponseFrame => {
    const known = KnownResponseFrameSchema.safeParse(raw);
    if (known.success) {
      return known.data;
    }
    const isKnownType = KnownResponseFrameSchema.options.some((o) => o.shape.type.value === raw.type);
    const base = { kind: 'response', request_id: raw.request_id, type: 'unknown', rawType: raw.type, raw } as const;
    return isKnownType ? { ...base, issue: z.prettifyError(known.error) } : base;
  });

/** An event of a run this connection attached. */
export const EventFrameSchema = z.object({
  kind: z.literal('event'), run_id: z.string(), sequence: uint, event: RunEventSchema,
});
export type EventFrame = z.infer<typeof EventFrameSchema>;

export const ServerFrameSchema = z.union([ResponseFrameSchema, EventFrameSchema]);
export type ServerFrame = ResponseFrame | EventFrame;

export type ServerFrameParse =
  | { readonly ok: true; readonly frame: ServerFrame }
  | { readonly ok: false; readonly error: string };

/**
 * Streamed `text` / `reasoning` chunks are most of the traffic (a long answer is thousands of frames), and running
 * them through the schemas costs more than parsing their JSON. This checks exactly those two shapes by hand and
 * builds exactly what `EventFrameSchema` would (the declared keys only, unknown ones dropped). Anything else, or
 * anything unusual about these two, returns undefined and goes through the schemas.
 */
function parseChunkEventFrame(value: object): EventFrame | undefined {
  const frame = value as { run_id?: unknown; sequence?: unknown; event?: unknown };
  const runId = frame.run_id;
  const sequence = frame.sequence;
  const event = frame.event;
  if (typeof runId !== 'string' || !Number.isSafeInteger(sequence) || (sequence as number) < 0 ||
    typeof event !== 'object' || event === null) {
    return undefined;
  }
  const { type, payload } = event as { type?: unknown; payload?: unknown };
  if ((type !== 'text' && type !== 'reasoning') || typeof payload !== 'string') {
    return undefined;
  }
  return { kind: 'event', run_id: runId, sequence: sequence as number, event: { type, payload } };
}

/** Parses one decoded JSON value from the daemon with a readable error (never throws). */
export function parseServerFrame(value: unknown): ServerFrameParse {
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  if (kind === 'event') {
    const chunk = parseChunkEventFrame(value as object);
    if (chunk !== undefined) {
      return { ok: true, frame: chunk };
    }
  }
  const schema = kind === 'response' ? ResponseFrameSchema : kind === 'event' ? EventFrameSchema : undefined;
  if (schema === undefined) {
    return { ok: false, error: `server frame has no known "kind" (got ${JSON.stringify(kind) ?? 'undefined'})` };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, frame: parsed.data } : { ok: false, error: z.prettifyError(parsed.error) };
}
