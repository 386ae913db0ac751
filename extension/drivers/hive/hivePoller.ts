/**
 * The hive driver's polling rhythm, on the kit's poller. mcp.sock has no push channel (WIRE.md 4.2), so the driver
 * polls the cheap `status` of every agent. To stay quiet on an idle hive the interval doubles after every poll that
 * saw nothing new (2 s → 4 → 8 → 16 → 30 s cap); a change or a user action (`reset`) brings it back to 2 s.
 */
import { Poller } from '../kit/poller';
import type { Timeouts } from '../kit/clock';

export const HIVE_POLL_MIN_MS = 2_000;
export const HIVE_POLL_MAX_MS = 30_000;

/**
 * @param poll one round of polling; resolves `true` when it saw a change. A rejected round counts as idle, not as
 * failed: the poll reports its own errors (and gives the connection up), so it must not be treated as a daemon
 * that answers again later, which would restart the backoff.
 */
export function createHivePoller(
  poll: () => Promise<boolean>,
  timers?: Timeouts,
  minMs = HIVE_POLL_MIN_MS,
  maxMs = HIVE_POLL_MAX_MS,
): Poller {
  return new Poller({
    tick: () => poll().then((changed) => (changed ? 'changed' : 'unchanged'), () => 'unchanged' as const),
    baseMs: minMs,
    maxMs,
    ...(timers !== undefined ? { timers } : {}),
  });
}
