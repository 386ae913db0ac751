/**
 * A3S change sets (WIRE.md 3.8): fetch with 425 → retry (bounded backoff) and 422 → final "no change set", then
 * verify every field before anything is displayed or applied. A change set that fails a check is refused as a
 * whole, naming the check; nothing partial is ever returned.
 */
import { createHash } from 'node:crypto';
import {
  A3S_CHANGE_SET_ENCODING,
  A3S_CHANGE_SET_FORMAT,
  A3S_ERROR_CODE,
  A3S_LIMITS,
  A3S_SCHEMA,
  A3sChangeSetSchema,
  isA3sTerminalState,
  sameRunIdentity,
} from '../../protocol/a3s';
import type { A3sRunIdentity } from '../../protocol/a3s';
import { A3sChangeSetRejectedError, A3sError, A3sHttpError, A3sNoChangeSetError } from './a3sErrors';
import type { A3sClient } from './client';
import { systemClock } from '../kit/clock';
import type { Timeouts } from '../kit/clock';

export interface A3sVerifiedChangeSet {
  readonly identity: A3sRunIdentity;
  readonly state: string;
  /** `git-tree:<hex>` of the workspace before the run. */
  readonly baseTree: string;
  readonly resultTree: string;
  readonly patchDigest: string;
  readonly patchBytes: number;
  /** The decoded git unified diff (empty when nothing changed). */
  readonly patch: Buffer;
  readonly observedAtMs: number;
}

const TREE_ID = /^git-tree:(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SHA256_ID = /^sha256:[0-9a-f]{64}$/;

/**
 * Strict RFC 4648 standard-alphabet base64 with padding: length a multiple of 4, no whitespace or URL-safe
 * characters, and canonical (zero) trailing bits — the decode re-encodes to exactly the input. Node's own decoder
 * silently skips junk, so it cannot be trusted alone; but its encoder writes only the standard alphabet with
 * canonical padding, so "re-encodes to exactly the input" already excludes every foreign character (the alphabet
 * regex is implied, and on a 4 MiB patch it cost half the verification). Returns `undefined` when the text is not
 * such base64.
 */
export function decodeStrictBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0) {
    return undefined;
  }
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

function reject(check: ConstructorParameters<typeof A3sChangeSetRejectedError>[0], detail: string): never {
  throw new A3sChangeSetRejectedError(check, detail);
}

/** Verifies a 200 change-set body; throws {@link A3sChangeSetRejectedError} naming the failed check. */
export function verifyA3sChangeSet(body: unknown, expectedIdentity?: A3sRunIdentity): A3sVerifiedChangeSet {
  const parsed = A3sChangeSetSchema.safeParse(body);
  if (!parsed.success) {
    reject('schema', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const cs = parsed.data;
  if (cs.schema !== A3S_SCHEMA.changeSet) {
    reject('schema', `schema is ${JSON.stringify(cs.schema)}`);
  }
  if (expectedIdentity && !sameRunIdentity(cs.identity, expectedIdentity)) {
    reject('identity', 'the change set does not echo the requested run identity');
  }
  if (!isA3sTerminalState(cs.state)) {
    reject('state', `state ${JSON.stringify(cs.state)} is not terminal`);
  }
  if (cs.format !== A3S_CHANGE_SET_FORMAT) {
    reject('format', `format is ${JSON.stringify(cs.format)}, expected ${A3S_CHANGE_SET_FORMAT}`);
  }
  if (cs.encoding !== A3S_CHANGE_SET_ENCODING) {
    reject('encoding', `encoding is ${JSON.stringify(cs.encoding)}, expected base64`);
  }
  if (!TREE_ID.test(cs.base_tree)) {
    reject('base_tree', `${JSON.stringify(cs.base_tree)} is not git-tree:<40 or 64 lowercase hex>`);
  }
  if (!TREE_ID.test(cs.result_tree)) {
    reject('result_tree', `${JSON.stringify(cs.result_tree)} is not git-tree:<40 or 64 lowercase hex>`);
  }
  if (!SHA256_ID.test(cs.patch_digest)) {
    reject('patch_digest', `${JSON.stringify(cs.patch_digest)} is not sha256:<64 lowercase hex>`);
  }
  if (cs.patch_bytes > A3S_LIMITS.patchBytes) {
    reject('patch_bytes', `${cs.patch_bytes} exceeds the ${A3S_LIMITS.patchBytes}-byte limit`);
  }
  // Refuse oversized text before decoding anything.
  if (cs.patch_base64.length > Math.ceil(A3S_LIMITS.patchBytes / 3) * 4) {
    reject('patch_bytes', 'patch_base64 is longer than a 4 MiB patch can be');
  }
  const patch = decodeStrictBase64(cs.patch_base64);
  if (patch === undefined) {
    reject('base64', 'patch_base64 is not strict padded standard base64');
  }
  if (patch.length !== cs.patch_bytes) {
    reject('patch_bytes', `decoded ${patch.length} bytes, patch_bytes says ${cs.patch_bytes}`);
  }
  const digest = `sha256:${createHash('sha256').update(patch).digest('hex')}`;
  if (digest !== cs.patch_digest) {
    reject('patch_digest', `decoded bytes hash to ${digest}, patch_digest says ${cs.patch_digest}`);
  }
  return {
    identity: cs.identity,
    state: cs.state,
    baseTree: cs.base_tree,
    resultTree: cs.result_tree,
    patchDigest: cs.patch_digest,
    patchBytes: cs.patch_bytes,
    patch,
    observedAtMs: cs.observed_at_ms,
  };
}

/**
 * The patch as text for parsing/display (invalid UTF-8 becomes U+FFFD; git patches of binary files are ASCII).
 * Buffer's decoder replaces exactly like TextDecoder (WHATWG maximal subparts) and is several times faster.
 */
export function a3sPatchText(changeSet: A3sVerifiedChangeSet): string {
  return changeSet.patch.toString('utf8');
}

export interface FetchA3sChangeSetOptions {
  /** First 425 wait; doubles up to `maxDelayMs`. Defaults 200 ms / 3 s. */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Total requests before giving up on 425. Default 60. */
  readonly maxAttempts?: number;
  /** The start/recover receipt said `replayed:true` — sharpens the 422 reason. */
  readonly replayed?: boolean;
  readonly timers?: Timeouts;
  readonly signal?: AbortSignal;
}

const NO_CHANGE_SET_REASON =
  'the harness recorded none for this run — the workspace is not a git repository, the command was a replay ' +
  '(only a newly executed run captures a baseline), the run failed to spawn, or the capture failed ' +
  '(e.g. a diff over 4 MiB, or a harness restart during capture)';
const REPLAYED_REASON = 'the run was a replayed command, and only a newly executed run captures a baseline';

/** Fetches and verifies a run's change set: retries 425 with backoff, stops on 422 with a reason. */
export async function fetchA3sChangeSet(
  client: Pick<A3sClient, 'changeSetRaw'>,
  identity: A3sRunIdentity,
  options: FetchA3sChangeSetOptions = {},
): Promise<A3sVerifiedChangeSet> {
  const timers = options.timers ?? systemClock;
  const maxAttempts = options.maxAttempts ?? 60;
  const maxDelay = options.maxDelayMs ?? 3_000;
  let delay = options.initialDelayMs ?? 200;
  for (let attempt = 1; ; attempt++) {
    try {
      return verifyA3sChangeSet(await client.changeSetRaw(identity, options.signal), identity);
    } catch (error) {
      if (!(error instanceof A3sHttpError)) {
        throw error;
      }
      if (error.status === 422 || error.code === A3S_ERROR_CODE.changeSetUnavailable) {
        throw new A3sNoChangeSetError(options.replayed ? REPLAYED_REASON : NO_CHANGE_SET_REASON);
      }
      if (error.status !== 425) {
        throw error;
      }
      if (attempt >= maxAttempts) {
        throw new A3sError('change_set_pending_timeout', `the change set was still being captured after ${attempt} attempts`, { cause: error });
      }
    }
    await new Promise<void>((resolve, rejectWait) => {
      if (options.signal?.aborted) {
        rejectWait(new A3sError('transport', 'change-set fetch aborted'));
        return;
      }
      timers.setTimeout(resolve, delay);
    });
    delay = Math.min(maxDelay, delay * 2);
  }
}
