/**
 * A3S Code harness `a3s.code.agent.v1` — the protocol name, the `schema` string of every document, the stable error
 * codes, the limits (WIRE.md 3.10) and the run states.
 */

/** The `protocol` string of every run identity (WIRE.md 3.2). */
export const A3S_PROTOCOL = 'a3s.code.agent.v1';

/** The `schema` string of every document, by role. */
export const A3S_SCHEMA = {
  runIdentity: 'a3s.code.agent-run-identity.v1',
  runStart: 'a3s.code.agent-run-start.v1',
  runCancel: 'a3s.code.agent-run-cancel.v1',
  runRecover: 'a3s.code.agent-run-recover.v1',
  receipt: 'a3s.code.agent-command-receipt.v1',
  eventPageRequest: 'a3s.code.agent-event-page-request.v1',
  eventPage: 'a3s.code.agent-event-page.v1',
  changeSetRequest: 'a3s.code.agent-change-set-request.v1',
  changeSet: 'a3s.code.agent-change-set.v1',
  error: 'a3s.code.agent-error.v1',
  health: 'a3s.code.agent-health.v1',
} as const;

/** Stable error codes (WIRE.md 3.10). Branch on these plus the HTTP status, never on the message. */
export const A3S_ERROR_CODE = {
  invalidJson: 'a3s.code.agent_protocol.invalid_json',
  unsupportedSchema: 'a3s.code.agent_protocol.unsupported_schema',
  invalidField: 'a3s.code.agent_protocol.invalid_field',
  identityMismatch: 'a3s.code.agent_protocol.identity_mismatch',
  encoding: 'a3s.code.agent_protocol.encoding',
  sequenceOverflow: 'a3s.code.agent_protocol.sequence_overflow',
  runNotFound: 'a3s.code.agent_protocol.run_not_found',
  sessionNotFound: 'a3s.code.agent_protocol.session_not_found',
  releaseMismatch: 'a3s.code.agent_protocol.release_mismatch',
  releaseProtocolMismatch: 'a3s.code.agent_protocol.release_protocol_mismatch',
  sessionMismatch: 'a3s.code.agent_protocol.session_mismatch',
  runUnavailable: 'a3s.code.agent_protocol.run_unavailable',
  changeSetUnavailable: 'a3s.code.agent_protocol.change_set_unavailable',
  changeSetPending: 'a3s.code.agent_protocol.change_set_pending',
  sessionCapacity: 'a3s.code.agent_protocol.session_capacity',
  harnessClosed: 'a3s.code.agent_protocol.harness_closed',
} as const;

/** Byte limits (UTF-8) and counts from WIRE.md 3.10. */
export const A3S_LIMITS = {
  requestBodyBytes: 131_072,
  idBytes: 256,
  promptBytes: 65_536,
  reasonBytes: 1_024,
  maxEventsPerPage: 64,
  pageResponseBytes: 6_291_456,
  eventRecordBytes: 65_536,
  eventTypeBytes: 128,
  patchBytes: 4_194_304,
  changeSetResponseBytes: 5_723_477,
  sessions: 1_024,
} as const;

export const A3S_CHANGE_SET_FORMAT = 'git_unified_diff_v1';
export const A3S_CHANGE_SET_ENCODING = 'base64';
/** Appended to string leaves the harness halved to fit the 64 KiB payload bound (WIRE.md 3.6). */
export const A3S_TRUNCATION_SUFFIX = '\n…[a3s.code.agent-protocol.truncated]';
/** `reason` of the stub that replaces a payload which halving could not bound. */
export const A3S_BOUNDED_REASON = 'agent_protocol_event_payload_limit';

/** RunState. `cancelled` has two Ls. Unknown future states are kept as plain strings. */
export const A3S_RUN_STATES = ['created', 'planning', 'executing', 'verifying', 'completed', 'failed', 'cancelled'] as const;
export type A3sKnownRunState = (typeof A3S_RUN_STATES)[number];
export type A3sRunState = A3sKnownRunState | (string & {});
const TERMINAL_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export function isA3sTerminalState(state: string): boolean {
  return TERMINAL_STATES.has(state);
}
