/**
 * The SCV driver against the in-process reference daemon: a session is a run; turns stream and complete; the
 * prompt queue (edit / move / remove with revisions, pause); approvals; failures; background jobs; unknown events;
 * real gaps; socket drops (interrupted, never silently restarted); version mismatch; daemon status; reload.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DriverError } from '../../../extension/drivers/driver';
import type { ScvDriver } from '../../../extension/drivers/scv/scvDriver';
import { SESSION_DROPPED } from '../../../extension/drivers/scv/scvErrorText';
import type { RunInfo } from '../../../extension/model/modelTypes';
import { awaitsDecision, runKeyOf } from '../../../extension/model/modelTypes';
import type { RunStore } from '../../../extension/model/runStore';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';
import { ScvReferenceDaemon } from '../../fixtures/scv/daemon';
import type { ScvReferenceDaemonOptions } from '../../fixtures/scv/daemon';
import { fakeScvServer } from '../scv/fakeScvServer';
import { makeDriver } from '../scv/scvDriverKit';
import { until } from './driverTestKit';

const base = mkdtempSync(join(tmpdir(), 'scvd-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));
const CONNECTION = 'scv:test';


interface Setup {
  readonly dir: string;
  readonly workspace: string;
  readonly socketPath: string;
  readonly storage: string;
  daemon: ScvReferenceDaemon | undefined;
  readonly store: RunStore;
  readonly driver: ScvDriver;
  readonly frames: unknown[];
  readonly logs: string[];
  cleanup(): Promise<void>;
}

async function setup(daemonOptions: Partial<ScvReferenceDaemonOptions> | null = {}, storage?: string): Promise<Setup> {
  const dir = mkdtempSync(join(base, 'c'));
  const workspace = join(dir, 'project');
  mkdirSync(workspace);
  const socketPath = join(dir, 's.sock');
  let daemon: ScvReferenceDaemon | undefined;
  if (daemonOptions) {
    daemon = new ScvReferenceDaemon({ stepDelayMs: 1, slowTurnMs: 600, backgroundDelayMs: 100, ...daemonOptions, socketPath });
    await daemon.start();
  }
  const made = makeDriver(socketPath, storage ?? join(dir, 'storage'), workspace);
  const s: Setup = {
    dir,
    workspace,
    socketPath,
    storage: storage ?? join(dir, 'storage'),
    daemon,
    ...made,
    cleanup: async () => {
      await made.driver.disconnect();
      await made.driver.dispose();
      await s.daemon?.stop();
    },
  };
  return s;
}

function items(s: { store: RunStore }, runId: string): TranscriptItem[] {
  return s.store.transcript(runKeyOf(CONNECTION, runId))?.snapshot() ?? [];
}

function run(s: { store: RunStore }, runId: string): RunInfo {
  return s.store.state.runs.get(runKeyOf(CONNECTION, runId))!;
}

async function connected(s: Setup): Promise<string> {
  await s.driver.connect();
  await until('connected', () => s.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  return until('a session', () => s.driver.liveSessionRunId);
}

function turns(s: Setup, runId: string, phase: string): number {
  return items(s, runId).filter((i) => i.kind === 'turn' && i.phase === phase).length;
}

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

  it('shows a real seq gap', async () => {
    const dir = mkdtempSync(join(base, 'g'));
    const fake = await fakeScvServer(dir, {
      mode: 'script',
      script: [
        '{"type":"turn.started","request_id":"x","session_id":"s1","turn_id":"t1","seq":2}',
        '{"type":"assistant.delta","request_id":"x","session_id":"s1","turn_id":"t1","seq":3,"content":"before "}',
        '{"type":"assistant.delta","request_id":"x","session_id":"s1","turn_id":"t1","seq":6,"content":"after"}',
      ],
    });
    const s = makeDriver(fake.socketPath, join(dir, 'storage'), dir, { replyTimeoutMs: 300 });
    try {
      await s.driver.connect();
      const runId = await until('session', () => s.driver.liveSessionRunId);
      await until('text after the gap', () => items(s, runId).some((i) => i.kind === 'text' && i.text === 'after'));
      const gap = items(s, runId).find((i) => i.kind === 'gap');
      // The model's gap action takes (from, to]; the gap item names the lost seqs inclusively: 4 and 5.
      assert.ok(gap?.kind === 'gap' && gap.from === 4 && gap.to === 5, JSON.stringify(gap));
      assert.equal(run(s, runId).state, 'running');
    } finally {
      await s.driver.disconnect();
      await s.driver.dispose();
      await fake.close();
    }
  });

  it('says a prompt may or may not have been sent when SCV does not answer, and never resends it', async () => {
    const dir = mkdtempSync(join(base, 'm'));
    const fake = await fakeScvServer(dir, { mode: 'mute' });
    const s = makeDriver(fake.socketPath, join(dir, 'storage'), dir, { replyTimeoutMs: 300 });
    try {
      await s.driver.connect();
      const runId = await until('session', () => s.driver.liveSessionRunId);
      await assert.rejects(s.driver.sendMessage(runId, 'hello?'), (e: unknown) => {
        assert.ok(e instanceof DriverError && e.code === 'unknown_outcome');
        assert.match(e.message, /may or may not have been sent/);
        assert.match(e.message, /not resent/);
        return true;
      });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(fake.received().split('"type":"turn.start"').length - 1, 1);
      assert.ok(items(s, runId).some((i) => i.kind === 'notice' && i.level === 'warning' && /may or may not have been sent/.test(i.text)));
    } finally {
      await s.driver.disconnect();
      await s.driver.dispose();
      await fake.close();
    }
  });

  it('a socket drop interrupts the session (transcript kept, approvals expired); reconnecting starts no session by itself', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.sendMessage(runId, 'use a tool');
      const approvalId = await until('approval', () => run(s, runId).pendingApprovals[0]);
      const before = items(s, runId).length;
      await s.daemon!.stop();
      await until('interrupted', () => run(s, runId).state === 'interrupted');
      assert.equal(run(s, runId).stateDetail, SESSION_DROPPED);
      assert.match(SESSION_DROPPED, /^The connection to SCV dropped; this session has ended\. Its transcript is kept\./);
      assert.equal(run(s, runId).pendingApprovals.length, 0);
      assert.equal(s.store.state.approvals.get(`${runKeyOf(CONNECTION, runId)}::${approvalId}`)?.status, 'expired');
      const list = items(s, runId);
      assert.ok(list.length > before);
      assert.ok(list.some((i) => i.kind === 'approval' && i.status === 'expired'));
      assert.ok(list.some((i) => i.kind === 'user' && i.text === 'use a tool'), 'the transcript is kept');
      assert.ok(list.some((i) => i.kind === 'notice' && i.state === 'interrupted'));
      await assert.rejects(s.driver.sendMessage(runId, 'more'), /has ended/);

      s.daemon = new ScvReferenceDaemon({ socketPath: s.socketPath, stepDelayMs: 1 });
      await s.daemon.start();
      await until('reconnected', () => s.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(s.store.state.runs.size, 1, 'no new session behind the user’s back');
      assert.equal(s.driver.liveSessionRunId, undefined);

      const next = await s.driver.startNewSession();
      assert.notEqual(next, runId);
      assert.equal(run(s, next).state, 'idle');
      await assert.rejects(s.driver.startNewSession(), (e: unknown) => e instanceof DriverError && e.code === 'session_active');
      const third = await s.driver.startNewSession({ replace: true });
      assert.equal(run(s, next).state, 'interrupted');
      assert.match(run(s, next).stateDetail ?? '', /new SCV session was started/);
      await s.driver.sendMessage(third, 'works');
      await until('third session answers', () => turns(s, third, 'completed') === 1);

      // A window reload (the old window's extension host is gone without a goodbye): the stored sessions come
      // back, interrupted, with their transcripts.
      await new Promise((r) => setTimeout(r, 200));
      const reloaded = makeDriver(join(s.dir, 'nowhere.sock'), s.storage, s.workspace);
      await reloaded.driver.connect();
      try {
        assert.equal(reloaded.store.state.runs.size, 3);
        for (const r of reloaded.store.state.runs.values()) {
          assert.equal(r.state, 'interrupted', r.runId);
          assert.equal(r.pendingApprovals.length, 0);
        }
        assert.ok(items(reloaded, runId).some((i) => i.kind === 'user' && i.text === 'use a tool'));
        assert.ok(items(reloaded, third).some((i) => i.kind === 'text' && i.text === 'Echo: works'));
        assert.ok(items(reloaded, third).some((i) => i.kind === 'notice' && /editor restarted/.test(i.text)));
      } finally {
        await reloaded.driver.disconnect();
        await reloaded.driver.dispose();
      }
    } finally {
      await s.cleanup();
    }
  });

  it('a window reload with an approval pending: restored, never live, expired with why — and never announced', async () => {
    const s = await setup();
    try {
      const runId = await connected(s);
      await s.driver.sendMessage(runId, 'use a tool');
      const approvalId = await until('approval', () => run(s, runId).pendingApprovals[0]);
      await s.driver.flushStorage();
      // The old window is gone without a goodbye; its session died with it (SCV sessions live per connection).
      const reloaded = makeDriver(join(s.dir, 'nowhere.sock'), s.storage, s.workspace);
      await reloaded.driver.connect();
      try {
        const approval = reloaded.store.state.approvals.get(`${runKeyOf(CONNECTION, runId)}::${approvalId}`);
        assert.ok(approval, 'the request is restored with its transcript');
        assert.equal(approval.live, false, 'restored, not confirmed by any daemon');
        assert.equal(approval.status, 'expired');
        assert.match(approval.reason ?? '', /session ended with the earlier window/);
        assert.equal(awaitsDecision(approval), false, 'nothing to announce, count or decide');
        const card = items(reloaded, runId).find((i) => i.kind === 'approval');
        assert.ok(card?.kind === 'approval' && card.status === 'expired');
      } finally {
        await reloaded.driver.disconnect();
        await reloaded.driver.dispose();
      }
    } finally {
      await s.cleanup();
    }
  });

  it('fails with a clear message on a protocol version mismatch and does not retry', async () => {
    const s = await setup({ protocolVersion: 4 });
    try {
      await s.driver.connect();
      const state = await until('failed', () => {
        const c = s.store.state.connections.get(CONNECTION)?.state;
        return c?.kind === 'failed' ? c : undefined;
      });
      assert.match(state.reason, /protocol 3/);
      assert.match(state.reason, /protocol 4/);
      assert.equal(s.store.state.runs.size, 0);
      const connections = s.daemon!.stats.connections;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(s.daemon!.stats.connections, connections, 'no retry loop');
    } finally {
      await s.cleanup();
    }
  });

  it('shows the daemon status in the connection details and refreshes it on demand', async () => {
    const s = await setup();
    try {
      await connected(s);
      const details = await until('details', () => s.store.state.connections.get(CONNECTION)?.details);
      assert.match(String(details['daemon']), /^scv-server 0\.3\.14-ref, pid \d+$/);
      assert.equal(details['components'], 'telegram:demo disabled');
      assert.equal(details['delegations'], '0 active, 0 reaped');
      assert.match(s.store.state.connections.get(CONNECTION)!.serverDescription ?? '', /^scv-server 0\.3\.14-ref · pid \d+$/);
      const checked = details['checkedAt'];
      await new Promise((r) => setTimeout(r, 5));
      await s.driver.refresh();
      assert.notEqual(s.store.state.connections.get(CONNECTION)!.details!['checkedAt'], checked);
      const status = await s.driver.daemonStatus();
      assert.equal(status.version, '0.3.14-ref');
    } finally {
      await s.cleanup();
    }
  });

  it('a session in a git workspace gets a local change set after every turn', async () => {
    const s = await setup();
    try {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: s.workspace, stdio: 'pipe' });
      writeFileSync(join(s.workspace, 'a.txt'), 'one\n');
      git('init', '-q');
      git('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'base');
      const indexBefore = readFileSync(join(s.workspace, '.git', 'index'));
      const runId = await connected(s);
      const runKey = run(s, runId).key;
      await until('the session snapshot', () => s.store.state.changeSets.get(runKey)?.status === 'capturing');
      writeFileSync(join(s.workspace, 'a.txt'), 'one\ntwo\n'); // what "the agent" changes during the turn
      await s.driver.sendMessage(runId, 'hello there');
      const changeSet = await until('the change set after the turn', () => {
        const c = s.store.state.changeSets.get(runKey);
        return c?.status === 'ready' && c.patch?.includes('+two') && c;
      });
      assert.equal(changeSet.source, 'local');
      assert.deepEqual(readFileSync(join(s.workspace, '.git', 'index')), indexBefore, "the user's index is untouched");
    } finally {
      await s.cleanup();
    }
  });
});
