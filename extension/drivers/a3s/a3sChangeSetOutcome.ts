/**
 * Turns a change-set fetch (WIRE.md 3.8, 6.3.5) into what the model shows: `ready` with the verified patch,
 * `unavailable` with the harness's final "no change set" (422) or a forgotten session (404), `refused` naming the
 * verification check that failed (never shown as valid) — or "retry later" for transient failures (a harness that
 * is down, draining, or still capturing after the bounded 425 retries).
 */
import { TimeSlices } from '../../base/timeSlices';
import { patchTextSliced } from '../../changeSets/changeSetVerification';
import type { A3sRunIdentity } from '../../protocol/a3s';
import { A3S_ERROR_CODE } from '../../protocol/a3s';
import { A3sChangeSetRejectedError, A3sHttpError, A3sNoChangeSetError } from './a3sErrors';
import type { CachedChangeSet } from './a3sRunRecords';
import { fetchA3sChangeSet } from './changeSet';
import type { FetchA3sChangeSetOptions } from './changeSet';
import type { A3sClient } from './client';
import { errorText } from '../kit/errors';

export type A3sChangeSetOutcome =
  | { readonly final: true; readonly changeSet: CachedChangeSet }
  | { readonly final: false; readonly reason: string };

export async function a3sChangeSetOutcome(
  client: Pick<A3sClient, 'changeSetRaw'>,
  identity: A3sRunIdentity,
  options: FetchA3sChangeSetOptions,
): Promise<A3sChangeSetOutcome> {
  try {
    const cs = await fetchA3sChangeSet(client, identity, options);
    return {
      final: true,
      // Decoded in slices too (issue #25 §3): 4 MiB of UTF-8 is ~20 ms of its own.
      changeSet: { source: 'daemon', status: 'ready', patch: await patchTextSliced(cs, new TimeSlices()), baseTree: cs.baseTree, resultTree: cs.resultTree },
    };
  } catch (error) {
    if (error instanceof A3sNoChangeSetError) {
      return { final: true, changeSet: { source: 'daemon', status: 'unavailable', reason: `No change set: ${error.reason}.` } };
    }
    if (error instanceof A3sChangeSetRejectedError) {
      return {
        final: true,
        changeSet: {
          source: 'daemon',
          status: 'refused',
          reason: `The harness sent a change set that failed the "${error.check}" check, so it is not shown or applied: ${error.message}`,
        },
      };
    }
    if (error instanceof A3sHttpError && (error.code === A3S_ERROR_CODE.sessionNotFound || error.code === A3S_ERROR_CODE.runNotFound)) {
      return {
        final: true,
        changeSet: { source: 'daemon', status: 'unavailable', reason: `No change set: the harness no longer knows this run (it probably restarted). ${errorText(error)}` },
      };
    }
    return { final: false, reason: errorText(error) };
  }
}
