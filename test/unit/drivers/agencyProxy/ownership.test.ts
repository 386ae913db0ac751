/**
 * Two clients on one reference daemon (WIRE.md 1.9: `ack_events` deletes the journal for every client). Client A
 * plays the AgencyZero GUI: it starts runs and relies on the daemon's journal to replay them. The editor (driver B)
 * observes A's runs without ever acking them, acks the runs it started, and acks a run of A's only after the user
 * adopted it; the adoption survives a window reload.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import type { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import type { EventFrame, RunRequestInput } from '../../../../extension/protocol/agencyProxy';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { driverSetup, quietLog, until } from '../driverKit';
import { assertContiguous, collectUntil, startDaemon } from './agencyProxyKit';
import type { DaemonFixture } from './agencyProxyKit';

const chat = (ws: string): RunRequestInput => ({
  provider: 'claude', prompt: 'notools', permission: 'edit', approvals: false, interactive: true, workspaceRoots: [ws],
});

function editor(fx: DaemonFixture) {
  const frames: { type?: string; run_id?: string }[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'b', protocol: 'agency-proxy', socketPath: fx.socketPath },
    path.join(fx.dir, 'storage-b'), { log: quietLog, tap: (dir, frame) => dir === 'out' && frames.push(frame as never) });
  const driver = new AgencyProxyDriver(ctx);
  const ackedBy = (runId: string): boolean => frames.some((f) => f.type === 'ack_events' && f.run_id === runId);
  const held = (runId: string): number => store.state.runs.get(runKeyOf(connectionId, runId))?.lastSequence ?? 0;
  return { store, connectionId, driver, ackedBy, held };
}

/** A's run up to the end of its first answer (an interactive run then waits for input, for ever). */
async function startChat(a: AgencyProxyClient, runId: string, ws: string): Promise<void> {
  const answered = collectUntil(a, runId, (e) => e.event.type === 'message_boundary');
  await a.startRun(runId, chat(ws));
  await a.attachRun(runId, 0);
  await answered;
}

/** Everything the daemon still has for a run, replayed to a fresh connection from sequence 1. */
async function replayAll(fx: DaemonFixture, runId: string): Promise<EventFrame[]> {
  const c = await fx.connect();
  const latest = fx.daemon.snapshots().find((r) => r.runId === runId)!.latestSequence;
  const all = collectUntil(c, runId, (e) => e.sequence === latest);
  await c.attachRun(runId, 0);
  return all;
}

describe('acks with two clients on one daemon', () => {
  it('the editor observes a run another client started without acking it; that client can still replay it all', async () => {
    const fx = await startDaemon();
    let b = editor(fx);
    try {
      const a = await fx.connect();
      await startChat(a, 'gui-run', fx.workspace);
      await startChat(a, 'gui-other', fx.workspace);
      const latest = (runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)!.latestSequence;
      const acked = (runId: string): number => fx.daemon.snapshots().find((r) => r.runId === runId)!.acknowledgedSequence;

      await b.driver.connect();
      await until('B has seen all of A\'s runs', () => b.held('gui-run') === latest('gui-run') && b.held('gui-other') === latest('gui-other'));
      // B's own run is acked; ack timers fire in the order they were set, so once B's own run is acked any ack
      // B would have sent for A's runs (whose events it stored earlier) has reached the daemon too.
      const own = await b.driver.startRun({ prompt: 'mine notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
      assert.equal(b.driver.ownsRun(own), true);
      await until('B acked its own run', () => latest(own) > 0 && acked(own) === latest(own) && b.held(own) === latest(own));
      assert.equal(b.ackedBy('gui-run') || b.ackedBy('gui-other'), false, 'no ack_events for a run B only observes');
      assert.equal(acked('gui-run'), 0);
      assert.equal(b.driver.ownsRun('gui-run'), false);
      const history = await replayAll(fx, 'gui-run');
      assertContiguous(history, 1);
      assert.equal(history.length, latest('gui-run'), 'A can replay the full history after B saw it');

      await b.driver.adoptRun('gui-run');
      assert.equal(b.driver.ownsRun('gui-run'), true);
      await until('B acks the adopted run', () => acked('gui-run') === latest('gui-run'));

      // A window reload: the adoption comes back from storage; the other run is still only observed.
      await b.driver.flushStorage();
      await b.driver.dispose();
      b = editor(fx);
      await b.driver.connect();
      assert.equal(b.driver.ownsRun('gui-run'), true, 'adopted, after the reload');
      assert.equal(b.driver.ownsRun('gui-other'), false, 'observed, after the reload');
      assert.equal(b.driver.ownsRun(own), true, 'started here, after the reload');
      await until('connected again', () => b.store.state.connections.get(b.connectionId)?.state.kind === 'connected');
      const before = latest('gui-run');
      await a.injectMessage('gui-run', 'one more thing', 1);
      await until('the reloaded editor acks the new events of the adopted run', () => latest('gui-run') > before && acked('gui-run') === latest('gui-run'));
      const otherBefore = latest('gui-other');
      await a.injectMessage('gui-other', 'and here', 1);
      await until('B saw the new answer of the observed run', () => latest('gui-other') > otherBefore && b.held('gui-other') === latest('gui-other'));
      const probe = await b.driver.startRun({ prompt: 'probe notools', provider: 'claude', workspaceRoots: [fx.workspace], approvals: false, interactive: false });
      await until('B acked its probe run', () => latest(probe) > 0 && acked(probe) === latest(probe) && b.held(probe) === latest(probe));
      assert.equal(acked('gui-other'), 0, 'still never acked after the reload');
      assert.equal(b.ackedBy('gui-other'), false);
    } finally {
      await b.driver.dispose();
      await fx.cleanup();
    }
  });
});
