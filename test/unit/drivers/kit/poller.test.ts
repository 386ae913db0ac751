/** The kit's poller on a ManualClock: cadence, bounded backoff, resets, poke, no overlap, nothing left behind. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';
import { Poller } from '../../../../extension/drivers/kit/poller';
import type { TickVerdict } from '../../../../extension/drivers/kit/poller';

/** Lets the ticks' promise chains run (ManualClock runs timers synchronously; ticks settle in microtasks). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A scripted tick: answers from `verdicts` in order (the last repeats), recording when each tick ran. */
function scripted(clock: ManualClock, verdicts: TickVerdict[]): { tick: () => Promise<TickVerdict>; at: number[] } {
  const at: number[] = [];
  let i = 0;
  return {
    at,
    tick: async () => {
      at.push(clock.now());
      const verdict = verdicts[Math.min(i, verdicts.length - 1)]!;
      i += 1;
      return verdict;
    },
  };
}

/** Advances to the next timer and lets the tick it starts settle; returns the delay that was waited. */
async function step(clock: ManualClock): Promise<number> {
  const delay = clock.nextDelay;
  assert.ok(delay !== undefined, 'a tick is armed');
  clock.advance(delay);
  await settle();
  return delay;
}

describe('Poller', () => {
  test('ticks at the base cadence while something changes', async () => {
    const clock = new ManualClock();
    const { tick, at } = scripted(clock, ['changed']);
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, timers: clock });
    poller.start();
    for (let i = 0; i < 3; i++) {
      await step(clock);
    }
    assert.deepEqual(at, [100, 200, 300]);
    assert.equal(clock.pendingCount, 1, 'exactly one timer armed');
    poller.stop();
  });

  test('backs off while unchanged, up to the cap, and a change resets it', async () => {
    const clock = new ManualClock();
    const { tick } = scripted(clock, ['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'changed', 'unchanged']);
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, timers: clock });
    poller.start();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      waits.push(await step(clock));
    }
    assert.deepEqual(waits, [100, 200, 400, 800, 800, 800, 100, 200]);
    poller.stop();
  });

  test('failures back off from where the interval is; the first answer after them restarts from the base', async () => {
    const clock = new ManualClock();
    const { tick } = scripted(clock, ['failed', 'failed', 'failed', 'unchanged']);
    const poller = new Poller({ tick, baseMs: 50, maxMs: 800, timers: clock });
    poller.start({ tickNow: true });
    await settle();
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      if (i === 2) {
        assert.equal(poller.consecutiveFailures, 3);
      }
      waits.push(await step(clock));
    }
    assert.deepEqual(waits, [100, 200, 400, 100, 200]);
    assert.equal(poller.consecutiveFailures, 0);
    poller.stop();
  });

  test('a rejected tick counts as failed', async () => {
    const clock = new ManualClock();
    const poller = new Poller({ tick: () => Promise.reject(new Error('down')), baseMs: 10, maxMs: 1000, timers: clock });
    poller.start({ tickNow: true });
    await settle();
    assert.deepEqual([poller.consecutiveFailures, clock.nextDelay], [1, 20]);
    poller.stop();
  });

  test('`again` ticks at once without a timer; `stop` ends the poller with nothing pending', async () => {
    const clock = new ManualClock();
    const { tick, at } = scripted(clock, [{ outcome: 'changed', again: true }, { outcome: 'unchanged', again: true }, 'unchanged', 'stop']);
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, timers: clock });
    poller.start({ tickNow: true });
    await settle();
    assert.deepEqual(at, [0, 0, 0], 'three ticks back to back');
    assert.equal(clock.nextDelay, 200, 'an `again` page does not grow the interval; the idle one does');
    await step(clock);
    assert.equal(poller.isActive, false);
    assert.equal(clock.pendingCount, 0);
  });

  test('tickStart cadence subtracts the tick duration; failures wait the full interval after the tick', async () => {
    const clock = new ManualClock();
    let verdict: TickVerdict = 'changed';
    const tick = async (): Promise<TickVerdict> => {
      clock.advance(30); // the tick itself takes 30 ms
      return verdict;
    };
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, cadenceFrom: 'tickStart', timers: clock });
    poller.start({ tickNow: true });
    await settle();
    assert.equal(clock.nextDelay, 70);
    verdict = 'failed';
    await step(clock);
    assert.equal(clock.nextDelay, 200);
    poller.stop();
  });

  test('reset re-arms at the base interval; during a tick it keeps that tick from growing the interval', async () => {
    const clock = new ManualClock();
    let release: (() => void) | undefined;
    const tick = (): Promise<TickVerdict> => new Promise((resolve) => (release = () => resolve('unchanged')));
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, timers: clock });
    poller.start();
    await step(clock);
    release!();
    await settle();
    assert.equal(clock.nextDelay, 200);
    clock.advance(50);
    poller.reset();
    assert.deepEqual([clock.nextDelay, clock.pendingCount], [100, 1]);
    await step(clock);
    poller.reset(); // while the tick runs
    release!();
    await settle();
    assert.equal(clock.nextDelay, 100);
    poller.stop();
  });

  test('poke runs a tick now and resets; a poke during a tick runs one more right after it, never alongside', async () => {
    const clock = new ManualClock();
    let running = 0;
    let maxRunning = 0;
    const releases: (() => void)[] = [];
    const tick = (): Promise<TickVerdict> => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      return new Promise((resolve) =>
        releases.push(() => {
          running -= 1;
          resolve('unchanged');
        }),
      );
    };
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, timers: clock });
    poller.start();
    await step(clock);
    releases.shift()!();
    await settle();
    assert.equal(clock.nextDelay, 200);
    poller.poke();
    assert.equal(releases.length, 1, 'the poke ticked at once');
    assert.equal(clock.pendingCount, 0, 'and cancelled the wait');
    poller.poke();
    poller.poke();
    clock.advance(10_000);
    releases.shift()!();
    await settle();
    assert.equal(releases.length, 1, 'the pokes during the tick coalesce into one more tick');
    releases.shift()!();
    await settle();
    assert.equal(maxRunning, 1, 'ticks never overlap');
    assert.equal(clock.nextDelay, 200, 'after the pokes the backoff restarted from the base');
    poller.stop();
  });

  test('stop cancels the pending timer and ignores a tick in flight; settled resolves after it', async () => {
    const clock = new ManualClock();
    let release: (() => void) | undefined;
    const poller = new Poller({ tick: () => new Promise((resolve) => (release = () => resolve('changed'))), baseMs: 100, maxMs: 800, timers: clock });
    poller.start();
    poller.stop();
    assert.equal(clock.pendingCount, 0, 'stopped while waiting: no timer left');
    poller.start();
    await step(clock);
    poller.stop();
    let settled = false;
    void poller.settled.then(() => (settled = true));
    await settle();
    assert.equal(settled, false, 'the tick is still in flight');
    release!();
    await settle();
    assert.deepEqual([settled, clock.pendingCount, poller.isActive], [true, 0, false], 'its verdict armed nothing');
    poller.poke();
    assert.equal(clock.pendingCount, 0, 'a poke on a stopped poller does nothing');
  });

  test('a restart while a tick of the old run is in flight does not overlap it', async () => {
    const clock = new ManualClock();
    let running = 0;
    let maxRunning = 0;
    const releases: (() => void)[] = [];
    const tick = (): Promise<TickVerdict> => {
      maxRunning = Math.max(maxRunning, ++running);
      return new Promise((resolve) => releases.push(() => (running--, resolve('changed'))));
    };
    const poller = new Poller({ tick, baseMs: 100, maxMs: 800, timers: clock });
    poller.start({ tickNow: true });
    poller.stop();
    poller.start({ tickNow: true });
    assert.equal(releases.length, 1, 'the new run waits for the old tick');
    releases.shift()!();
    await settle();
    assert.equal(releases.length, 1, 'then ticks');
    releases.shift()!();
    await settle();
    assert.deepEqual([maxRunning, clock.pendingCount, clock.nextDelay], [1, 1, 100]);
    poller.stop();
    assert.equal(clock.pendingCount, 0);
  });

  test('rejects a non-positive base interval', () => {
    assert.throws(() => new Poller({ tick: async () => 'changed', baseMs: 0, maxMs: 10 }), RangeError);
  });
});
