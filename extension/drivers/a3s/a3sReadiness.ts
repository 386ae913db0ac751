/**
 * "Connected" for A3S (WIRE.md 3.1, 6.3.1): the readiness path answers `ready`. Checked at connect and then
 * periodically; readiness turning false on a harness that was ready is its shutdown drain, and requests meanwhile
 * get 503 harness_closed — reported as "draining" so the user knows the harness is going away, not broken.
 */
import type { A3sClient } from './client';
import { systemClock } from '../kit/clock';
import type { Clock } from '../kit/clock';
import { errorText } from '../kit/errors';

export const A3S_DRAINING =
  'draining: the harness is shutting down (readiness false, requests answered 503 harness_closed); waiting until it is ready again';

export class A3sReadiness {
  /** The harness was ready, or draining, at the last check: a not-ready answer now means it is draining. */
  private drainingLikely = false;
  private timer: unknown;
  private busy = false;

  constructor(
    private readonly client: A3sClient,
    private readonly clock: Pick<Clock, 'setInterval' | 'clearInterval'> = systemClock,
  ) {}

  /** Undefined when ready; else the reason for the connection state ("draining…", "unreachable…"). */
  async problem(): Promise<string | undefined> {
    try {
      const health = await this.client.readiness();
      if (health.state === 'ready') {
        this.drainingLikely = true;
        return undefined;
      }
      if (health.state === 'draining' || (health.state === 'not_ready' && this.drainingLikely)) {
        this.drainingLikely = true;
        return A3S_DRAINING;
      }
      return `not ready yet: ${this.client.baseUrl.origin} readiness answered HTTP ${health.httpStatus} ${health.detail}`;
    } catch (error) {
      this.drainingLikely = false;
      return `the harness at ${this.client.baseUrl.origin} is unreachable: ${errorText(error)}`;
    }
  }

  /** Checks every `intervalMs` (and on `checkNow`); calls `onProblem` once and stops at the first problem. */
  watch(intervalMs: number, onProblem: (reason: string) => void): void {
    this.stop();
    const timer = this.clock.setInterval(() => void this.check(timer, onProblem), intervalMs);
    this.timer = timer;
    this.checkNow = () => this.check(timer, onProblem);
  }

  /** An immediate check (e.g. after a request failed in transport); no-op when not watching. */
  checkNow: () => Promise<void> = () => Promise.resolve();

  stop(): void {
    if (this.timer !== undefined) {
      this.clock.clearInterval(this.timer);
      this.timer = undefined;
    }
    this.checkNow = () => Promise.resolve();
  }

  private async check(timer: unknown, onProblem: (reason: string) => void): Promise<void> {
    if (this.busy || this.timer !== timer) {
      return;
    }
    this.busy = true;
    try {
      const reason = await this.problem();
      if (reason !== undefined && this.timer === timer) {
        this.stop();
        onProblem(reason);
      }
    } finally {
      this.busy = false;
    }
  }
}
