/** The hyperhive driver: manager actions, the request guard, and polling (backoff, visibility, reconnects). */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DriverError } from '../../../../extension/drivers/driver';
import { FATAL, layoutFailure } from '../../../../extension/drivers/hive/hiveConnectFailure';
import { HiveDriver } from '../../../../extension/drivers/hive/hiveDriver';
import { ACTION_MARK_DONE, LOOSE_ENDS_PANEL } from '../../../../extension/drivers/hive/hivePanels';
import { HIVE_HARNESS_ONLY_CMDS } from '../../../../extension/drivers/hive/hiveRequestPolicy';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { RunStore } from '../../../../extension/model/runStore';
import { FakeHive } from '../../../fixtures/hive/hive';
import { until } from '../driverKit';
import { base, CONNECTION, messages, SteppedTimers, withDriver } from './hiveDriverKit';

describe('hive driver: manager actions', () => {
  it('stop, start, restart and update change the agent run; logs, schedules and requests work', () =>
    withDriver(async ({ hive, driver, store, items }) => {
      const run = (name: string) => store.state.runs.get(runKeyOf(CONNECTION, name))!;
      await driver.stopAgent('iris');
      assert.equal(run('iris').state, 'stopped');
      await driver.startAgent('iris');
      assert.equal(run('iris').state, 'running');
      await driver.restartAgent('otto');
      assert.equal(run('otto').state, 'running');
      assert.equal(hive.state.principals.get('otto')!.restarts, 1);
      await driver.updateAgent('iris');
      assert.equal(run('iris').provider, 'hyperhive f00dfee');
      assert.equal(hive.callCount('manager', 'update'), 1);
      await assert.rejects(driver.restartAgent('manager'), DriverError);
      await assert.rejects(driver.startAgent('nobody'), (e: unknown) => e instanceof DriverError && /unknown agent/.test(e.message));
      assert.match(await driver.agentLogs('iris', 5), /h-iris hive-c0re: rebuilt at f00dfee/);
      assert.match(await driver.hostJournal({ lines: 5 }), /event/);
      const schedules = await driver.listSchedules();
      assert.deepEqual(schedules.map((s) => s.ok && s.value.id), [1, 2]);
      await driver.fireScheduleNow(1);
      await driver.refresh();
      assert.equal(messages(items('ruth')).at(-1)?.body, 'daily standup summary');
      await driver.editSchedule(1, { body: 'new body', intervalSeconds: 3600 });
      assert.equal(hive.state.schedules[0]!.body, 'new body');
      assert.equal(hive.state.schedules[0]!.description, 'every morning', 'fields not sent stay');
      await driver.cancelSchedule(2);
      assert.equal(hive.state.schedules.length, 1);
      await driver.requestInitConfig('docs', 'a docs writer');
      await driver.requestUpdateMetaInputs(['nixpkgs']);
      await driver.requestSchedulePrompt({ body: 'hourly ping', interval_seconds: 3600, targets: ['ruth'] });
      assert.deepEqual(hive.state.approvals.map((a) => a.approvalKind), ['merge_config_pr', 'init_config', 'update_meta_inputs', 'schedule_prompt']);
      await driver.refresh();
      const pending = store.state.runs.get(runKeyOf(CONNECTION, 'manager'))!.panels!.find((p) => p.id === LOOSE_ENDS_PANEL)!;
      assert.equal(pending.entries.filter((e) => e.id.startsWith('approval:')).length, 4, 'queued requests show as approvals');
    }));
});

describe('hive driver: the guard', () => {
  it('a whole operator session never sends recv, ack, requeue, wake or graceful_stop_complete', () =>
    withDriver(async ({ hive, driver, timers }) => {
      await driver.sendMessage('iris', 'hello');
      await driver.panelAction('iris', LOOSE_ENDS_PANEL, 'todo:102', ACTION_MARK_DONE);
      await driver.restartAgent('ruth');
      await driver.agentLogs('ruth');
      await driver.fireScheduleNow(1);
      await timers.fire();
      await timers.fire();
      await driver.refresh();
      for (const cmd of HIVE_HARNESS_ONLY_CMDS) {
        assert.equal(hive.totalCalls(cmd), 0, cmd);
      }
      assert.ok(hive.totalCalls('status') > 0 && hive.totalCalls('recent') > 0, 'the session did read');
      assert.ok(hive.inbox('iris').filter((m) => m.state === 'pending').length >= 3, 'nothing was consumed');
    }));
});

describe('hive driver: polling', () => {
  it('backs off while idle (2 s → 30 s) and resets on a change or a user action', () =>
    withDriver(async ({ hive, driver, timers }) => {
      assert.equal(timers.pendingDelay, 2000);
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        await timers.fire();
        seen.push(timers.pendingDelay!);
      }
      assert.deepEqual(seen, [4000, 8000, 16000, 30000, 30000, 30000]);
      const recentBefore = hive.totalCalls('recent');
      await timers.fire();
      assert.equal(hive.totalCalls('recent'), recentBefore, 'an idle poll reads only status');
      hive.inject('otto', 'iris', 'are you there?');
      await timers.fire();
      assert.equal(timers.pendingDelay, 2000, 'a new message resets the interval');
      assert.ok(hive.totalCalls('recent') > recentBefore, 'and is read');
      await timers.fire();
      assert.equal(timers.pendingDelay, 4000);
      await driver.sendMessage('otto', 'ping');
      assert.equal(timers.pendingDelay, 2000, 'a user action resets the interval');
    }));

  it('polls only while someone sees it: hidden, no poll is armed and messages still go out; shown, it reads at once', () =>
    withDriver(async ({ hive, driver, timers, items }) => {
      assert.equal(timers.pendingDelay, 2000);
      driver.setWatched(false);
      assert.equal(timers.pendingDelay, undefined, 'no poll armed while every view is hidden');
      await driver.sendMessage('ruth', 'sent while hidden');
      assert.equal(messages(items('ruth')).at(-1)?.body, 'sent while hidden', 'the hive is still connected');
      assert.equal(timers.pendingDelay, undefined, 'a user action while hidden arms no poll');
      hive.inject('iris', 'ruth', 'arrived while hidden');
      const statusCalls = hive.totalCalls('status');
      driver.setWatched(true);
      await until('the message read as soon as a view shows the hive', () => messages(items('iris')).some((m) => m.body === 'arrived while hidden'));
      assert.ok(hive.totalCalls('status') > statusCalls, 'read by a poll, at once');
      await until('the next poll armed at the base interval', () => timers.pendingDelay === 2000);
    }));

  it('loses the hive when its sockets go away, reconnects with backoff when they are back', async () => {
    const dir = mkdtempSync(join(base, 'd'));
    const hive = new FakeHive({ dir });
    await hive.start();
    const store = new RunStore();
    store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'test', protocol: 'hive' } });
    const timers = new SteppedTimers();
    const driver = new HiveDriver(
      { store, connectionId: CONNECTION, profile: { name: 'test', protocol: 'hive', hiveDir: dir }, tap: () => undefined, storageDir: base, log: { info: () => undefined, warn: () => undefined, error: () => undefined } },
      { timers, reconnectBaseMs: 20, requestTimeoutMs: 2000 },
    );
    let second: FakeHive | undefined;
    try {
      await driver.connect();
      await until('connected', () => store.state.connections.get(CONNECTION)?.state.kind === 'connected');
      const before = messages(store.transcript(runKeyOf(CONNECTION, 'iris'))!.snapshot()).length;
      await hive.stop();
      timers.fireOnce(); // the poll finds nothing and gives the connection up
      const state = await until('reconnecting', () => {
        const s = store.state.connections.get(CONNECTION)?.state;
        return s?.kind === 'reconnecting' && s;
      });
      assert.match(state.reason, /no mcp\.sock found|does not exist/);
      second = new FakeHive({ dir });
      await second.start();
      await until('connected again', () => store.state.connections.get(CONNECTION)?.state.kind === 'connected', 8000);
      assert.equal(messages(store.transcript(runKeyOf(CONNECTION, 'iris'))!.snapshot()).length, before, 'the inbox is not doubled');
    } finally {
      await driver.disconnect();
      await second?.stop();
    }
  });

  it('a permission problem is fatal; a missing hive is retried', () => {
    const denied = layoutFailure({ root: '/run/hyperhive', sockets: [], problems: ['/run/hyperhive/manager/mcp.sock: permission denied'] });
    assert.ok(denied instanceof DriverError && denied.code === FATAL);
    assert.match(denied.message, /permission denied/);
    const missing = layoutFailure({ root: '/run/hyperhive', sockets: [], problems: ['/run/hyperhive does not exist'] });
    assert.ok(!(missing instanceof DriverError));
  });

  it('a hive directory that does not exist: reconnecting, not failed', async () => {
    const store = new RunStore();
    store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'test', protocol: 'hive' } });
    const driver = new HiveDriver(
      { store, connectionId: CONNECTION, profile: { name: 'test', protocol: 'hive', hiveDir: join(base, 'nope') }, tap: () => undefined, storageDir: base, log: { info: () => undefined, warn: () => undefined, error: () => undefined } },
      { timers: new SteppedTimers() },
    );
    try {
      await driver.connect();
      const state = store.state.connections.get(CONNECTION)!.state;
      assert.equal(state.kind, 'reconnecting');
      assert.match(state.kind === 'reconnecting' ? state.reason : '', /does not exist/);
    } finally {
      await driver.disconnect();
    }
  });
});
