/**
 * Follows one A3S run's event store: pages until caught up (`has_more` false), then polls with backoff while the
 * run is active — resetting to the active interval whenever events arrive or the harness answers again after
 * failures — and stops once the run is terminal and caught up, confirmed by one more poll (WIRE.md 3.6 advice).
 * The schedule is the kit's `Poller` (one page per tick); this class keeps the cursor, the page checks and the end.
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
import { Poller } from '../kit/poller';
import type { TickVerdict } from '../kit/poller';

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
  private terminalSeen = false;
  private running: Promise<A3sPollerEnd> | undefined;
  private resolveEnd: ((end: A3sPollerEnd) => void) | undefined;
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly poller: Poller;
  private readonly maxErrors: number;
  private readonly limit: number;

  constructor(private readonly options: A3sRunPollerOptions) {
    this.cursorValue = options.after ?? null;
    this.maxErrors = options.maxConsecutiveErrors ?? 30;
    this.limit = options.limit ?? A3S_LIMITS.maxEventsPerPage;
    // The cadence counts from each page request's start, so a slow harness is still read every `active` ms.
    this.poller = new Poller({
      tick: () => this.tick(),
      baseMs: options.activeIntervalMs ?? 250,
      maxMs: options.maxIntervalMs ?? 5_000,
      factor: options.backoffFactor ?? 2,
      cadenceFrom: 'tickStart',
      timers: options.timers ?? systemClock,
    });
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
    this.running ??= new Promise<A3sPollerEnd>((resolve) => {
      this.resolveEnd = resolve;
      if (this.stopped) {
        this.end({ reason: 'stopped' });
      } else {
        this.poller.start({ tickNow: true });
      }
    }).then((end) => {
      this.endEmitter.fire(end);
      return end;
    });
    return this.running;
  }

  /** Skips the current wait, e.g. right after sending cancel (a user action: the cadence restarts too). */
  wake(): void {
    this.poller.poke();
  }

  stop(): void {
    if (this.stopped) {
      return;
    }
    this.stopped = true;
    this.abort.abort();
    this.poller.stop();
    // Reported once the page in flight (aborted above) has settled, as the loop did before the kit's poller.
    void this.poller.settled.then(() => this.end({ reason: 'stopped' }));
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

  /** The first end wins (a terminal page and a stop racing each other). */
  private end(end: A3sPollerEnd): void {
    const resolve = this.resolveEnd;
    this.resolveEnd = undefined;
    resolve?.(end);
  }

  /** One page: `again` while has_more or until a terminal run is confirmed, `stop` at the end. */
  private async tick(): Promise<TickVerdict> {
    let checked;
    try {
      checked = await this.options.client.eventPage(this.options.identity, this.cursorValue, this.limit, this.abort.signal);
    } catch (caught) {
      if (this.stopped) {
        return 'stop';
      }
      const error = caught instanceof A3sError ? caught : new A3sError('protocol', String(caught), { cause: caught });
      const willRetry = isRetryable(error) && this.poller.consecutiveFailures + 1 <= this.maxErrors;
      this.errorEmitter.fire({ error, willRetry });
      if (!willRetry) {
        this.end({ reason: 'error', error });
        return 'stop';
      }
      return 'failed';
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
    const outcome = checked.events.length > 0 ? 'changed' : 'unchanged';
    if (outcome === 'changed') {
      this.eventsEmitter.fire({ events: checked.events, page: checked.page });
    }
    if (!checked.caughtUp) {
      return { outcome, again: true };
    }
    if (checked.terminal) {
      // Caught up on a terminal run: one confirming poll that brings nothing new ends it.
      if (this.terminalSeen && outcome === 'unchanged') {
        this.end({ reason: 'terminal', state: checked.page.state, cursor: this.cursorValue });
        return 'stop';
      }
      this.terminalSeen = true;
      return { outcome, again: true };
    }
    this.terminalSeen = false;
    return outcome;
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
