/**
 * The hyperhive driver against the in-process fake hive: agents as runs, inbox → message items (in order, once),
 * operator messages, loose-end panel actions, lenient shapes. Manager actions, the harness-verb guard, the polling
 * backoff (with stepped timers) and losing and finding the hive again are in hiveDriverPolling.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DriverError } from '../../../../extension/drivers/driver';
import { InboxTracker, inboxRowEvent } from '../../../../extension/drivers/hive/hiveMapping';
import { ACTION_CANCEL, ACTION_MARK_DONE, AGENT_PANEL, LOOSE_ENDS_PANEL, REMINDERS_PANEL } from '../../../../extension/drivers/hive/hivePanels';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { FakeHive } from '../../../fixtures/hive/hive';
import { CONNECTION, messages, withDriver } from './hiveDriverKit';

describe('hive driver: the tree', () => {
  it('lists the manager and every agent as runs with their states, revision and status', () =>
    withDriver(async ({ store }) => {
      const runs = [...store.state.runs.values()].filter((r) => r.connectionId === CONNECTION);
      assert.deepEqual(runs.map((r) => r.runId).sort(), ['iris', 'manager', 'otto', 'ruth']);
      const run = (name: string) => store.state.runs.get(runKeyOf(CONNECTION, name))!;
      assert.equal(run('manager').state, 'running');
      assert.equal(run('iris').state, 'running');
      assert.equal(run('ruth').state, 'running', 'running absent from agent_meta defaults to true');
      assert.equal(run('otto').state, 'stopped');
      assert.equal(run('iris').provider, 'hyperhive a1b2c3d');
      assert.match(run('iris').stateDetail ?? '', /^reviewing PR #12 \(since \d{4}-\d\d-\d\d \d\d:\d\d\)/);
      assert.match(run('iris').stateDetail ?? '', /2 unread/);
      assert.match(run('iris').stateDetail ?? '', /1 reminder pending/);
      assert.equal(run('iris').title, 'iris');
      // The tree lists runs newest first: the manager on top, then the agents alphabetically.
      const order = runs.sort((a, b) => b.createdAt - a.createdAt).map((r) => r.runId);
      assert.deepEqual(order, ['manager', 'iris', 'otto', 'ruth']);
      const connection = store.state.connections.get(CONNECTION)!;
      assert.deepEqual([...connection.capabilities].sort(), ['hive.manager', 'hive.operatorMessage']);
      assert.match(connection.serverDescription ?? '', /^hyperhive f00dfee · 3\/4 running · \d+ unread$/);
      const details = connection.details as { unread: Record<string, number>; pendingReminders: Record<string, number>; unreadTotal: number };
      assert.equal(details.unread['iris'], 2);
      assert.equal(details.pendingReminders['ruth'], 1);
      assert.equal(details.unreadTotal, Object.values(details.unread).reduce((a, b) => a + b, 0));
    }));

  it('a single agent socket: no manager capability, manager actions refused clearly', async () => {
    const hive = new FakeHive();
    await hive.start();
    try {
      await withDriver(
        async ({ store, driver }) => {
          assert.deepEqual([...store.state.runs.values()].map((r) => r.runId), ['ruth']);
          assert.deepEqual(store.state.connections.get(CONNECTION)!.capabilities, ['hive.operatorMessage']);
          await assert.rejects(driver.restartAgent('ruth'), (e: unknown) => e instanceof DriverError && /manager's socket/.test(e.message));
        },
        { socketPath: hive.agentSocket('ruth') },
      );
    } finally {
      await hive.stop();
    }
  });
});

describe('hive driver: the inbox', () => {
  it('shows the inbox oldest first, each message once across polls, and appends new ones', () =>
    withDriver(async ({ hive, driver, timers, items }) => {
      const first = messages(items('iris'));
      assert.deepEqual(first.map((m) => `${m.from}: ${m.body}`), [
        'ruth: can you review PR #12?',
        'operator: please prioritise the release',
        'ruth: ping',
        'reminder: check CI status',
      ]);
      assert.equal(first[2]!.inReplyTo, first[0]!.messageId, 'the reply keeps its thread link');
      assert.ok(first.every((m) => m.at && !Number.isNaN(Date.parse(m.at))));
      await driver.refresh();
      await timers.fire();
      assert.equal(messages(items('iris')).length, 4, 'no duplicates after a refresh and a poll');
      hive.inject('iris', 'ruth', 'one more thing');
      await timers.fire();
      const after = messages(items('iris'));
      assert.equal(after.length, 5);
      assert.equal(after[4]!.body, 'one more thing');
      await timers.fire();
      await driver.refresh();
      assert.equal(messages(items('iris')).length, 5);
    }));

  it('an operator message lands in the agent inbox and the transcript, unread for the agent', () =>
    withDriver(async ({ hive, driver, items, store }) => {
      await driver.sendMessage('ruth', 'please rotate the keys today');
      const row = hive.inbox('ruth').find((m) => m.body === 'please rotate the keys today');
      assert.equal(row?.from, 'operator');
      assert.equal(row?.state, 'pending', 'observing does not deliver it');
      const last = messages(items('ruth')).at(-1);
      assert.equal(last?.from, 'operator');
      assert.equal(last?.body, 'please rotate the keys today');
      assert.match(store.state.runs.get(runKeyOf(CONNECTION, 'ruth'))!.stateDetail ?? '', /2 unread/, 'the seeded message and this one');
    }));

  it('a lost reply is never resent: the driver checks the inbox and reports what it found', () =>
    withDriver(async ({ hive, driver, items }) => {
      hive.dropNext('ruth'); // executed, then the connection closes without a reply
      await driver.sendMessage('ruth', 'delivered without a reply');
      assert.equal(hive.inbox('ruth').filter((m) => m.body === 'delivered without a reply').length, 1);
      assert.equal(messages(items('ruth')).filter((m) => m.body === 'delivered without a reply').length, 1);
      hive.setMode('ruth', 'silent');
      await assert.rejects(driver.sendMessage('ruth', 'into the void'), (e: unknown) => e instanceof DriverError && /may or may not have been delivered/.test(e.message));
      hive.setMode('ruth', 'normal');
      assert.equal(hive.callCount('ruth', 'operator_msg'), 2, 'each message was sent once');
    }, {}, { requestTimeoutMs: 400 }));

  it('maps rows of unknown shape to raw items, once', () => {
    const tracker = new InboxTracker();
    const rows = [
      { ok: false as const, raw: { id: 9, weird: true }, error: 'x' },
      { ok: true as const, value: { id: 8, from: 'a', body: 'b' } },
      { ok: false as const, raw: ['not', 'an', 'object'], error: 'x' },
    ];
    const events = tracker.take(rows);
    assert.deepEqual(events.map((e) => e.kind), ['raw', 'message', 'raw']);
    assert.deepEqual(tracker.take(rows), []);
    assert.deepEqual(inboxRowEvent(rows[0]!), { kind: 'raw', label: 'Inbox row of an unknown shape', data: { id: 9, weird: true } });
  });
});

describe('hive driver: panels', () => {
  it('shows loose ends, reminders and the agent, unknown shapes raw', () =>
    withDriver(async ({ panel }) => {
      const loose = panel('iris', LOOSE_ENDS_PANEL);
      const ids = loose.entries.map((e) => e.id);
      for (const id of ['question:11', 'question:12', 'todo:101', 'todo:102', 'reminder:202', 'merge_window:901']) {
        assert.ok(ids.includes(id), `${id} in ${ids.join(',')}`);
      }
      const todo = loose.entries.find((e) => e.id === 'todo:101')!;
      assert.deepEqual(todo.actions.map((a) => a.id), [ACTION_MARK_DONE, ACTION_CANCEL]);
      assert.deepEqual(loose.entries.find((e) => e.id === 'question:11')!.actions.map((a) => a.id), [ACTION_CANCEL], 'iris asked it');
      assert.deepEqual(loose.entries.find((e) => e.id === 'question:12')!.actions, [], 'otto asked it: not iris to cancel');
      const unknownKind = loose.entries.find((e) => e.id === 'merge_window:901')!;
      assert.deepEqual(unknownKind.actions, []);
      assert.equal((unknownKind.raw as { note: string }).note, 'a loose-end kind this client does not know');
      const shapeless = loose.entries.find((e) => e.id.startsWith('raw:'));
      assert.deepEqual(shapeless?.raw, { mystery: 42, shape: ['?', { nested: true }] });
      const reminders = panel('iris', REMINDERS_PANEL);
      assert.equal(reminders.entries.find((e) => e.id === 'pending')?.label, '1 pending');
      assert.ok(reminders.entries.some((e) => e.id === 'stat:overdue'), 'unknown rollup counters are kept');
      const agent = panel('iris', AGENT_PANEL);
      assert.equal(agent.entries.find((e) => e.id === 'revision')?.label, 'hyperhive a1b2c3d');
      assert.equal(agent.entries.find((e) => e.id === 'swarm')?.label, 'swarm alpha');
      assert.equal(agent.entries.find((e) => e.id === 'matrix:0')?.label, '@iris:hive.lab');
      assert.equal(agent.entries.find((e) => e.id === 'matrix:1')?.raw, 'legacy-account-string');
      const approvals = panel('manager', LOOSE_ENDS_PANEL).entries.filter((e) => e.id.startsWith('approval:'));
      assert.equal(approvals.length, 1);
      assert.deepEqual(approvals[0]!.actions.map((a) => a.id), [ACTION_CANCEL]);
    }));

  it('Mark done and Cancel act on the agent socket and refresh the panel', () =>
    withDriver(async ({ hive, driver, panel }) => {
      await driver.panelAction('iris', LOOSE_ENDS_PANEL, 'todo:101', ACTION_MARK_DONE);
      assert.equal(hive.state.todos.some((t) => t.id === 101), false);
      assert.equal(panel('iris', LOOSE_ENDS_PANEL).entries.some((e) => e.id === 'todo:101'), false);
      await driver.panelAction('iris', LOOSE_ENDS_PANEL, 'question:11', ACTION_CANCEL);
      assert.equal(hive.state.questions.some((q) => q.id === 11), false);
      await driver.panelAction('iris', LOOSE_ENDS_PANEL, 'reminder:202', ACTION_CANCEL);
      assert.equal(hive.state.reminders.some((r) => r.id === 202), false);
      assert.equal(panel('iris', REMINDERS_PANEL).entries.find((e) => e.id === 'pending')?.label, '0 pending');
      assert.equal(hive.callCount('iris', 'mark_todo_done'), 1);
      assert.equal(hive.callCount('iris', 'cancel_loose_end'), 2);
      await assert.rejects(driver.panelAction('iris', LOOSE_ENDS_PANEL, 'question:12', ACTION_CANCEL), DriverError);
      await assert.rejects(driver.panelAction('iris', LOOSE_ENDS_PANEL, 'todo:101', ACTION_MARK_DONE), DriverError, 'gone now');
      assert.equal(hive.callCount('iris', 'cancel_loose_end'), 2, 'refused actions never reach the daemon');
      await driver.panelAction('manager', LOOSE_ENDS_PANEL, 'approval:41', ACTION_CANCEL);
      assert.equal(hive.state.approvals.length, 0);
    }));
});
