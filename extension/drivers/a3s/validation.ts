/**
 * Client-side checks of the A3S field rules (WIRE.md 3.2, 3.3, 3.10), applied before anything is sent: the
 * harness answers a violation with a 400 that never names the field, so catching it here is the only way to
 * tell the user which one was wrong. Each `*Problem` returns a description or `undefined` when valid.
 */
import { A3S_LIMITS, A3S_PROTOCOL, A3S_SCHEMA } from '../../protocol/a3s';
import type { A3sCommand, A3sRunIdentity } from '../../protocol/a3s';
import { A3sValidationError } from './a3sErrors';

const RELEASE_IDENTITY = /^sha256:[0-9a-f]{64}$/;
// With the `u` flag a well-formed surrogate pair is one code point, so this matches only lone surrogates, which
// JSON.stringify would escape differently from the harness (which cannot hold them at all).
const LONE_SURROGATE = /\p{Cs}/u;

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

function isBlank(value: string): boolean {
  return value.trim().length === 0;
}

/** `session_id`, `run_id`, `request_id`, `checkpoint_run_id`: not blank, ≤ 256 bytes, no NUL/CR/LF. */
export function idProblem(value: string): string | undefined {
  if (isBlank(value)) {
    return 'must not be blank';
  }
  if (utf8Bytes(value) > A3S_LIMITS.idBytes) {
    return `must be at most ${A3S_LIMITS.idBytes} UTF-8 bytes`;
  }
  if (/[\0\r\n]/.test(value)) {
    return 'must not contain NUL, CR or LF';
  }
  if (LONE_SURROGATE.test(value)) {
    return 'must be well-formed Unicode';
  }
  return undefined;
}

/** `prompt`: not blank, ≤ 65,536 bytes, no NUL. */
export function promptProblem(value: string): string | undefined {
  if (isBlank(value)) {
    return 'must not be blank';
  }
  if (utf8Bytes(value) > A3S_LIMITS.promptBytes) {
    return `must be at most ${A3S_LIMITS.promptBytes} UTF-8 bytes`;
  }
  if (value.includes('\0')) {
    return 'must not contain NUL';
  }
  if (LONE_SURROGATE.test(value)) {
    return 'must be well-formed Unicode';
  }
  return undefined;
}

/** `reason`: a single line ≤ 1,024 bytes. Blank is refused too (whether the harness accepts it is unverified). */
export function reasonProblem(value: string): string | undefined {
  if (isBlank(value)) {
    return 'must not be blank';
  }
  if (utf8Bytes(value) > A3S_LIMITS.reasonBytes) {
    return `must be at most ${A3S_LIMITS.reasonBytes} UTF-8 bytes`;
  }
  if (/[\0\r\n]/.test(value)) {
    return 'must be a single line (no CR, LF or NUL)';
  }
  if (LONE_SURROGATE.test(value)) {
    return 'must be well-formed Unicode';
  }
  return undefined;
}

/** `agent_release_identity`: `sha256:` + 64 lowercase hex. */
export function releaseIdentityProblem(value: string): string | undefined {
  return RELEASE_IDENTITY.test(value) ? undefined : 'must be sha256: followed by 64 lowercase hex digits';
}

/** A serialised request body must be ≤ 131,072 UTF-8 bytes. */
export function requestBodyProblem(json: string): string | undefined {
  const bytes = utf8Bytes(json);
  return bytes > A3S_LIMITS.requestBodyBytes
    ? `is ${bytes} bytes; the limit is ${A3S_LIMITS.requestBodyBytes}`
    : undefined;
}

function check(field: string, problem: string | undefined): void {
  if (problem !== undefined) {
    throw new A3sValidationError(field, problem);
  }
}

/** Throws {@link A3sValidationError} naming the first invalid identity field. */
export function validateRunIdentity(identity: A3sRunIdentity, prefix = 'identity'): void {
  check(`${prefix}.schema`, identity.schema === A3S_SCHEMA.runIdentity ? undefined : `must be ${A3S_SCHEMA.runIdentity}`);
  check(`${prefix}.protocol`, identity.protocol === A3S_PROTOCOL ? undefined : `must be ${A3S_PROTOCOL}`);
  check(`${prefix}.agent_release_identity`, releaseIdentityProblem(identity.agent_release_identity));
  check(`${prefix}.session_id`, idProblem(identity.session_id));
  check(`${prefix}.run_id`, idProblem(identity.run_id));
}

/** Throws {@link A3sValidationError} naming the first invalid field of a command. */
export function validateA3sCommand(command: A3sCommand): void {
  const r = command.request;
  check('request.request_id', idProblem(r.request_id));
  validateRunIdentity(r.identity, 'request.identity');
  switch (command.action) {
    case 'start':
      check('request.schema', r.schema === A3S_SCHEMA.runStart ? undefined : `must be ${A3S_SCHEMA.runStart}`);
      check('request.prompt', promptProblem(command.request.prompt));
      break;
    case 'cancel':
      check('request.schema', r.schema === A3S_SCHEMA.runCancel ? undefined : `must be ${A3S_SCHEMA.runCancel}`);
      check('request.reason', reasonProblem(command.request.reason));
      break;
    case 'recover': {
      const checkpoint = command.request.checkpoint_run_id;
      check('request.schema', r.schema === A3S_SCHEMA.runRecover ? undefined : `must be ${A3S_SCHEMA.runRecover}`);
      check('request.checkpoint_run_id', idProblem(checkpoint));
      check(
        'request.checkpoint_run_id',
        checkpoint === r.identity.run_id ? 'must differ from identity.run_id (which names the new run)' : undefined,
      );
      break;
    }
  }
}
