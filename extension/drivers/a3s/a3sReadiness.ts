/**
 * "Connected" for A3S (WIRE.md 3.1, 6.3.1): the readiness path answers `ready`. Checked at connect, on demand
 * (`checkNow`: a request failed in transport, or the user looks at the Connections view — the `runs.refresh`
 * cadence), and periodically only while `setPeriodic(true)` (a run is live): an idle connection arms no timer.
 * Readiness turning false on a harness that was ready is its shutdown drain, and requests meanwhile get 503
 * harness_closed — reported as "draining" so the user knows the harness is going away, not broken.
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
  /** The current watch (a fresh object per `watch`): a check of an earlier one reports nothing. */
  private watching: { readonly intervalMs: number; readonly onProblem: (reason: string) => void } | undefined;

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

  /**
   * Watches readiness: on `checkNow`, and every `intervalMs` while periodic checks are on (`periodic`, default on);
   * calls `onProblem` once and stops at the first problem.
   */
  watch(intervalMs: number, onProblem: (reason: string) => void, periodic = true): void {
    this.stop();
    this.watching = { intervalMs, onProblem };
    this.setPeriodic(periodic);
  }

  /** Arms (or disarms) the periodic check of the current watch; no-op when not watching. */
  setPeriodic(on: boolean): void {
    const watch = this.watching;
    if (!watch || on === (this.timer !== undefined)) {
      return;
    }
    if (on) {
      this.timer = this.clock.setInterval(() => void this.check(watch), watch.intervalMs);
    } else {
      this.clock.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** An immediate check (e.g. after a request failed in transport); no-op when not watching. */
  checkNow(): Promise<void> {
    return this.watching ? this.check(this.watching) : Promise.resolve();
  }

  stop(): void {
    if (this.timer !== undefined) {
      this.clock.clearInterval(this.timer);
      this.timer = undefined;
    }
    this.watching = undefined;
  }

  private async check(watch: NonNullable<A3sReadiness['watching']>): Promise<void> {
    if (this.busy || this.watching !== watch) {
      return;
    }
    this.busy = true;
    try {
      const reason = await this.problem();
      if (reason !== undefined && this.watching === watch) {
        this.stop();
        watch.onProblem(reason);
      }
    } finally {
      this.busy = false;
    }
  }
}
