/**
 * One write with a deadline. The outcome says whether the bytes reached the kernel in time; a write that did not is
 * *not* retried here or anywhere (WIRE.md §2.7: SCV has no idempotency, so a resent prompt could run twice).
 */
import type { Writable } from 'node:stream';

export type TimedWriteOutcome =
  | { readonly kind: 'written' }
  /** Still queued when the deadline passed: the peer is not reading. Whether it will arrive is unknown. */
  | { readonly kind: 'timeout' }
  /** The stream failed part-way; some bytes may have arrived. */
  | { readonly kind: 'failed'; readonly error: Error };

export function timedWrite(stream: Writable, data: string, timeoutMs: number): Promise<TimedWriteOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      resolve({ kind: 'timeout' });
    }, timeoutMs);
    stream.write(data, (error) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve(error ? { kind: 'failed', error } : { kind: 'written' });
    });
  });
}
