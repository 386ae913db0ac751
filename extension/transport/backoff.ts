/**
 * Capped exponential backoff for reconnects and polling, shared by every driver. Pure and deterministic given the
 * injected `random` (tests pass a seeded or constant source).
 *
 * - `full` jitter (AWS "Exponential Backoff and Jitter"): delay = random × min(cap, base × factor^attempt). Spreads
 *   retries of many clients evenly; can return 0.
 * - `decorrelated` jitter: delay = min(cap, base + random × (previous × 3 − base)). Grows with the previous delay
 *   rather than the attempt count and never drops below `base`.
 * - `none`: delay = min(cap, base × factor^attempt).
 */
export type JitterMode = 'full' | 'decorrelated' | 'none';

export interface BackoffOptions {
  /** First delay scale in ms (> 0). */
  readonly baseMs: number;
  /** Upper bound of any delay in ms (≥ baseMs). */
  readonly capMs: number;
  readonly jitter?: JitterMode;
  /** Growth per attempt for `full` / `none` (default 2). */
  readonly factor?: number;
  /** Uniform [0, 1) source; default Math.random. */
  readonly random?: () => number;
}

/** `random() × min(cap, base × factor^attempt)`, attempt counted from 0. */
export function fullJitterDelay(attempt: number, baseMs: number, capMs: number, random: () => number, factor = 2): number {
  return Math.floor(clamp01(random()) * exponentialCeiling(attempt, baseMs, capMs, factor));
}

/** `min(cap, base + random() × (previous × 3 − base))`; `previous` is the last delay (use base for the first). */
export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: () => number): number {
  const upper = Math.max(baseMs, previousMs * 3);
  return Math.floor(Math.min(capMs, baseMs + clamp01(random()) * (upper - baseMs)));
}

/** `min(cap, base × factor^attempt)` without overflowing to Infinity for large attempts. */
export function exponentialCeiling(attempt: number, baseMs: number, capMs: number, factor = 2): number {
  const exponent = Math.max(0, Math.floor(attempt));
  // factor^exponent would exceed cap long before it overflows; stop computing once it does.
  let value = baseMs;
  for (let i = 0; i < exponent && value < capMs; i += 1) {
    value *= factor;
  }
  return Math.min(capMs, value);
}

/** A stateful schedule: call next() before each retry, reset() after a success. */
export class Backoff {
  private attemptCount = 0;
  private previous: number;
  private readonly jitter: JitterMode;
  private readonly factor: number;
  private readonly random: () => number;

  constructor(private readonly options: BackoffOptions) {
    if (!(options.baseMs > 0) || !(options.capMs >= options.baseMs)) {
      throw new RangeError(`backoff needs 0 < baseMs <= capMs (got ${options.baseMs}, ${options.capMs})`);
    }
    this.jitter = options.jitter ?? 'full';
    this.factor = options.factor ?? 2;
    this.random = options.random ?? Math.random;
    this.previous = options.baseMs;
  }

  /** Retries scheduled since the last reset. */
  get attempt(): number {
    return this.attemptCount;
  }

  /** The delay before the next retry, in whole ms. */
  next(): number {
    const { baseMs, capMs } = this.options;
    let delay: number;
    switch (this.jitter) {
      case 'full':
        delay = fullJitterDelay(this.attemptCount, baseMs, capMs, this.random, this.factor);
        break;
      case 'decorrelated':
        delay = decorrelatedJitterDelay(this.previous, baseMs, capMs, this.random);
        break;
      case 'none':
        delay = Math.floor(exponentialCeiling(this.attemptCount, baseMs, capMs, this.factor));
        break;
    }
    this.previous = delay;
    this.attemptCount += 1;
    return delay;
  }

  reset(): void {
    this.attemptCount = 0;
    this.previous = this.options.baseMs;
  }
}

function clamp01(value: number): number {
  if (!(value >= 0)) {
    return 0;
  }
  return value >= 1 ? 1 - Number.EPSILON : value;
}
