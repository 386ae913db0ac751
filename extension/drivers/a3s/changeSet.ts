/**
 * A3S change sets (WIRE.md 3.8): fetch with 425 → retry (bounded backoff) and 422 → final "no change set", then
 * verify every field before anything is displayed or applied. A change set that fails a check is refused as a
 * whole, naming the check; nothing partial is ever returned.
 *
 * Only what is A3S's own lives here — the wire schema, the schema id, the echoed run identity, the terminal state
 * and the fetch protocol; the daemon-independent checks (format, encoding, tree ids, length, base64, sha256) are
 * changeSets/changeSetVerification.ts.
 */
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
import type { A3sChangeSet, A3sRunIdentity } from '../../protocol/a3s';
import { ChangeSetRejectedError, readDeliveredChangeSet, verifyDeliveredChangeSet } from '../../changeSets/changeSetVerification';
import type { DeliveredChangeSet, VerifiedPatch } from '../../changeSets/changeSetVerification';
import type { Pauses } from '../../changeSets/patchReading';
import { TimeSlices, yieldToEventLoop } from '../../base/timeSlices';
import { A3sChangeSetRejectedError, A3sError, A3sHttpError, A3sNoChangeSetError } from './a3sErrors';
import type { A3sChangeSetCheck } from './a3sErrors';
import type { A3sClient } from './client';
import { systemClock } from '../kit/clock';
import type { Timeouts } from '../kit/clock';

export interface A3sVerifiedChangeSet extends VerifiedPatch {
  readonly identity: A3sRunIdentity;
  readonly state: string;
  readonly observedAtMs: number;
}

function reject(check: A3sChangeSetCheck, detail: string): never {
  throw new A3sChangeSetRejectedError(check, detail);
}

/** What only A3S's wire has (schema, identity, terminal state), then the delivered fields for the shared checks. */
function checkA3sWire(body: unknown, expectedIdentity: A3sRunIdentity | undefined): { readonly cs: A3sChangeSet; readonly delivered: DeliveredChangeSet } {
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
  const delivered: DeliveredChangeSet = {
    format: cs.format,
    encoding: cs.encoding,
    baseTree: cs.base_tree,
    resultTree: cs.result_tree,
    patchDigest: cs.patch_digest,
    patchBytes: cs.patch_bytes,
    patchBase64: cs.patch_base64,
  };
  return { cs, delivered };
}

const EXPECTED = { format: A3S_CHANGE_SET_FORMAT, encoding: A3S_CHANGE_SET_ENCODING, maxPatchBytes: A3S_LIMITS.patchBytes } as const;

/** The shared checks' refusal in A3S's error taxonomy. */
function asA3sRefusal(error: unknown): never {
  if (error instanceof ChangeSetRejectedError) {
    reject(error.check, error.detail);
  }
  throw error;
}

/** Verifies a 200 change-set body; throws {@link A3sChangeSetRejectedError} naming the failed check. */
export function verifyA3sChangeSet(body: unknown, expectedIdentity?: A3sRunIdentity): A3sVerifiedChangeSet {
  const { cs, delivered } = checkA3sWire(body, expectedIdentity);
  let verified: VerifiedPatch;
  try {
    verified = verifyDeliveredChangeSet(delivered, EXPECTED);
  } catch (error) {
    asA3sRefusal(error);
  }
  return { identity: cs.identity, state: cs.state, ...verified, observedAtMs: cs.observed_at_ms };
}

/**
 * `verifyA3sChangeSet` without stalling the host (issue #25 §3): the same checks, the 4 MiB of base64 decoded and
 * hashed in slices of the event loop. What the driver uses; the sync one stays for the reference harness and tests.
 */
export async function readA3sChangeSet(body: unknown, expectedIdentity?: A3sRunIdentity, slices: Pauses = new TimeSlices()): Promise<A3sVerifiedChangeSet> {
  // The body was parsed in the turn it arrived in: start the checks in a turn of their own.
  await yieldToEventLoop();
  const { cs, delivered } = checkA3sWire(body, expectedIdentity);
  let verified: VerifiedPatch;
  try {
    verified = await readDeliveredChangeSet(delivered, EXPECTED, slices);
  } catch (error) {
    asA3sRefusal(error);
  }
  return { identity: cs.identity, state: cs.state, ...verified, observedAtMs: cs.observed_at_ms };
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
      return await readA3sChangeSet(await client.changeSetRaw(identity, options.signal), identity);
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
