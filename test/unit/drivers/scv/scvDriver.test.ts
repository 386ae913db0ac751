/**
 * The SCV driver against the in-process reference daemon: a session is a run; turns stream and complete; the
 * prompt queue (edit / move / remove with revisions, pause); approvals; failing and cancelled turns; background
 * jobs; unknown events. What goes wrong (gaps, drops, reloads, mismatches) is in scvDriverFailures.test.ts.
 */
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { describe, it } from 'node:test';
import { DriverError } from '../../../../extension/drivers/driver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { until } from '../driverKit';
import { CONNECTION, connected, items, run, setup, turns } from './scvStoredDriverKit';

describe('ScvDriver', () => {
  it('starts a session as a run; a turn streams and completes', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      const info = s.store.state.connections.get(CONNECTION)!;
      assert.deepEqual([...info.capabilities].sort(), ['approvals', 'daemon.status', 'run.cancel', 'run.clear', 'run.queue', 'run.start', 'runs.sessions']);
      assert.equal(run(s, runId).title, `SCV session — ${basename(s.workspace)}`);
      assert.equal(run(s, runId).model, 'reference-model');
      assert.equal(run(s, runId).state, 'idle');
      assert.deepEqual(run(s, runId).queue, []);
      await s.driver.sendMessage(runId, 'hello there');
      await until('turn completed', () => turns(s, runId, 'completed') === 1);
      const list = items(s, runId);
      const kinds = list.map((i) => i.kind);
      assert.deepEqual(kinds.slice(kinds.indexOf('turn')), ['turn', 'user', 'text', 'usage', 'turn']);
      const text = list.find((i) => i.kind === 'text');
      assert.ok(text?.kind === 'text' && text.text === 'Echo: hello there' && !text.streaming);
      const user = list.find((i) => i.kind === 'user');
      assert.ok(user?.kind === 'user' && user.text === 'hello there' && user.note === undefined);
      assert.equal(run(s, runId).state, 'idle');
      const turnStart = s.frames.filter((f) => (f as { type?: string }).type === 'turn.start');
      assert.equal(turnStart.length, 1);
    } finally {
      await s.cleanup();
    }
  });

  it('queues a prompt sent while a slow turn runs and shows it when its turn starts', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.sendMessage(runId, 'slow first');
      assert.equal(run(s, runId).state, 'running');
      await s.driver.sendMessage(runId, 'second');
      assert.deepEqual(
        run(s, runId).queue?.map((q) => [q.prompt, q.revision, q.submitter]),
        [['second', 1, 'agent-switchboard']],
      );
      assert.equal(items(s, runId).filter((i) => i.kind === 'user').length, 1, 'not shown while it waits');
      await until('both turns done', () => turns(s, runId, 'completed') === 2);
      assert.deepEqual(run(s, runId).queue, []);
      const users = items(s, runId).filter((i) => i.kind === 'user');
      assert.deepEqual(users.map((u) => (u.kind === 'user' ? [u.text, u.note] : [])), [['slow first', undefined], ['second', 'from the queue']]);
    } finally {
      await s.cleanup();
    }
  });

  it('pauses the queue; edits, moves and removes entries; a stale revision is a clear conflict', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.pauseQueue(runId, true);
      assert.equal(run(s, runId).queuePaused, true);
      for (const p of ['alpha', 'beta', 'gamma']) {
        await s.driver.sendMessage(runId, p);
      }
      const q = () => run(s, runId).queue!;
      const id = (prompt: string) => q().find((e) => e.prompt.startsWith(prompt))!.queueId;
      assert.deepEqual(q().map((e) => e.prompt), ['alpha', 'beta', 'gamma']);
      const alpha = id('alpha');

      await s.driver.editQueueEntry(runId, alpha, 1, 'alpha edited');
      assert.deepEqual(q()[0], { queueId: alpha, revision: 2, prompt: 'alpha edited', submitter: 'agent-switchboard' });
      await assert.rejects(s.driver.editQueueEntry(runId, alpha, 1, 'lost edit'), (e: unknown) => {
        assert.ok(e instanceof DriverError);
        assert.equal(e.code, 'queue_conflict');
        assert.match(e.message, /queue changed meanwhile/);
        return true;
      });
      assert.equal(q()[0]!.prompt, 'alpha edited', 'the current state is shown again');

      const gamma = id('gamma');
      await s.driver.moveQueueEntry(runId, gamma, 1, alpha);
      assert.deepEqual(q().map((e) => e.prompt), ['gamma', 'alpha edited', 'beta']);
      await assert.rejects(s.driver.moveQueueEntry(runId, gamma, 1, null), (e: unknown) => e instanceof DriverError && e.code === 'queue_conflict');
      await s.driver.moveQueueEntry(runId, gamma, 2, null);
      assert.deepEqual(q().map((e) => e.prompt), ['alpha edited', 'beta', 'gamma']);

      const beta = id('beta');
      await assert.rejects(s.driver.removeQueueEntry(runId, beta, 7), (e: unknown) => e instanceof DriverError && e.code === 'queue_conflict');
      await s.driver.removeQueueEntry(runId, beta, 1);
      assert.deepEqual(q().map((e) => e.prompt), ['alpha edited', 'gamma']);
      await assert.rejects(s.driver.removeQueueEntry(runId, beta, 2), (e: unknown) => e instanceof DriverError && e.code === 'queue_not_found');

      assert.equal(turns(s, runId, 'started'), 0, 'nothing runs while paused');
      await s.driver.pauseQueue(runId, false);
      assert.equal(run(s, runId).queuePaused, false);
      await until('the queue ran', () => turns(s, runId, 'completed') === 2);
      const users = items(s, runId).filter((i) => i.kind === 'user');
      assert.deepEqual(users.map((u) => (u.kind === 'user' ? [u.text, u.note] : [])), [
        ['alpha edited', 'from the queue (edited)'],
        ['gamma', 'from the queue (edited)'],
      ]);
      const notices = items(s, runId).filter((i) => i.kind === 'notice').map((i) => (i.kind === 'notice' ? i.text : ''));
      assert.ok(notices.some((t) => t.startsWith('Queue paused')));
      assert.ok(notices.includes('Queue resumed.'));
    } finally {
      await s.cleanup();
    }
  });

  // Paced, and in the zero-delay mode where the rest of the turn arrives in the same chunk as the decision's effect.
  for (const timing of [{ name: 'paced', options: {} }, { name: 'same write', options: { sameWrite: true } }]) {
    it(`asks for approval; an allowed tool runs, a denied one fails with errorKind denied (${timing.name})`, async () => {
      const s = await setup(timing.options);
      try {
        const runId = await connected(s);
        await s.driver.sendMessage(runId, 'use a tool');
        const first = await until('approval', () => run(s, runId).pendingApprovals[0]);
        assert.equal(run(s, runId).state, 'waiting_approval');
        const approval = s.store.state.approvals.get(`${runKeyOf(CONNECTION, runId)}::${first}`)!;
        assert.deepEqual(approval.options, ['allow_once', 'deny']);
        assert.equal(approval.summary, 'Run shell command: echo hello');
        assert.equal(approval.risk, 'process');
        assert.deepEqual(approval.detail, { command: 'echo hello' });
        await s.driver.decideApproval(runId, first, 'allow_once');
        assert.equal(run(s, runId).pendingApprovals.length, 0);
        await until('turn 1', () => turns(s, runId, 'completed') === 1);
        let tools = items(s, runId).filter((i) => i.kind === 'tool');
        assert.ok(tools[0]?.kind === 'tool' && tools[0].status === 'succeeded' && tools[0].output === 'hello\n' && tools[0].progress === undefined);
        assert.equal(run(s, runId).state, 'idle');

        await s.driver.sendMessage(runId, 'another tool please');
        const second = await until('approval 2', () => run(s, runId).pendingApprovals[0]);
        await s.driver.decideApproval(runId, second, 'deny');
        await until('turn 2', () => turns(s, runId, 'completed') === 2);
        tools = items(s, runId).filter((i) => i.kind === 'tool');
        const denied = tools[1];
        assert.ok(denied?.kind === 'tool');
        assert.equal(denied.status, 'failed');
        assert.equal(denied.errorKind, 'denied');
        const cards = items(s, runId).filter((i) => i.kind === 'approval');
        assert.deepEqual(cards.map((c) => (c.kind === 'approval' ? [c.status, c.decision] : [])), [['decided', 'allow_once'], ['decided', 'deny']]);
      } finally {
        await s.cleanup();
      }
    });
  }

  it('shows a failing turn with its code and message; cancels a turn; clears only when idle', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.sendMessage(runId, 'please fail');
      await until('failed', () => turns(s, runId, 'failed') === 1);
      const failed = items(s, runId).find((i) => i.kind === 'turn' && i.phase === 'failed');
      assert.ok(failed?.kind === 'turn' && failed.code === 'step_limit' && failed.message === 'agent reached 32 steps');
      assert.equal(run(s, runId).state, 'idle');

      await s.driver.sendMessage(runId, 'slow one');
      await assert.rejects(s.driver.clearSession(runId), (e: unknown) => e instanceof DriverError && e.code === 'turn_active' && /only an idle session/.test(e.message));
      await s.driver.cancelRun(runId);
      await until('cancelled', () => turns(s, runId, 'cancelled') === 1);
      assert.equal(run(s, runId).state, 'idle');
      await assert.rejects(s.driver.cancelRun(runId), (e: unknown) => e instanceof DriverError && e.code === 'no_turn');
      await s.driver.clearSession(runId);
      const notices = items(s, runId).filter((i) => i.kind === 'notice').map((i) => (i.kind === 'notice' ? i.text : ''));
      assert.ok(notices.some((t) => t.startsWith('Session cleared')));
    } finally {
      await s.cleanup();
    }
  });

  it('tracks background jobs in a side panel and shows the server report', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.sendMessage(runId, 'start background work');
      const panel = await until('panel', () => run(s, runId).panels?.find((p) => p.id === 'scv.background'));
      assert.equal(panel.title, 'Background jobs');
      assert.equal(panel.entries[0]?.label, 'job-1 · helper');
      await until('report turn failed', () => turns(s, runId, 'failed') === 1);
      const entry = run(s, runId).panels!.find((p) => p.id === 'scv.background')!.entries[0]!;
      assert.match(entry.description ?? '', /^completed — reported by the server/);
      const list = items(s, runId);
      const message = list.find((i) => i.kind === 'message');
      assert.ok(message?.kind === 'message' && message.from.startsWith('job-1 · helper') && /helper finished/.test(message.body));
      assert.ok(list.some((i) => i.kind === 'notice' && /started this turn itself/.test(i.text)));
      const report = list.find((i) => i.kind === 'turn' && i.phase === 'failed');
      assert.ok(report?.kind === 'turn' && report.code === 'provider_error');
    } finally {
      await s.cleanup();
    }
  });

  it('ignores an unknown event type (nothing in the transcript, one log line, no gap)', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.sendMessage(runId, 'future stuff');
      await until('done', () => turns(s, runId, 'completed') === 1);
      const reasoning = s.frames.filter((f) => (f as { type?: string }).type === 'assistant.reasoning');
      assert.equal(reasoning.length, 1, 'the fixture did send the unknown event');
      const list = items(s, runId);
      assert.deepEqual(list.filter((i) => i.kind === 'raw' || i.kind === 'error'), [], 'not rendered as raw JSON');
      assert.ok(!JSON.stringify(list).includes('assistant.reasoning'), 'no trace of it in the transcript');
      assert.equal(list.filter((i) => i.kind === 'gap').length, 0);
      const text = list.find((i) => i.kind === 'text');
      assert.ok(text?.kind === 'text' && text.text === 'Echo: future stuff', 'the known events around it still show');
      const logged = s.logs.filter((l) => l.includes('assistant.reasoning'));
      assert.equal(logged.length, 1, s.logs.join('\n'));
      assert.match(logged[0]!, /^warn: .*does not know.*ignoring it/);
      await s.driver.sendMessage(runId, 'more future stuff');
      await until('done again', () => turns(s, runId, 'completed') === 2);
      assert.equal(s.logs.filter((l) => l.includes('assistant.reasoning')).length, 1, 'logged once per type and connection');
    } finally {
      await s.cleanup();
    }
  });
});
