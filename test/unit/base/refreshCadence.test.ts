/** The run-list refresh policy: on becoming watched, every interval while watched, never while hidden or unfocused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CadenceTimers } from '../../../extension/base/refreshCadence';
import { RefreshCadence } from '../../../extension/base/refreshCadence';

/** A manual clock: `advance` fires due timers in order, letting promise callbacks settle between them. */
class FakeTimers implements CadenceTimers {
  private time = 0;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { at: this.time + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  get scheduled(): number {
    return this.pending.size;
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) {
        break;
      }
      this.pending.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
  }
}

function setup(refresh?: () => Promise<void>) {
  const timers = new FakeTimers();
  const calls: number[] = [];
  const cadence = new RefreshCadence({
    intervalMs: 15_000,
    minGapMs: 2_000,
    timers,
    refresh: refresh ?? (async () => void calls.push(timers.now())),
  });
  return { timers, calls, cadence };
}

describe('refresh cadence', () => {
  it('refreshes when the view becomes visible in a focused window, then every 15 s', async () => {
    const { timers, calls, cadence } = setup();
    cadence.setFocused(true);
    assert.deepEqual(calls, [], 'focus alone (view hidden) does nothing');
    cadence.setVisible(true);
    await timers.advance(0);
    assert.deepEqual(calls, [0]);
    await timers.advance(45_000);
    assert.deepEqual(calls, [0, 15_000, 30_000, 45_000]);
  });

  it('does nothing while the view is hidden or the window unfocused, and no timer is left running', async () => {
    const { timers, calls, cadence } = setup();
    cadence.setVisible(true);
    await timers.advance(60_000);
    assert.deepEqual(calls, [], 'visible but unfocused');
    cadence.setFocused(true);
    await timers.advance(1_000);
    assert.deepEqual(calls, [0 + 60_000]);
    cadence.setVisible(false);
    assert.equal(timers.scheduled, 0);
    await timers.advance(120_000);
    assert.deepEqual(calls, [60_000], 'hidden: nothing');
    cadence.setVisible(true);
    cadence.setFocused(false);
    await timers.advance(120_000);
    assert.equal(calls.length, 2, 'one refresh when shown, none while unfocused');
    assert.equal(timers.scheduled, 0);
  });

  it('refreshes when the window regains focus with the view visible', async () => {
    const { timers, calls, cadence } = setup();
    cadence.setVisible(true);
    cadence.setFocused(true);
    await timers.advance(5_000);
    cadence.setFocused(false);
    await timers.advance(30_000);
    cadence.setFocused(true);
    await timers.advance(0);
    assert.deepEqual(calls, [0, 35_000]);
  });

  it('a trigger right after a refresh waits for the cadence instead of refreshing twice', async () => {
    const { timers, calls, cadence } = setup();
    cadence.setVisible(true);
    cadence.setFocused(true);
    await timers.advance(500);
    cadence.setFocused(false);
    cadence.setFocused(true);
    await timers.advance(14_000);
    assert.deepEqual(calls, [0]);
    await timers.advance(1_000);
    assert.deepEqual(calls, [0, 15_000]);
  });

  it('never overlaps refreshes: the next interval counts from the end of a slow one', async () => {
    const timers = new FakeTimers();
    const starts: number[] = [];
    let release: (() => void) | undefined;
    const cadence = new RefreshCadence({
      intervalMs: 15_000,
      minGapMs: 2_000,
      timers,
      refresh: () => {
        starts.push(timers.now());
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    cadence.setVisible(true);
    cadence.setFocused(true);
    await timers.advance(40_000);
    assert.deepEqual(starts, [0], 'still in flight');
    cadence.setFocused(false);
    cadence.setFocused(true);
    assert.deepEqual(starts, [0], 'a trigger during a refresh does not start another');
    release!();
    await timers.advance(15_000);
    assert.deepEqual(starts, [0, 55_000]);
  });

  it('keeps its cadence after a failing refresh, and stops for good on dispose', async () => {
    let n = 0;
    const { timers, cadence } = setup(async () => {
      n++;
      if (n === 1) {
        throw new Error('socket closed');
      }
    });
    cadence.setVisible(true);
    cadence.setFocused(true);
    await timers.advance(15_000);
    assert.equal(n, 2, 'the failure did not stop the cadence');
    cadence.dispose();
    assert.equal(timers.scheduled, 0);
    assert.equal(cadence.watched, false);
    cadence.setVisible(true);
    await timers.advance(60_000);
    assert.equal(n, 2, 'nothing after dispose');
  });
});
