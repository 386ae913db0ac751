/**
 * When a crash is restarted by itself: only after the agent had connected, once per window (RESTART_WINDOW_MS, on a
 * manual clock); a second crash within the window fails the connection, one after it is restarted again. The
 * driver-level behaviour (sessions resumed, transcript intact) is acpRecovery.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcpConnection } from '../../../../extension/drivers/acp/acpConnection';
import { AcpRecovery, RESTART_WINDOW_MS } from '../../../../extension/drivers/acp/acpRecovery';
import type { AcpSessionStore } from '../../../../extension/drivers/acp/acpSessionStore';
import { AcpSessions } from '../../../../extension/drivers/acp/acpSessions';
import { ManualClock } from '../../../../extension/drivers/kit/manualClock';
import type { DriverRuns } from '../../../../extension/drivers/kit/driverRuns';
import { quietLog } from '../driverKit';

function harness(): { recovery: AcpRecovery; clock: ManualClock; calls: string[] } {
  const clock = new ManualClock();
  const calls: string[] = [];
  let running = false;
  const recovery = new AcpRecovery({
    clock,
    log: quietLog,
    sessions: new AcpSessions(),
    runs: { event: () => Promise.resolve() } as unknown as DriverRuns,
    storage: {} as AcpSessionStore,
    agentGone: (reason) => Promise.resolve(void calls.push(`gone: ${reason}`)),
    disconnect: () => Promise.resolve(void (running = false)),
    reconnect: () => {
      calls.push('reconnect');
      running = true;
      return Promise.resolve();
    },
    fail: (reason) => void calls.push(`fail: ${reason}`),
    agent: () => (running ? ({} as AcpConnection) : undefined),
    abilities: () => ({ load: true, resume: true, list: false, close: false, fork: false }),
    requireAgent: () => ({}) as AcpConnection,
    mcpServers: () => [],
    reapply: () => Promise.resolve(),
  });
  return { recovery, clock, calls };
}

test('restarted once per window; a crash at start is never restarted', async () => {
  const { recovery, clock, calls } = harness();
  await recovery.crashed('boom', false);
  assert.deepEqual(calls.splice(0), ['gone: The agent stopped.', 'fail: boom'], 'not connected yet: it would crash again');

  await recovery.crashed('one', true);
  assert.deepEqual(calls.splice(0), ['gone: The agent stopped; it is restarted.', 'reconnect']);
  clock.advance(RESTART_WINDOW_MS - 1);
  await recovery.crashed('two', true);
  assert.deepEqual(calls.splice(0), ['gone: The agent stopped.', 'fail: two'], 'within the window: failed, the person restarts it');
  clock.advance(RESTART_WINDOW_MS);
  await recovery.crashed('three', true);
  assert.deepEqual(calls.splice(0), ['gone: The agent stopped; it is restarted.', 'reconnect'], 'after the window: restarted again');
});
