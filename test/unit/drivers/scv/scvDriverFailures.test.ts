/**
 * The SCV driver when things go wrong, against the in-process reference daemon (or a fake server): real seq gaps,
 * an unanswered send, socket drops (interrupted, never silently restarted), a reload with an approval pending, a
 * version mismatch; and the daemon status and local change sets.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DriverError } from '../../../../extension/drivers/driver';
import { SESSION_DROPPED } from '../../../../extension/drivers/scv/scvErrorText';
import { awaitsDecision, runKeyOf } from '../../../../extension/model/modelTypes';
import { ScvReferenceDaemon } from '../../../fixtures/scv/daemon';
import { fakeScvServer } from './fakeScvServer';
import { makeDriver } from './scvDriverKit';
import { until } from '../driverKit';
import { base, CONNECTION, connected, items, run, setup, turns } from './scvStoredDriverKit';

describe('ScvDriver, when things go wrong', () => {
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

  it('a socket drop interrupts the session (transcript kept, approvals expired); reconnecting starts a new session (WIRE.md 6.2) that runs nothing by itself', async () => {
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
      // The user had a session: one takes its place (a new run), and it runs nothing: the prompt that asked for the
      // tool is not resent, so no turn starts and no approval is asked.
      const next = await until('the new session', () => s.driver.liveSessionRunId);
      assert.notEqual(next, runId);
      assert.equal(run(s, next).state, 'idle');
      assert.equal(s.store.state.runs.size, 2);
      assert.equal(turns(s, next, 'started'), 0, 'nothing runs that the user did not decide');
      assert.ok(!items(s, next).some((i) => i.kind === 'user'), 'no prompt was resent');
      await assert.rejects(s.driver.startNewSession(), (e: unknown) => e instanceof DriverError && e.code === 'session_active');
      const third = await s.driver.startNewSession({ replace: true });
      assert.equal(run(s, next).state, 'interrupted');
      assert.match(run(s, next).stateDetail ?? '', /new SCV session was started/);
      await s.driver.sendMessage(third, 'works');
      await until('third session answers', () => turns(s, third, 'completed') === 1);

      // A window reload (the old window's extension host is gone without a goodbye): the stored sessions come
      // back, interrupted, with their transcripts. What it wrote has reached the disk (a state, not a sleep: a loaded
      // machine took longer than any fixed wait); it then goes without telling the daemon anything.
      await s.driver.flushStorage();
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
