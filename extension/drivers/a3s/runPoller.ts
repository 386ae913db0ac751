/**
 * Follows one A3S run's event store: pages until caught up (`has_more` false), then polls with backoff while the
 * run is active — resetting to the active interval whenever events arrive or the harness answers again after
 * failures — and stops once the run is terminal and caught up, confirmed by one more poll (WIRE.md 3.6 advice).
 * Timers and clock are injectable for tests.
 */
import { Emitter } from '../../base/emitter';
import type { Disposable, Event } from '../../base/emitter';
import { A3S_LIMITS } from '../../protocol/a3s';
import type { A3sEventPage, A3sEventRecord, A3sRunIdentity } from '../../protocol/a3s';
import { A3sError, A3sHttpError } from './a3sErrors';
import type { A3sClient } from './client';
import type { A3sRetentionGap } from './eventPageCheck';
import { systemClock } from '../kit/clock';
import type { TimedTimeouts } from '../kit/clock';


export interface A3sRunPollerOptions {
  readonly client: Pick<A3sClient, 'eventPage'>;
  readonly identity: A3sRunIdentity;
  /** The last sequence already held (a persisted `next_after_event_sequence`); null = from 0. */
  readonly after?: number | null;
  readonly limit?: number;
  /** Poll interval while events keep arriving. Default 250 ms. */
  readonly activeIntervalMs?: number;
  /** Ceiling of the idle/error backoff. Default 5 s. */
  readonly maxIntervalMs?: number;
  /** Default 2. */
  readonly backoffFactor?: number;
  /** Consecutive retryable failures (transport, 5xx, 503 draining) tolerated before giving up. Default 30. */
  readonly maxConsecutiveErrors?: number;
  readonly timers?: TimedTimeouts;
}

export interface A3sPollerBatch {
  readonly events: readonly A3sEventRecord[];
  readonly page: A3sEventPage;
}

export type A3sPollerEnd =
  | { readonly reason: 'terminal'; readonly state: string; readonly cursor: number | null }
  | { readonly reason: 'error'; readonly error: A3sError }
  | { readonly reason: 'stopped' };

function isRetryable(error: A3sError): boolean {
  if (error instanceof A3sHttpError) {
    return error.retryable;
  }
  return error.kind === 'transport' || error.kind === 'timeout';
}

export class A3sRunPoller implements Disposable {
  private readonly eventsEmitter = new Emitter<A3sPollerBatch>();
  private readonly gapEmitter = new Emitter<A3sRetentionGap>();
  private readonly stateEmitter = new Emitter<string>();
  private readonly errorEmitter = new Emitter<{ error: A3sError; willRetry: boolean }>();
  private readonly endEmitter = new Emitter<A3sPollerEnd>();
  /** Events of one page, in order. */
  readonly onEvents: Event<A3sPollerBatch> = this.eventsEmitter.event;
  /** Events that were evicted before being read; fired once per distinct gap. */
  readonly onGap: Event<A3sRetentionGap> = this.gapEmitter.event;
  /** The run state, whenever it changes. */
  readonly onState: Event<string> = this.stateEmitter.event;
  readonly onError: Event<{ error: A3sError; willRetry: boolean }> = this.errorEmitter.event;
  readonly onEnd: Event<A3sPollerEnd> = this.endEmitter.event;

  private cursorValue: number | null;
  private stateValue: string | undefined;
  private lastGapFrom: number | undefined;
  private running: Promise<A3sPollerEnd> | undefined;
  private stopped = false;
  private sleepHandle: unknown;
  private wakeSleep: (() => void) | undefined;
  private readonly abort = new AbortController();
  private readonly timers: TimedTimeouts;

  constructor(private readonly options: A3sRunPollerOptions) {
    this.cursorValue = options.after ?? null;
    this.timers = options.timers ?? systemClock;
  }

  /** Persist this: it is the `after_event_sequence` to resume from. */
  get cursor(): number | null {
    return this.cursorValue;
  }

  get state(): string | undefined {
    return this.stateValue;
  }

  /** Starts polling (idempotent); resolves when polling ends. */
  start(): Promise<A3sPollerEnd> {
    this.running ??= this.loop().then((end) => {
      this.endEmitter.fire(end);
      return end;
    });
    return this.running;
  }

  /** Skips the current wait, e.g. right after sending cancel. */
  wake(): void {
    this.wakeSleep?.();
  }

  stop(): void {
    if (this.stopped) {
      return;
    }
    this.stopped = true;
    this.abort.abort();
    this.wakeSleep?.();
  }

  dispose(): void {
    this.stop();
    for (const e of [this.eventsEmitter, this.gapEmitter, this.stateEmitter, this.errorEmitter]) {
      e.dispose();
    }
    // onEnd stays alive until the loop has reported the end.
    if (this.running) {
      void this.running.then(() => this.endEmitter.dispose());
    } else {
      this.endEmitter.dispose();
    }
  }

  private async loop(): Promise<A3sPollerEnd> {
    const active = this.options.activeIntervalMs ?? 250;
    const max = Math.max(active, this.options.maxIntervalMs ?? 5_000);
    const factor = this.options.backoffFactor ?? 2;
    const maxErrors = this.options.maxConsecutiveErrors ?? 30;
    const limit = this.options.limit ?? A3S_LIMITS.maxEventsPerPage;
    let interval = active;
    let errors = 0;
    let terminalSeen = false;
    while (!this.stopped) {
      const startedAt = this.timers.now();
      let checked;
      try {
        checked = await this.options.client.eventPage(this.options.identity, this.cursorValue, limit, this.abort.signal);
        if (errors > 0) {
          // The harness answers again: the error backoff is over, idle backoff starts afresh from the active cadence.
          interval = active;
          errors = 0;
        }
      } catch (caught) {
        if (this.stopped) {
          break;
        }
        const error = caught instanceof A3sError ? caught : new A3sError('protocol', String(caught), { cause: caught });
        errors += 1;
        const willRetry = isRetryable(error) && errors <= maxErrors;
        this.errorEmitter.fire({ error, willRetry });
        if (!willRetry) {
          return { reason: 'error', error };
        }
        interval = Math.min(max, interval * factor);
        await this.sleep(interval);
        continue;
      }
      this.cursorValue = checked.next;
      if (checked.gap && checked.gap.fromSequence !== this.lastGapFrom) {
        this.lastGapFrom = checked.gap.fromSequence;
        this.gapEmitter.fire(checked.gap);
      }
      if (checked.page.state !== this.stateValue) {
        this.stateValue = checked.page.state;
        this.stateEmitter.fire(checked.page.state);
      }
      if (checked.events.length > 0) {
        this.eventsEmitter.fire({ events: checked.events, page: checked.page });
        interval = active;
      }
      if (!checked.caughtUp) {
        continue;
      }
      if (checked.terminal) {
        // Caught up on a terminal run: one confirming poll that brings nothing new ends it.
        if (terminalSeen && checked.events.length === 0) {
          return { reason: 'terminal', state: checked.page.state, cursor: this.cursorValue };
        }
        terminalSeen = true;
        continue;
      }
      terminalSeen = false;
      if (checked.events.length === 0) {
        interval = Math.min(max, interval * factor);
      }
      await this.sleep(Math.max(0, interval - (this.timers.now() - startedAt)));
    }
    return { reason: 'stopped' };
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.timers.clearTimeout(this.sleepHandle);
        this.wakeSleep = undefined;
        resolve();
      };
      this.wakeSleep = done;
      this.sleepHandle = this.timers.setTimeout(done, ms);
    });
  }
}

export interface A3sCatchUp {
  readonly events: A3sEventRecord[];
  readonly gaps: A3sRetentionGap[];
  readonly cursor: number | null;
  readonly state: string;
  readonly terminal: boolean;
}

/** Pages from `after` following `has_more` until caught up (bounded by `maxPages`, default 10,000). */
export async function pageA3sUntilCaughtUp(
  client: Pick<A3sClient, 'eventPage'>,
  identity: A3sRunIdentity,
  after: number | null,
  limit: number = A3S_LIMITS.maxEventsPerPage,
  maxPages = 10_000,
): Promise<A3sCatchUp> {
  const events: A3sEventRecord[] = [];
  const gaps: A3sRetentionGap[] = [];
  let cursor = after;
  for (let pages = 0; pages < maxPages; pages++) {
    const checked = await client.eventPage(identity, cursor, limit);
    cursor = checked.next;
    if (checked.gap) {
      gaps.push(checked.gap);
    }
    events.push(...checked.events);
    if (checked.caughtUp) {
      return { events, gaps, cursor, state: checked.page.state, terminal: checked.terminal };
    }
  }
  throw new A3sError('protocol', `A3S event paging did not catch up within ${maxPages} pages`);
}
