import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff, decorrelatedJitterDelay, exponentialCeiling, fullJitterDelay } from '../../../extension/transport/backoff';

/** Deterministic LCG in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('backoff', () => {
  it('grows exponentially up to the cap without jitter', () => {
    const b = new Backoff({ baseMs: 100, capMs: 1000, jitter: 'none' });
    assert.deepEqual(Array.from({ length: 6 }, () => b.next()), [100, 200, 400, 800, 1000, 1000]);
    assert.equal(b.attempt, 6);
    b.reset();
    assert.equal(b.next(), 100);
  });

  it('full jitter stays within [0, min(cap, base·2^n)) and is deterministic per seed', () => {
    const run = (): number[] => {
      const b = new Backoff({ baseMs: 50, capMs: 2000, jitter: 'full', random: seeded(42) });
      return Array.from({ length: 12 }, () => b.next());
    };
    const delays = run();
    delays.forEach((d, n) => {
      assert.ok(d >= 0 && d < exponentialCeiling(n, 50, 2000), `attempt ${n}: ${d}`);
    });
    assert.deepEqual(run(), delays);
    assert.equal(fullJitterDelay(3, 50, 2000, () => 0.5), 200);
    assert.equal(fullJitterDelay(30, 50, 2000, () => 0.999999), 1999);
  });

  it('decorrelated jitter stays within [base, cap] and follows the previous delay', () => {
    assert.equal(decorrelatedJitterDelay(100, 100, 10_000, () => 0), 100);
    assert.equal(decorrelatedJitterDelay(100, 100, 10_000, () => 0.5), 200);
    assert.equal(decorrelatedJitterDelay(5000, 100, 10_000, () => 0.9), 10_000);
    const b = new Backoff({ baseMs: 10, capMs: 500, jitter: 'decorrelated', random: seeded(7) });
    for (let i = 0; i < 50; i += 1) {
      const d = b.next();
      assert.ok(d >= 10 && d <= 500, `${d}`);
    }
  });

  it('never overflows for huge attempt counts and clamps bad random values', () => {
    assert.equal(exponentialCeiling(10_000, 1, 30_000), 30_000);
    assert.equal(fullJitterDelay(5, 10, 100, () => Number.NaN), 0);
    assert.ok(fullJitterDelay(5, 10, 100, () => 7) < 100);
  });

  it('rejects nonsensical bounds', () => {
    assert.throws(() => new Backoff({ baseMs: 0, capMs: 10 }), RangeError);
    assert.throws(() => new Backoff({ baseMs: 100, capMs: 10 }), RangeError);
  });
});
