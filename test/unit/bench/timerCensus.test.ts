/** bench/timerCensus.ts: our timers counted on a virtual clock, pending ones carried over, others left real. */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { TimerCensus, armedAt } from '../../../bench/timerCensus';
import { Poller } from '../../../extension/drivers/kit/poller';

let census: TimerCensus | undefined;
afterEach(() => census?.uninstall());

function idlePoller(): Poller {
  // The kit's poller on the system clock: its timers are armed from extension/ code, through kit/clock.ts.
  return new Poller({ tick: () => Promise.resolve('unchanged'), baseMs: 1_000, maxMs: 8_000 });
}

test('a backing-off poller fires on the virtual clock at 1, 3, 7, 15 s, then every 8 s; Date.now follows', async () => {
  census = new TimerCensus();
  census.install();
  const poller = idlePoller();
  census.useVirtualTime();
  const before = Date.now();
  poller.start();
  await census.advance(60_000, 1);
  poller.stop();
  // Ticks at 1, 3, 7, 15, 23, 31, 39, 47, 55 s.
  assert.equal(census.total, 9);
  assert.deepEqual(new Set([...census.fired.keys()].map((site) => site.split(' ← ')[0]!.replace(/:\d+$/, ''))), new Set(['extension/drivers/kit/poller.ts']));
  assert.ok(Date.now() - before >= 60_000, 'Date.now moved with the virtual clock');
  assert.deepEqual(census.pendingSites(), [], 'stop() cleared the pending timer through the wrapped clearTimeout');
});

test('a timer armed on the real clock before the switch moves over with the time it had left', async () => {
  census = new TimerCensus();
  census.install();
  const poller = idlePoller();
  poller.start(); // armed for 1 s of real time
  assert.equal(census.pendingSites().length, 1);
  census.useVirtualTime();
  await census.advance(1_500, 1);
  poller.stop();
  assert.equal(census.total, 1, 'fired once in virtual time, and not on the real clock');
});

test('timers armed outside extension/ stay real and are not counted; uninstall restores the globals', async () => {
  const original = globalThis.setTimeout;
  census = new TimerCensus();
  census.install();
  census.useVirtualTime();
  let fired = false;
  await new Promise<void>((done) =>
    setTimeout(() => {
      fired = true;
      done();
    }, 5),
  );
  assert.ok(fired, 'ran on the real clock although virtual time never moved');
  assert.equal(census.total, 0);
  census.uninstall();
  assert.equal(globalThis.setTimeout, original);
});

test('armedAt names the first frames of ours past the clock, or the clock alone, or elsewhere', () => {
  const root = `${process.cwd()}/extension`;
  const frame = (path: string, line: number): string => `    at fn (${root}/${path}:${line}:7)`;
  const stack = (...frames: string[]): string => ['Error', ...frames].join('\n');
  assert.equal(armedAt(stack(frame('drivers/kit/clock.ts', 24), frame('drivers/kit/poller.ts', 229), frame('drivers/hive/a.ts', 9), frame('drivers/hive/b.ts', 3))), 'extension/drivers/kit/poller.ts:229 ← extension/drivers/hive/a.ts:9');
  assert.equal(armedAt(stack(frame('drivers/kit/clock.ts', 24), '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)')), 'extension/drivers/kit/clock.ts:24');
  assert.equal(armedAt(stack('    at listOnTimeout (node:internal/timers:581:17)')), 'elsewhere');
});
