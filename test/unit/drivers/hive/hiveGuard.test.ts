import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { HiveClient } from '../../../../extension/drivers/hive/client';
import {
  HiveConnectionError,
  HiveForbiddenRequestError,
  HiveInvalidRequestError,
  HivePrivilegedError,
  HiveTimeoutError,
} from '../../../../extension/drivers/hive/hiveErrors';
import { HIVE_HARNESS_ONLY_CMDS } from '../../../../extension/drivers/hive/hiveRequestPolicy';
import type { OperatorHiveRequest } from '../../../../extension/drivers/hive/hiveRequestPolicy';
import { withHive } from './hiveKit';

const HARNESS_REQUESTS: Record<(typeof HIVE_HARNESS_ONLY_CMDS)[number], object> = {
  recv: { cmd: 'recv', wait_seconds: 0 },
  ack_turn: { cmd: 'ack_turn' },
  ack_until: { cmd: 'ack_until', up_to: 9999 },
  requeue_inflight: { cmd: 'requeue_inflight' },
  wake: { cmd: 'wake', from: 'operator', body: 'x' },
  graceful_stop_complete: { cmd: 'graceful_stop_complete' },
};

/** Every privileged operation the client exposes, as a thunk. */
function privilegedCalls(c: HiveClient): Record<string, () => Promise<unknown>> {
  return {
    kill: () => c.kill('otto'),
    start: () => c.start('otto'),
    restart: () => c.restart('otto'),
    update: () => c.update('otto'),
    get_logs: () => c.getLogs('otto', 5),
    list_schedules: () => c.listSchedules(),
    fire_schedule_now: () => c.fireScheduleNow(1),
    edit_schedule: () => c.editSchedule(1, { body: 'x' }),
    cancel_schedule: () => c.cancelSchedule(1),
    request_init_config: () => c.requestInitConfig('docs'),
    request_update_meta_inputs: () => c.requestUpdateMetaInputs(),
    request_schedule_prompt: () => c.requestSchedulePrompt({ body: 'x' }),
  };
}

describe('HiveClient guard: harness-only requests', () => {
  it('refuses recv/ack/requeue/wake/graceful_stop_complete before connecting, on every socket', () =>
    withHive(async ({ hive, manager, agent }) => {
      const missing = new HiveClient({ socketPath: path.join(os.tmpdir(), 'no-such-hive.sock'), role: 'unknown' });
      for (const client of [manager, agent('iris'), agent('iris', 'unknown'), missing]) {
        for (const [cmd, request] of Object.entries(HARNESS_REQUESTS)) {
          await assert.rejects(client.request(request as OperatorHiveRequest), (e: unknown) => e instanceof HiveForbiddenRequestError && e.cmd === cmd);
        }
      }
      for (const cmd of HIVE_HARNESS_ONLY_CMDS) {
        assert.equal(hive.totalCalls(cmd), 0, cmd);
      }
      assert.equal(hive.totalCalls('<invalid>'), 0);
    }));

  it('the type of request() excludes them too', () => {
    const client = new HiveClient({ socketPath: '/nonexistent', role: 'agent' });
    // @ts-expect-error recv is not an OperatorHiveRequest
    void client.request({ cmd: 'recv' }).catch(() => undefined);
    // @ts-expect-error ack_turn is not an OperatorHiveRequest
    void client.request({ cmd: 'ack_turn' }).catch(() => undefined);
  });

  it('a full operator session never consumes an inbox (fake recv/ack counters stay 0)', () =>
    withHive(async ({ hive, manager, agent }) => {
      const pendingBefore = hive.state.messages.filter((m) => m.state === 'pending').map((m) => m.id);
      for (const name of hive.state.agentNames()) {
        const c = agent(name);
        await c.status();
        await c.recent(20);
        await c.getLooseEnds();
        await c.countPendingReminders();
        await c.reminderRollup(0);
        await c.getAgentMeta();
        await c.operatorMsg(`hello ${name}`);
      }
      await agent('iris').listDescendants();
      await agent('iris').getHostJournal({ lines: 3 });
      await agent('iris').markTodoDone(102);
      await agent('iris').cancelLooseEnd('reminder', 202);
      await agent('iris').answer(12, 'main');
      await manager.getLooseEnds('*');
      await manager.listSchedules();
      await manager.fireScheduleNow(1);
      await manager.getLogs('iris', 5);
      await manager.restart('otto');
      await manager.requestInitConfig('docs');

      for (const cmd of HIVE_HARNESS_ONLY_CMDS) {
        assert.equal(hive.totalCalls(cmd), 0, `${cmd} was sent`);
      }
      const stillPending = hive.state.messages.filter((m) => m.state === 'pending').map((m) => m.id);
      assert.ok(pendingBefore.every((id) => stillPending.includes(id)), 'no pre-existing message was delivered');
      assert.ok(hive.state.messages.every((m) => !m.redelivered));
      assert.ok(hive.callCount('iris', 'status') >= 1, 'the counters do count');
    }));
});

describe('HiveClient guard: privileged requests', () => {
  it('are refused client-side on a socket known to be an agent’s (nothing sent)', () =>
    withHive(async ({ hive, agent }) => {
      const iris = agent('iris', 'agent');
      for (const [cmd, call] of Object.entries(privilegedCalls(iris))) {
        await assert.rejects(call(), (e: unknown) => e instanceof HivePrivilegedError && e.clientSide && e.cmd === cmd);
        assert.equal(hive.callCount('iris', cmd), 0, cmd);
      }
      assert.deepEqual(hive.calls('iris'), {});
    }));

  it('a daemon "privileged variant" err becomes a PrivilegedError when the role is unknown', () =>
    withHive(async ({ hive, agent }) => {
      const unknownRole = agent('iris', 'unknown');
      for (const [cmd, call] of Object.entries(privilegedCalls(unknownRole))) {
        await assert.rejects(
          call(),
          (e: unknown) => e instanceof HivePrivilegedError && !e.clientSide && (e.daemonMessage ?? '').startsWith('privileged variant') && e.cmd === cmd,
        );
        assert.equal(hive.callCount('iris', cmd), 1, cmd);
      }
      assert.equal(hive.state.principals.get('otto')?.running, false, 'nothing was executed');
    }));

  it('the manager socket accepts them', () =>
    withHive(async ({ manager }) => {
      for (const call of Object.values(privilegedCalls(manager))) {
        await call();
      }
    }));
});

describe('HiveClient: timeouts, transport failures, retries', () => {
  it('times out on a socket that never answers, with a clear message', () =>
    withHive(async ({ hive, agent }) => {
      hive.setMode('ruth', 'silent');
      const ruth = agent('ruth', 'agent', { timeoutMs: 300 });
      const started = Date.now();
      await assert.rejects(ruth.status(), (e: unknown) => {
        assert.ok(e instanceof HiveTimeoutError);
        assert.equal(e.message, `no response from ${hive.agentSocket('ruth')} within 0.3s`);
        assert.equal(e.outcomeUnknown, true);
        return true;
      });
      assert.ok(Date.now() - started < 2000);
      assert.equal(hive.callCount('ruth', 'status'), 1, 'timeouts are not retried');
    }));

  it('connect failures are typed and happen before anything is written', async () => {
    const client = new HiveClient({ socketPath: path.join(os.tmpdir(), `hv-missing-${process.pid}.sock`), role: 'agent', retryDelayMs: 1 });
    await assert.rejects(client.status(), (e: unknown) => e instanceof HiveConnectionError && !e.outcomeUnknown && e.errno === 'ENOENT');
  });

  it('idempotent reads are retried after a lost reply; sends never are', () =>
    withHive(async ({ hive, agent }) => {
      const ruth = agent('ruth');
      hive.dropNext('ruth');
      assert.equal(await ruth.status(), 1);
      assert.equal(hive.callCount('ruth', 'status'), 2);

      hive.dropNext('ruth');
      await assert.rejects(ruth.operatorMsg('once only'), (e: unknown) => e instanceof HiveConnectionError && e.outcomeUnknown);
      assert.equal(hive.callCount('ruth', 'operator_msg'), 1);
      // The reply was lost but the message landed: exactly why a blind retry would duplicate it.
      assert.equal(hive.inbox('ruth').filter((m) => m.body === 'once only').length, 1);

      hive.dropNext('ruth');
      await assert.rejects(ruth.markTodoDone(103), HiveConnectionError);
      assert.equal(hive.callCount('ruth', 'mark_todo_done'), 1);
    }));

  it('invalid requests are refused before sending', () =>
    withHive(async ({ hive, agent }) => {
      await assert.rejects(agent('iris').markTodoDone(1.5), HiveInvalidRequestError);
      await assert.rejects(agent('iris').recent(-1), HiveInvalidRequestError);
      await assert.rejects(agent('iris').getHostJournal({ lines: 500 }), HiveInvalidRequestError);
      assert.deepEqual(hive.calls('iris'), {});
    }));
});
