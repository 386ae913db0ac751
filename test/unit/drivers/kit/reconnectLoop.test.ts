import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectionState } from '../../../../extension/model/modelTypes';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';
import { ReconnectLoop } from '../../../../extension/drivers/kit/reconnectLoop';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('retries with backoff until connected, then reconnects after a drop', async () => {
  const states: ConnectionState[] = [];
  let attempts = 0;
  let lose: ((reason: string) => void) | undefined;
  const loop = new ReconnectLoop({
    connectOnce: async (onLost) => {
      attempts++;
      if (attempts < 3) {
        throw new Error(`refused ${attempts}`);
      }
      lose = onLost;
    },
    setState: (s) => states.push(s),
    describeError: (e) => ({ message: (e as Error).message }),
    baseMs: 5,
    capMs: 20,
    random: () => 0.5,
  });
  await loop.start();
  for (let i = 0; i < 50 && states.at(-1)?.kind !== 'connected'; i++) {
    await tick(10);
  }
  assert.equal(states.at(-1)?.kind, 'connected');
  assert.deepEqual(states.filter((s) => s.kind === 'reconnecting').map((s) => (s as { reason: string }).reason), ['refused 1', 'refused 2']);
  lose!('socket closed');
  assert.equal(states.at(-1)?.kind, 'reconnecting');
  for (let i = 0; i < 50 && states.at(-1)?.kind !== 'connected'; i++) {
    await tick(10);
  }
  assert.equal(states.at(-1)?.kind, 'connected');
  assert.equal(attempts, 4);
  loop.stop();
  assert.equal(states.at(-1)?.kind, 'disconnected');
});

test('a fatal error stops retrying and says why', async () => {
  const states: ConnectionState[] = [];
  let attempts = 0;
  const loop = new ReconnectLoop({
    connectOnce: async () => {
      attempts++;
      throw new Error('daemon speaks 1.x; Agent Switchboard supports 0.x');
    },
    setState: (s) => states.push(s),
    describeError: (e) => ({ message: (e as Error).message, fatal: true }),
    baseMs: 5,
    capMs: 10,
  });
  await loop.start();
  await tick(50);
  assert.equal(attempts, 1);
  assert.deepEqual(states.at(-1), { kind: 'failed', reason: 'daemon speaks 1.x; Agent Switchboard supports 0.x' });
});

test('stop cancels a scheduled retry', async () => {
  let attempts = 0;
  const loop = new ReconnectLoop({
    connectOnce: async () => {
      attempts++;
      throw new Error('nope');
    },
    setState: () => undefined,
    describeError: (e) => ({ message: (e as Error).message }),
    baseMs: 20,
    capMs: 20,
    random: () => 0.99,
  });
  await loop.start();
  loop.stop();
  await tick(80);
  assert.equal(attempts, 1);
});

test('retries are scheduled on the injected kit clock: no retry until the test moves time', async () => {
  const clock = new ManualClock(1_000);
  const states: ConnectionState[] = [];
  let attempts = 0;
  const loop = new ReconnectLoop({
    connectOnce: async () => {
      attempts++;
      if (attempts < 2) {
        throw new Error('refused');
      }
    },
    setState: (s) => states.push(s),
    describeError: (e) => ({ message: (e as Error).message }),
    baseMs: 100,
    capMs: 1_000,
    random: () => 0.5,
    clock: () => clock.now(),
    timers: clock,
  });
  await loop.start();
  assert.deepEqual(states.at(-1), { kind: 'reconnecting', attempt: 1, retryAt: 1_050, reason: 'refused' });
  assert.equal(clock.nextDelay, 50);
  clock.advance(49);
  assert.equal(attempts, 1, 'nothing before the backoff delay');
  clock.advance(1);
  await tick(0);
  assert.equal(attempts, 2);
  assert.deepEqual(states.at(-1), { kind: 'connected', since: 1_050 });
  loop.stop();
  assert.equal(clock.pendingCount, 0);
});
