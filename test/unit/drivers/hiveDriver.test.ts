/**
 * The hyperhive driver against the in-process fake hive: agents as runs, inbox → message items (in order, once),
 * operator messages, loose-end panel actions, manager actions, lenient shapes, the harness-verb guard, the polling
 * backoff (with stepped timers), losing and finding the hive again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DriverError } from '../../../extension/drivers/driver';
import { FATAL, layoutFailure } from '../../../extension/drivers/hive/hiveConnectFailure';
import { HiveDriver } from '../../../extension/drivers/hive/hiveDriver';
import type { HiveDriverOptions } from '../../../extension/drivers/hive/hiveDriver';
import { InboxTracker, inboxRowEvent } from '../../../extension/drivers/hive/hiveMapping';
import { ACTION_CANCEL, ACTION_MARK_DONE, AGENT_PANEL, LOOSE_ENDS_PANEL, REMINDERS_PANEL } from '../../../extension/drivers/hive/hivePanels';
import type { Timeouts } from '../../../extension/drivers/kit/clock';
import { HIVE_HARNESS_ONLY_CMDS } from '../../../extension/drivers/hive/hiveRequestPolicy';
import type { ConnectionProfile } from '../../../extension/drivers/driver';
import type { Panel } from '../../../extension/model/modelTypes';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';
import { FakeHive } from '../../fixtures/hive/hive';
import { driverSetup, until } from './driverTestKit';

const CONNECTION = 'hive:test';
const base = mkdtempSync(join(tmpdir(), 'hvdrv-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));


/** Timers the test steps by hand: `fire()` runs the armed poll and waits until the next one is armed. */
class SteppedTimers implements Timeouts {
  readonly delays: number[] = [];
  private armed: { fn: () => void; ms: number; id: number } | undefined;
  private nextId = 1;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.armed = { fn, ms, id };
    this.delays.push(ms);
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (this.armed?.id === handle) {
      this.armed = undefined;
    }
  }

  get pendingDelay(): number | undefined {
    return this.armed?.ms;
  }

  /** Runs the armed poll without waiting for a next one (a poll that gives the connection up arms none). */
  fireOnce(): void {
    const armed = this.armed;
    assert.ok(armed, 'a poll is armed');
    this.armed = undefined;
    armed.fn();
  }

  async fire(): Promise<void> {
    const armed = this.armed;
    assert.ok(armed, 'a poll is armed');
    this.armed = undefined;
    armed.fn();
    await until('the next poll to be armed', () => this.armed !== undefined && this.armed.id !== armed.id);
  }
}

interface Session {
  readonly hive: FakeHive;
  readonly store: RunStore;
  readonly driver: HiveDriver;
  readonly timers: SteppedTimers;
  readonly warnings: string[];
  items(agent: string): TranscriptItem[];
  panel(agent: string, id: string): Panel;
}

async function withDriver(fn: (s: Session) => Promise<void>, profile: Partial<ConnectionProfile> = {}, options: HiveDriverOptions = {}): Promise<void> {
  const hive = new FakeHive({ recvMaxWaitSeconds: 1 });
  await hive.start();
  const warnings: string[] = [];
  const { store, ctx } = driverSetup({ name: 'test', protocol: 'hive', hiveDir: hive.dir, ...profile }, base, {
    log: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
  });
  const timers = new SteppedTimers();
  const driver = new HiveDriver(ctx, { timers, requestTimeoutMs: 3000, reconnectBaseMs: 20, ...options });
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(CONNECTION)?.state.kind === 'connected');
    await fn({
      hive,
      store,
      driver,
      timers,
      warnings,
      items: (agent) => store.transcript(runKeyOf(CONNECTION, agent))?.snapshot() ?? [],
      panel: (agent, id) => {
        const panel = store.state.runs.get(runKeyOf(CONNECTION, agent))?.panels?.find((p) => p.id === id);
        assert.ok(panel, `${agent} has panel ${id}`);
        return panel;
      },
    });
  } finally {
    await driver.disconnect();
    await driver.dispose();
    await hive.stop();
  }
}

const messages = (items: readonly TranscriptItem[]) => items.filter((i): i is Extract<TranscriptItem, { kind: 'message' }> => i.kind === 'message');

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
