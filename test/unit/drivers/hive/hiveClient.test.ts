import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  HiveDaemonError,
  HiveProtocolError,
  HiveUnexpectedResponseError,
} from '../../../../extension/drivers/hive/hiveErrors';
import { pickTime } from '../../../../extension/protocol/hive';
import type { Lenient, LooseEnd } from '../../../../extension/protocol/hive';
import { FAKE_HIVE_CURRENT_REV } from '../../../fixtures/hive/fakeHiveState';
import { values, withHive } from './hiveKit';

function looseEndIds(items: readonly Lenient<LooseEnd>[], kind: LooseEnd['kind']): number[] {
  return items.flatMap((item) => (item.ok && item.value.kind === kind && item.value.id !== undefined ? [item.value.id] : []));
}

describe('HiveClient: observer reads on an agent socket', () => {
  it('status, recent, agent meta, descendants, host journal', () =>
    withHive(async ({ agent }) => {
      const iris = agent('iris');
      assert.equal(await iris.status(), 2);

      const rows = values(await iris.recent(3));
      assert.deepEqual(rows.map((r) => r.id), [404, 403, 402]);
      assert.equal(rows[1]?.in_reply_to, 401);
      assert.equal(rows[0]?.['delivered'], false, 'unknown fields are kept');
      assert.equal(typeof pickTime(rows[0]!), 'number');

      const meta = await iris.getAgentMeta();
      assert.equal(meta.name, 'iris');
      assert.equal(meta.running, true);
      assert.equal(meta.status_text, 'reviewing PR #12');
      assert.equal(meta.hyperhive_rev, 'a1b2c3d');
      assert.equal(meta.matrix_accounts[0]?.ok && meta.matrix_accounts[0].value.user_id, '@iris:hive.lab');
      assert.equal(meta.matrix_accounts[0]?.ok && meta.matrix_accounts[0].value['presence'], 'online');
      assert.deepEqual(meta.matrix_accounts[1], { ok: false, raw: 'legacy-account-string', error: meta.matrix_accounts[1]?.ok === false ? meta.matrix_accounts[1].error : '' });
      const ruth = await iris.getAgentMeta('ruth');
      assert.equal(ruth.running, true, 'absent running defaults to true');
      assert.deepEqual(ruth.matrix_accounts, []);
      assert.equal((await iris.getAgentMeta('otto')).running, false);

      const descendants = values(await iris.listDescendants());
      assert.deepEqual(descendants.map((c) => [c.name, c.running, c.depth]), [['otto', false, 1]]);
      assert.equal(descendants[0]?.['machine'], 'h-otto');

      const journal = await iris.getHostJournal({ unit: 'hive-c0re.service', lines: 5 });
      const lines = journal.split('\n');
      assert.equal(lines.length, 5);
      assert.ok(lines.every((l) => l.includes('hive-c0re.service')));
      await assert.rejects(agent('ruth').getHostJournal(), (e: unknown) => e instanceof HiveDaemonError && /read_host_journal/.test(e.message));
    }));

  it('loose ends with lenient parsing, targeting rules, reminders', () =>
    withHive(async ({ agent }) => {
      const iris = agent('iris');
      const ends = await iris.getLooseEnds();
      assert.deepEqual(looseEndIds(ends, 'question'), [12, 11]);
      assert.deepEqual(looseEndIds(ends, 'todo'), [102, 101]);
      assert.deepEqual(looseEndIds(ends, 'reminder'), [202]);
      const other = ends.find((e) => e.ok && e.value.kind === 'other');
      assert.ok(other?.ok && other.value.kind === 'other');
      assert.equal(other.value.tag, 'merge_window');
      const raw = ends.filter((e) => !e.ok);
      assert.equal(raw.length, 1);
      assert.deepEqual(raw[0]?.ok === false && raw[0].raw, { mystery: 42, shape: ['?', { nested: true }] });

      assert.deepEqual(looseEndIds(await iris.getLooseEnds('otto'), 'question'), [12], 'a child is always visible');
      await assert.rejects(agent('ruth').getLooseEnds('iris'), (e: unknown) => e instanceof HiveDaemonError && /query_agent_state/.test(e.message));
      await assert.rejects(iris.getLooseEnds('*'), HiveDaemonError);

      assert.equal(await iris.countPendingReminders(), 1);
      const all = await iris.reminderRollup();
      assert.deepEqual([all.scheduled, all.delivered, all.pending], [3, 2, 1]);
      assert.equal(all['overdue'], 0, 'unknown counters are kept');
      const lastHour = await iris.reminderRollup(3600);
      assert.deepEqual([lastHour.scheduled, lastHour.pending], [1, 1]);
      assert.equal(await agent('ruth').countPendingReminders(), 1);
      assert.deepEqual(values(await iris.listTodos('bash')).map((t) => t.kind === 'todo' && t.summary), ['re-run the flaky test suite']);
    }));
});

describe('HiveClient: operator actions', () => {
  it('operatorMsg, markTodoDone, cancelLooseEnd, answer, send, ask', () =>
    withHive(async ({ hive, agent, manager }) => {
      const ruth = agent('ruth');
      const reply = await ruth.operatorMsg('please rebase');
      assert.ok(reply.ok && reply.response.kind === 'ok');
      assert.equal(await ruth.status(), 2);
      const newest = values(await ruth.recent(1))[0];
      assert.deepEqual([newest?.from, newest?.body], ['operator', 'please rebase']);

      const iris = agent('iris');
      await iris.markTodoDone(101);
      await iris.cancelLooseEnd('question', 11);
      let ends = await iris.getLooseEnds();
      assert.deepEqual(looseEndIds(ends, 'todo'), [102]);
      assert.deepEqual(looseEndIds(ends, 'question'), [12]);
      await assert.rejects(iris.markTodoDone(101), HiveDaemonError);

      // Question 12 is routed to iris (from otto): answering on iris's socket answers as iris.
      await iris.answer(12, 'rebase on main');
      ends = await iris.getLooseEnds();
      assert.deepEqual(looseEndIds(ends, 'question'), []);
      assert.match(hive.inbox('otto').at(-1)?.body ?? '', /QuestionAnswered.*rebase on main/);
      // Question 13 is routed to the operator: mcp.sock cannot answer it.
      await assert.rejects(agent('ruth').answer(13, 'api'), (e: unknown) => e instanceof HiveDaemonError && /operator/.test(e.message));

      await manager.send('iris', 'status report please', 403);
      const fromManager = values(await iris.recent(1))[0];
      assert.deepEqual([fromManager?.from, fromManager?.in_reply_to], ['manager', 403]);
      const questionId = await manager.ask('Spawn a docs agent?', { options: ['yes', 'no'], to: 'operator' });
      assert.ok(looseEndIds(await manager.getLooseEnds(), 'question').includes(questionId));
    }));
});

describe('HiveClient: manager socket', () => {
  it('lifecycle and logs', () =>
    withHive(async ({ manager }) => {
      await manager.kill('iris');
      assert.equal((await manager.getAgentMeta('iris')).running, false);
      await manager.start('otto');
      assert.equal((await manager.getAgentMeta('otto')).running, true);
      await manager.restart('iris');
      assert.equal((await manager.getAgentMeta('iris')).running, true);
      await manager.update('otto');
      assert.equal((await manager.getAgentMeta('otto')).hyperhive_rev, FAKE_HIVE_CURRENT_REV);
      await assert.rejects(manager.kill('nobody'), HiveDaemonError);

      const logs = (await manager.getLogs('iris', 10)).split('\n');
      assert.equal(logs.length, 10);
      assert.match(logs.at(-1) ?? '', /restarted/);
      assert.match(logs.at(-2) ?? '', /started|stopped/);
      const meta = await manager.getAgentMeta();
      assert.equal(meta.name, 'manager');
      assert.deepEqual(values(await manager.listDescendants()).map((c) => c.name), ['iris', 'ruth', 'otto']);
    }));

  it('schedules', () =>
    withHive(async ({ hive, manager }) => {
      const schedules = values(await manager.listSchedules());
      assert.deepEqual(schedules.map((s) => s.id), [1, 2]);
      assert.equal(schedules[0]?.['fire_count'], 12, 'extra fields are kept');
      assert.equal(schedules[1]?.description, undefined);

      await manager.fireScheduleNow(1);
      assert.equal(hive.inbox('iris').at(-1)?.body, 'daily standup summary');
      assert.equal(hive.inbox('ruth').at(-1)?.from, 'scheduler');

      await manager.editSchedule(1, { body: 'standup v2', intervalSeconds: 3600, targetsAdd: ['otto'], targetsRemove: ['ruth'] });
      let first = values(await manager.listSchedules())[0];
      assert.deepEqual([first?.body, first?.interval_seconds, first?.targets], ['standup v2', 3600, ['iris', 'otto']]);

      await manager.cancelSchedule(1, ['iris']);
      first = values(await manager.listSchedules())[0];
      assert.deepEqual(first?.targets, ['otto']);
      await manager.cancelSchedule(2);
      assert.deepEqual(values(await manager.listSchedules()).map((s) => s.id), [1]);
      await assert.rejects(manager.fireScheduleNow(99), HiveDaemonError);
    }));

  it('approval requests, hive-wide loose ends and reminder targeting', () =>
    withHive(async ({ manager }) => {
      await manager.requestInitConfig('docs', 'a docs writer');
      await manager.requestUpdateMetaInputs(['nixpkgs'], 'bump nixpkgs');
      await manager.requestSchedulePrompt({ body: 'nightly digest', interval_seconds: 86_400, targets: ['iris'] });
      const approvals = values(await manager.getLooseEnds()).flatMap((e) => (e.kind === 'approval' ? [e] : []));
      assert.deepEqual(
        approvals.map((a) => [a.agent, a['approval_kind']]),
        [['manager', 'schedule_prompt'], ['manager', 'update_meta_inputs'], ['docs', 'init_config'], ['iris', 'merge_config_pr']],
      );
      assert.deepEqual(approvals[0]?.['payload'], { body: 'nightly digest', interval_seconds: 86_400, targets: ['iris'] });

      const everything = await manager.getLooseEnds('*');
      const owners = new Set(everything.flatMap((e) => (e.ok && e.value.kind === 'todo' ? [e.value['owner']] : [])));
      assert.deepEqual([...owners].sort(), ['iris', 'ruth']);
      assert.equal(await manager.countPendingReminders(), 1);
      assert.equal(await manager.countPendingReminders('ruth'), 1);
      assert.equal((await manager.reminderRollup(0, 'iris')).scheduled, 3);
    }));
});

describe('HiveClient: framing and odd replies', () => {
  it('reports every frame to the FrameTap exactly', () =>
    withHive(async ({ frames, agent }) => {
      await agent('iris').getLooseEnds();
      await agent('iris').recent(2);
      assert.deepEqual(frames.map((f) => f.dir), ['out', 'in', 'out', 'in']);
      assert.deepEqual(frames[0]?.frame, { cmd: 'get_loose_ends' }, 'absent optionals are not sent');
      assert.deepEqual(frames[2]?.frame, { cmd: 'recent', limit: 2 });
      assert.equal((frames[3]?.frame as { kind: string }).kind, 'recent');
    }));

  it('reads multi-chunk lines up to the limit and refuses longer ones', () =>
    withHive(async ({ hive, manager, agent }) => {
      const big = 'x'.repeat(3 * 1024 * 1024);
      hive.replyNext('manager', JSON.stringify({ kind: 'logs', content: big }));
      assert.equal((await manager.getLogs('iris')).length, big.length);
      const small = agent('iris', 'agent', { maxLineBytes: 1024 });
      await assert.rejects(small.getHostJournal({ lines: 100 }), (e: unknown) => e instanceof HiveProtocolError && /exceeds the 1024-byte limit/.test(e.message));
      hive.replyNext('iris', 'not json');
      await assert.rejects(agent('iris').status(), HiveProtocolError);
    }));

  it('an unknown kind: typed reads throw with the raw JSON, commands return it', () =>
    withHive(async ({ hive, agent }) => {
      const iris = agent('iris');
      hive.replyNext('iris', '{"kind":"status_v2","unread":{"normal":1}}');
      await assert.rejects(iris.status(), (e: unknown) => e instanceof HiveUnexpectedResponseError && (e.raw as { kind: string }).kind === 'status_v2');
      hive.replyNext('iris', '{"kind":"recent","rows":[]}');
      await assert.rejects(iris.status(), (e: unknown) => e instanceof HiveUnexpectedResponseError && /got 'recent'/.test(e.message));
      hive.replyNext('iris', '{"kind":"queued","position":3}');
      const reply = await iris.operatorMsg('hello');
      assert.deepEqual(reply.ok ? undefined : reply.raw, { kind: 'queued', position: 3 });
      hive.replyNext('iris', '{"kind":"err"}');
      await assert.rejects(iris.markTodoDone(1), HiveDaemonError);
    }));
});
