/** The kit's pending-request table: each waiter leaves exactly once — by answer, reject, timeout or close. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';
import { PendingRequests } from '../../../../extension/drivers/kit/pendingRequests';

interface TestWaiter {
  readonly type: string;
  readonly rejected: Error[];
  reject(error: Error): void;
}

function waiter(type = 't'): TestWaiter {
  const rejected: Error[] = [];
  return { type, rejected, reject: (error) => rejected.push(error) };
}

describe('PendingRequests', () => {
  test('take removes the waiter and cancels its timeout; a second take finds nothing', () => {
    const clock = new ManualClock();
    const table = new PendingRequests<number, TestWaiter>(clock);
    const w = waiter();
    const timedOut: number[] = [];
    table.add(1, w, 100, (_w, id) => timedOut.push(id));
    assert.equal(table.size, 1);
    assert.ok(table.has(1));
    assert.equal(table.get(1), w);
    assert.equal(table.take(1), w);
    assert.equal(table.take(1), undefined);
    assert.equal(clock.pendingCount, 0, 'the timer is cleared');
    clock.advance(1000);
    assert.deepEqual(timedOut, []);
    assert.equal(table.size, 0);
  });

  test('a timeout removes the waiter before onTimeout runs, and a late answer finds nothing', () => {
    const clock = new ManualClock();
    const table = new PendingRequests<string, TestWaiter>(clock);
    const w = waiter();
    let sizeInCallback = -1;
    table.add('a', w, 50, (timed, id) => {
      sizeInCallback = table.size;
      timed.reject(new Error(`timeout ${id}`));
    });
    clock.advance(49);
    assert.equal(w.rejected.length, 0);
    clock.advance(1);
    assert.equal(sizeInCallback, 0);
    assert.deepEqual(w.rejected.map((e) => e.message), ['timeout a']);
    assert.equal(table.take('a'), undefined);
  });

  test('a timeout of 0 or less never fires', () => {
    const clock = new ManualClock();
    const table = new PendingRequests<number, TestWaiter>(clock);
    table.add(1, waiter(), 0, () => assert.fail('no timeout'));
    table.add(2, waiter(), -5, () => assert.fail('no timeout'));
    assert.equal(clock.pendingCount, 0);
    clock.advance(1e9);
    assert.equal(table.size, 2);
  });

  test('a second waiter under a waiting id is a caller bug and throws', () => {
    const table = new PendingRequests<number, TestWaiter>(new ManualClock());
    table.add(1, waiter(), 0, () => undefined);
    assert.throws(() => table.add(1, waiter(), 0, () => undefined), /already waiting/);
  });

  test('reject settles one waiter with an error or an error built from it', () => {
    const clock = new ManualClock();
    const table = new PendingRequests<number, TestWaiter>(clock);
    const a = waiter('a');
    const b = waiter('b');
    table.add(1, a, 10, () => assert.fail('rejected before the timeout'));
    table.add(2, b, 10, () => assert.fail('rejected before the timeout'));
    assert.equal(table.reject(1, new Error('refused')), true);
    assert.equal(table.reject(2, (w, id) => new Error(`${w.type}#${id}`)), true);
    assert.equal(table.reject(3, new Error('none')), false);
    clock.advance(100);
    assert.deepEqual(a.rejected.map((e) => e.message), ['refused']);
    assert.deepEqual(b.rejected.map((e) => e.message), ['b#2']);
  });

  test('takeFirst offers an answer in insertion order and removes only the first match', () => {
    const table = new PendingRequests<string, TestWaiter>(new ManualClock());
    table.add('x', waiter('x'), 0, () => undefined);
    table.add('y', waiter('y'), 0, () => undefined);
    table.add('z', waiter('y'), 0, () => undefined);
    const offered: string[] = [];
    const hit = table.takeFirst((w, id) => {
      offered.push(id);
      return w.type === 'y' ? { value: id } : undefined;
    });
    assert.deepEqual(offered, ['x', 'y']);
    assert.equal(hit?.id, 'y');
    assert.deepEqual(hit?.result, { value: 'y' });
    assert.deepEqual([table.has('x'), table.has('y'), table.has('z')], [true, false, true]);
    assert.equal(table.takeFirst(() => undefined), undefined);
  });

  test('rejectAll empties the table first, clears every timer, and rejects in insertion order', () => {
    const clock = new ManualClock();
    const table = new PendingRequests<number, TestWaiter>(clock);
    const order: number[] = [];
    const sizes: number[] = [];
    for (const id of [3, 1, 2]) {
      table.add(id, { type: 't', rejected: [], reject: () => (order.push(id), sizes.push(table.size)) }, 100, () => assert.fail('closed first'));
    }
    assert.equal(table.rejectAll((w, id) => new Error(`${w.type}${id} closed`)), 3);
    assert.deepEqual(order, [3, 1, 2]);
    assert.deepEqual(sizes, [0, 0, 0], 'no waiter is visible while the others are rejected');
    assert.equal(clock.pendingCount, 0);
    clock.advance(1000);
    assert.equal(table.rejectAll(() => new Error('again')), 0);
  });

  test('defaults to the system clock', async () => {
    const table = new PendingRequests<number, TestWaiter>();
    const timedOut = await new Promise<number>((resolve) => table.add(7, waiter(), 5, (_w, id) => resolve(id)));
    assert.equal(timedOut, 7);
    assert.equal(table.size, 0);
  });
});
