/** The kit's clock: the system clock behaves like the globals; ManualClock runs timers only when told, in due order. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { systemClock } from '../../../../extension/drivers/kit/clock';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';

describe('systemClock', () => {
  test('fires a timeout and an interval, and clears them', async () => {
    const before = Date.now();
    assert.ok(Math.abs(systemClock.now() - before) < 1000);
    let fired = 0;
    await new Promise<void>((resolve) => systemClock.setTimeout(() => resolve(), 5));
    const cleared = systemClock.setTimeout(() => (fired += 100), 5);
    systemClock.clearTimeout(cleared);
    await new Promise<void>((resolve) => {
      const handle = systemClock.setInterval(() => {
        fired += 1;
        if (fired === 2) {
          systemClock.clearInterval(handle);
          resolve();
        }
      }, 2);
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(fired, 2);
  });
});

describe('ManualClock', () => {
  test('time moves only on advance; timers run in due order, ties in the order set, at their due time', () => {
    const clock = new ManualClock(1000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`a2@${clock.now()}`), 10);
    assert.equal(clock.now(), 1000);
    assert.equal(clock.nextDelay, 10);
    clock.advance(15);
    assert.deepEqual(seen, ['a@1010', 'a2@1010']);
    assert.equal(clock.now(), 1015);
    clock.advance(5);
    assert.deepEqual(seen, ['a@1010', 'a2@1010', 'b@1020']);
    assert.equal(clock.pendingCount, 0);
    assert.equal(clock.nextDelay, undefined);
  });

  test('clearTimeout cancels; a callback may schedule another timer that falls in the same advance', () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const cancelled = clock.setTimeout(() => seen.push(-1), 5);
    clock.clearTimeout(cancelled);
    clock.setTimeout(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 10);
    }, 10);
    clock.advance(25);
    assert.deepEqual(seen, [10, 20]);
  });

  test('intervals repeat until cleared; runNext steps one timer at a time', () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const handle = clock.setInterval(() => seen.push(clock.now()), 10);
    clock.advance(35);
    assert.deepEqual(seen, [10, 20, 30]);
    assert.equal(clock.runNext(), true);
    assert.deepEqual(seen, [10, 20, 30, 40]);
    clock.clearInterval(handle);
    assert.equal(clock.runNext(), false);
    clock.advance(100);
    assert.equal(seen.length, 4);
  });

  test('a zero interval still advances time instead of spinning', () => {
    const clock = new ManualClock();
    let n = 0;
    clock.setInterval(() => (n += 1), 0);
    clock.advance(3);
    assert.equal(n, 3);
  });
});
