/**
 * Keeps one connection up: connect, and when it fails or drops, retry with capped exponential backoff + jitter,
 * reporting each state to the model. Wired by the base driver (baseDriver.ts). `connectOnce` resolves once connected and
 * calls `onLost` when that connection later drops; an error with `fatal: true` stops retrying (e.g. a protocol
 * version the extension cannot speak).
 */
import type { ConnectionState } from '../../model/modelTypes';
import { Backoff } from '../../transport/backoff';
import { systemClock } from './clock';
import type { Timeouts } from './clock';

export interface ConnectAttemptError {
  readonly message: string;
  readonly fatal?: boolean;
}

export interface ReconnectLoopOptions {
  /** Opens the connection. Must call `onLost(reason)` exactly once if an established connection drops later. */
  readonly connectOnce: (onLost: (reason: string) => void) => Promise<void>;
  readonly setState: (state: ConnectionState) => void;
  readonly describeError: (error: unknown) => ConnectAttemptError;
  readonly baseMs?: number;
  readonly capMs?: number;
  readonly random?: () => number;
  readonly clock?: () => number;
  /** Schedules the retries (default: the system clock), so tests can step through them. */
  readonly timers?: Timeouts;
}

export class ReconnectLoop {
  private wanted = false;
  private running = false;
  private timer: unknown;
  private readonly backoff: Backoff;
  private readonly timers: Timeouts;
  private generation = 0;
  private firstAttempt: Promise<void> | undefined;

  constructor(private readonly options: ReconnectLoopOptions) {
    this.timers = options.timers ?? systemClock;
    this.backoff = new Backoff({ baseMs: options.baseMs ?? 250, capMs: options.capMs ?? 15_000, jitter: 'full', ...(options.random ? { random: options.random } : {}) });
  }

  get isWanted(): boolean {
    return this.wanted;
  }

  /** Starts connecting; resolves after the first attempt (connected or scheduled for retry). */
  start(): Promise<void> {
    if (this.wanted && this.firstAttempt) {
      return this.firstAttempt;
    }
    this.wanted = true;
    this.backoff.reset();
    this.firstAttempt = this.attempt(++this.generation);
    return this.firstAttempt;
  }

  stop(): void {
    this.wanted = false;
    this.generation++;
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.options.setState({ kind: 'disconnected' });
  }

  /** Retry now instead of waiting for the scheduled attempt. */
  retryNow(): void {
    if (this.wanted && this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
      void this.attempt(this.generation);
    }
  }

  private async attempt(generation: number): Promise<void> {
    if (!this.wanted || generation !== this.generation || this.running) {
      return;
    }
    this.running = true;
    this.options.setState({ kind: 'connecting', attempt: this.backoff.attempt + 1 });
    try {
      await this.options.connectOnce((reason) => this.lost(generation, reason));
      if (generation !== this.generation) {
        return;
      }
      this.backoff.reset();
      this.options.setState({ kind: 'connected', since: (this.options.clock ?? Date.now)() });
    } catch (error) {
      if (generation !== this.generation) {
        return;
      }
      const described = this.options.describeError(error);
      if (described.fatal) {
        this.wanted = false;
        this.options.setState({ kind: 'failed', reason: described.message });
      } else {
        this.schedule(generation, described.message);
      }
    } finally {
      this.running = false;
    }
  }

  private lost(generation: number, reason: string): void {
    if (this.wanted && generation === this.generation) {
      this.backoff.reset();
      this.schedule(generation, reason);
    }
  }

  private schedule(generation: number, reason: string): void {
    const delay = this.backoff.next();
    const now = (this.options.clock ?? Date.now)();
    this.options.setState({ kind: 'reconnecting', attempt: this.backoff.attempt, retryAt: now + delay, reason });
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.attempt(generation);
    }, delay);
  }
}
