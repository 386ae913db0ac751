/**
 * A3S Code harness `a3s.code.agent.v1` — strict writing. The harness rejects unknown keys at every level, so every
 * document the client sends is built here, in the exact declaration order of WIRE.md 3.3/3.4 (which also makes
 * `JSON.stringify` of it the canonical form the command digest is taken over).
 */
import { A3S_PROTOCOL, A3S_SCHEMA } from './a3sConstants';
import type {
  A3sCancelCommand,
  A3sChangeSetRequest,
  A3sCommand,
  A3sEventPageRequest,
  A3sRecoverCommand,
  A3sRunIdentity,
  A3sStartCommand,
} from './a3sDocuments';

// ---------------------------------------------------------------------------------------------------------------
// Strict writing: builders. Each constructs a fresh object in declaration order from named fields only, so no
// caller-supplied extra key can ever reach the wire.

export interface A3sRunRef {
  readonly agentReleaseIdentity: string;
  readonly sessionId: string;
  readonly runId: string;
}

export function buildRunIdentity(ref: A3sRunRef): A3sRunIdentity {
  return {
    schema: A3S_SCHEMA.runIdentity,
    protocol: A3S_PROTOCOL,
    agent_release_identity: ref.agentReleaseIdentity,
    session_id: ref.sessionId,
    run_id: ref.runId,
  };
}

/** Re-creates an identity with exactly the five keys in order (drops anything else an echo carried). */
export function copyRunIdentity(identity: A3sRunIdentity): A3sRunIdentity {
  return {
    schema: identity.schema,
    protocol: identity.protocol,
    agent_release_identity: identity.agent_release_identity,
    session_id: identity.session_id,
    run_id: identity.run_id,
  };
}

export function buildStartCommand(requestId: string, identity: A3sRunIdentity, prompt: string): A3sStartCommand {
  return {
    action: 'start',
    request: { schema: A3S_SCHEMA.runStart, request_id: requestId, identity: copyRunIdentity(identity), prompt },
  };
}

export function buildCancelCommand(requestId: string, identity: A3sRunIdentity, reason: string): A3sCancelCommand {
  return {
    action: 'cancel',
    request: { schema: A3S_SCHEMA.runCancel, request_id: requestId, identity: copyRunIdentity(identity), reason },
  };
}

export function buildRecoverCommand(
  requestId: string,
  identity: A3sRunIdentity,
  checkpointRunId: string,
): A3sRecoverCommand {
  return {
    action: 'recover',
    request: {
      schema: A3S_SCHEMA.runRecover,
      request_id: requestId,
      identity: copyRunIdentity(identity),
      checkpoint_run_id: checkpointRunId,
    },
  };
}

/** Rebuilds any command in canonical declaration order, keeping its `schema` strings as they are. */
export function canonicalA3sCommand(command: A3sCommand): A3sCommand {
  const r = command.request;
  const head = { schema: r.schema, request_id: r.request_id, identity: copyRunIdentity(r.identity) };
  switch (command.action) {
    case 'start':
      return { action: 'start', request: { ...head, prompt: command.request.prompt } };
    case 'cancel':
      return { action: 'cancel', request: { ...head, reason: command.request.reason } };
    case 'recover':
      return { action: 'recover', request: { ...head, checkpoint_run_id: command.request.checkpoint_run_id } };
  }
}

export function buildEventPageRequest(
  identity: A3sRunIdentity,
  afterEventSequence: number | null,
  limit: number,
): A3sEventPageRequest {
  return {
    schema: A3S_SCHEMA.eventPageRequest,
    identity: copyRunIdentity(identity),
    after_event_sequence: afterEventSequence,
    limit,
  };
}

export function buildChangeSetRequest(identity: A3sRunIdentity): A3sChangeSetRequest {
  return { schema: A3S_SCHEMA.changeSetRequest, identity: copyRunIdentity(identity) };
}

export function sameRunIdentity(a: A3sRunIdentity, b: A3sRunIdentity): boolean {
  return (
    a.schema === b.schema &&
    a.protocol === b.protocol &&
    a.agent_release_identity === b.agent_release_identity &&
    a.session_id === b.session_id &&
    a.run_id === b.run_id
  );
}
