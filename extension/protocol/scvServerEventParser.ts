/**
 * SCV protocol 3 — reading one server line leniently. `parseScvServerEvent` never throws: a `type` this client does
 * not know becomes an `unknown` event that keeps the raw JSON and its `seq` (so the gap rule can excuse it); a known
 * `type` with a bad shape becomes a `malformed` result carrying the raw value for display.
 */
import type * as z from 'zod';
import { scvEventSchemas } from './scvServerEvents';
import type { ScvEventOf, ScvKnownEvent, ScvKnownEventType, ScvServerEvent } from './scvServerEvents';

export type ScvParseResult =
  | { readonly ok: true; readonly event: ScvServerEvent }
  | {
      readonly ok: false;
      /** The `type` when there was one (a known type whose fields did not match). */
      readonly eventType?: string;
      /** A numeric `seq`, so the gap check can still account for the event. */
      readonly seq?: number;
      readonly session_id?: string;
      readonly raw: unknown;
      readonly message: string;
    };

export function isKnownScvEventType(type: string): type is ScvKnownEventType {
  return Object.prototype.hasOwnProperty.call(scvEventSchemas, type);
}

/**
 * `assistant.delta` is most of the traffic (a long answer is thousands of lines), and running it through its schema
 * costs more than parsing its JSON. This checks that one shape by hand and builds exactly what the schema would
 * (the declared keys only, unknown ones dropped); anything unusual returns undefined and goes through the schema.
 */
function parseDeltaEvent(obj: Record<string, unknown>): ScvEventOf<'assistant.delta'> | undefined {
  const { request_id: requestId, session_id: sessionId, seq: seqValue, turn_id: turnId, content } = obj;
  if (typeof requestId !== 'string' || typeof sessionId !== 'string' || typeof turnId !== 'string' ||
    typeof content !== 'string' || !Number.isSafeInteger(seqValue) || (seqValue as number) < 0) {
    return undefined;
  }
  return { type: 'assistant.delta', request_id: requestId, session_id: sessionId, seq: seqValue as number, turn_id: turnId, content };
}

/** Parses one decoded JSON value from the server. Never throws. */
export function parseScvServerEvent(value: unknown): ScvParseResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, raw: value, message: 'server frame is not a JSON object' };
  }
  const obj = value as Record<string, unknown>;
  const type = obj['type'];
  if (type === 'assistant.delta') {
    const delta = parseDeltaEvent(obj);
    if (delta !== undefined) {
      return { ok: true, event: delta };
    }
  }
  // Built only off the hot path: what a failure or an unknown type still tells about the event.
  const extra = (): { seq?: number; session_id?: string } => {
    const rawSeq = obj['seq'];
    const seqValue = typeof rawSeq === 'number' && Number.isSafeInteger(rawSeq) && rawSeq >= 0 ? rawSeq : undefined;
    const sid = typeof obj['session_id'] === 'string' ? (obj['session_id'] as string) : undefined;
    return { ...(seqValue !== undefined ? { seq: seqValue } : {}), ...(sid !== undefined ? { session_id: sid } : {}) };
  };
  if (typeof type !== 'string') {
    return { ok: false, raw: value, ...extra(), message: 'server frame has no string "type"' };
  }
  if (!isKnownScvEventType(type)) {
    return { ok: true, event: { type: 'unknown', eventType: type, raw: obj, ...extra() } };
  }
  const parsed = scvEventSchemas[type].safeParse(value);
  if (!parsed.success) {
    return { ok: false, eventType: type, raw: value, ...extra(), message: `malformed ${type}: ${summarizeIssues(parsed.error)}` };
  }
  return { ok: true, event: parsed.data as ScvKnownEvent };
}

/** The session `seq` of an event, if it has one (`initialized`, `session.started`, `daemon.status`, `error` do not). */
export function scvEventSeq(event: ScvServerEvent): number | undefined {
  return 'seq' in event ? event.seq : undefined;
}

/** A short, readable account of zod issues ("path: message; …"). */
export function summarizeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
