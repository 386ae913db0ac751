/**
 * How the A3S driver sends a start/recover command and what it makes of the answer (WIRE.md 3.3–3.5, 6.3.3):
 * - a receipt lost in transit (transport failure, timeout) is fetched by resending the identical command, which
 *   the harness answers `replayed:true` if it had executed;
 * - a receipt that arrives with HTTP 200 but does not match the command (another request id, identity or digest)
 *   is not trusted, yet the 200 means the harness admitted a command for this run id: treating it as a failure
 *   would orphan a run the harness is executing, so the driver follows the run (its own identity) and warns.
 */
import { A3sError, A3sReceiptMismatchError } from './a3sErrors';
import type { A3sCommandResult } from './client';

/** What a start/recover command led to; every other outcome is thrown. */
export type A3sAdmission =
  | { readonly kind: 'receipt'; readonly result: A3sCommandResult }
  /** HTTP 200 with a receipt that does not match the command: follow the run, but nothing in the receipt is used. */
  | { readonly kind: 'unverified'; readonly mismatch: A3sReceiptMismatchError };

const ATTEMPTS = 3;

/** Resends the identical command (same request and run id) when its receipt was lost in transit (6.3.3). */
export async function withA3sRetry<T>(send: () => Promise<T>, backoffMs = 300): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const transient = error instanceof A3sError && (error.kind === 'transport' || error.kind === 'timeout');
      if (!transient || attempt >= ATTEMPTS) {
        throw error;
      }
      await new Promise((r) => setTimeout(r, backoffMs * attempt));
    }
  }
}

/** Sends with {@link withA3sRetry}; a mismatching 200 receipt becomes `unverified` instead of an error. */
export async function admitA3sCommand(send: () => Promise<A3sCommandResult>): Promise<A3sAdmission> {
  try {
    return { kind: 'receipt', result: await withA3sRetry(send) };
  } catch (error) {
    if (error instanceof A3sReceiptMismatchError) {
      return { kind: 'unverified', mismatch: error };
    }
    throw error;
  }
}

/** The transcript notice (and log line) for an `unverified` admission. */
export function unverifiedReceiptText(action: 'start' | 'recover', mismatch: A3sReceiptMismatchError): string {
  return (
    `The harness's receipt did not match the ${action} command (its ${mismatch.field} differs from what was sent); ` +
    'following the run anyway. The harness answered 200, so it accepted the command, but its receipt cannot be trusted: ' +
    'the run state shown comes from its event pages only.'
  );
}

/** The transcript notice for a start/recover the harness had already executed (exact replay, same run id). */
export function replayedCommandText(action: 'start' | 'recover'): string {
  return `Already started: the harness had already accepted this ${action} (same run id), so no new work was started.`;
}
