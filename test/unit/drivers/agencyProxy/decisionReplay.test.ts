/**
 * A replayed run equals what the user saw live, for the two approval cases that used to differ: a decision an
 * approval rule made (the rule is named after a reload, because the driver's journaled record carries it — the
 * gate no longer writes the decision a second time), and a restored approval that expires on attach because another
 * editor window answered it meanwhile (the expiry goes through the door, so it is journaled like any other).
 * Two editor windows share one reference AgencyProxy daemon.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { decideApprovalOnce } from '../../../../extension/model/approvalGate';
import { approvalKeyOf, runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunKey } from '../../../../extension/model/runKeys';
import type { RunStore } from '../../../../extension/model/runStore';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { TempGitRepo } from '../../changeSets/tempGitRepo';
import { driverSetup, loudLog, until } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'adr-'));
const repo = new TempGitRepo();
after(() => {
  repo.dispose();
  rmSync(base, { recursive: true, force: true, maxRetries: 20 });
});

/** One editor window: a driver on the shared socket with its own storage (its journal). */
async function window(socketPath: string, storage: string, connect = true) {
  const { store, connectionId, ctx } = driverSetup({ name: 'shared', protocol: 'agency-proxy', socketPath }, storage, { log: loudLog });
  const driver = new AgencyProxyDriver(ctx);
  if (connect) {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  } else {
    void driver.connect();
  }
  return { store, connectionId, driver };
}

/** What a user sees of the run's approval and transcript (ids dropped: they are per window). */
function seen(store: RunStore, runKey: RunKey, approvalId: string) {
  const approval = store.state.approvals.get(approvalKeyOf(runKey, approvalId));
  const items = store.transcript(runKey)?.snapshot().map(({ id: _id, ...rest }) => rest);
  return { status: approval?.status, decision: approval?.decision, decidedBy: approval?.decidedBy, rule: approval?.decidedByRule, reason: approval?.reason, items };
}

test('a rule-decided approval names its rule after a reload; an approval answered in another window expires, and stays expired after the next reload', async () => {
  repo.write('README.md', '# Demo\n');
  repo.commitAll();
  const socketPath = join(mkdtempSync(join(base, 's')), 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: repo.dir });
  await daemon.start();
  const storageA = mkdtempSync(join(base, 'a'));
  const storageB = mkdtempSync(join(base, 'b'));
  try {
    // Window A starts an interactive run (it stays open after answering) and goes away while the run waits.
    const a = await window(socketPath, storageA);
    const runId = await a.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [repo.dir], approvals: true, interactive: true });
    const key = runKeyOf(a.connectionId, runId);
    const approvalId = await until('A sees the approval', () => a.store.state.runs.get(key)?.pendingApprovals[0]);
    await a.driver.flushStorage();
    await a.driver.dispose();

    // Window B follows the same run and a rule of B's answers it.
    const b = await window(socketPath, storageB);
    await b.driver.refresh?.();
    await until('B sees the approval', () => b.store.state.approvals.get(approvalKeyOf(key, approvalId))?.live === true);
    const sent = await decideApprovalOnce(b.store, approvalKeyOf(key, approvalId), 'allow_once', 'rule', () => b.driver, 'Edits to README.md');
    assert.equal(sent.kind, 'sent');
    await until('B: decided', () => b.store.state.approvals.get(approvalKeyOf(key, approvalId))?.status === 'decided');
    await until('B: the run answered', () => b.store.state.runs.get(key)?.state === 'idle');
    await b.driver.checkpoints.settled(); // the message boundary's file checkpoint marker
    const liveB = seen(b.store, key, approvalId);
    assert.deepEqual([liveB.decision, liveB.decidedBy, liveB.rule], ['allow_once', 'rule', 'Edits to README.md']);

    // Window A comes back: its restored approval is not waited for any more (answered elsewhere), so it expires.
    const a2 = await window(socketPath, storageA);
    await until('A: the restored approval expired', () => a2.store.state.approvals.get(approvalKeyOf(key, approvalId))?.status === 'expired');
    await until('A: the run answered', () => a2.store.state.runs.get(key)?.state === 'idle');
    await a2.driver.checkpoints.settled();
    await a2.driver.flushStorage();
    const liveA = seen(a2.store, key, approvalId);
    assert.match(liveA.reason ?? '', /answered elsewhere/);
    await a2.driver.dispose();
    await b.driver.flushStorage();
    await b.driver.dispose();
    await daemon.stop();

    // Both windows reload with the daemon gone: each shows what it showed live.
    const a3 = await window(socketPath, storageA, false);
    await until('A restored', () => a3.store.state.approvals.get(approvalKeyOf(key, approvalId)));
    assert.deepEqual(seen(a3.store, key, approvalId), liveA);
    const b3 = await window(socketPath, storageB, false);
    await until('B restored', () => b3.store.state.approvals.get(approvalKeyOf(key, approvalId)));
    assert.deepEqual(seen(b3.store, key, approvalId), liveB);
    await Promise.all([a3.driver.dispose(), b3.driver.dispose()]);
  } finally {
    await daemon.stop().catch(() => undefined);
  }
});

test('a decision whose send failed after its run ended expires through the driver: a reload shows it expired for the same reason', async () => {
  const socketPath = join(mkdtempSync(join(base, 's')), 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: repo.dir });
  await daemon.start();
  const storage = mkdtempSync(join(base, 'c'));
  try {
    const a = await window(socketPath, storage);
    const runId = await a.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [repo.dir], approvals: true, interactive: false });
    const key = runKeyOf(a.connectionId, runId);
    const approvalId = await until('the approval', () => a.store.state.runs.get(key)?.pendingApprovals[0]);
    // The run is cancelled while the decision is on its way, and the send then fails.
    const failing = {
      decideApproval: async () => {
        await a.driver.cancelRun(runId);
        await until('canceled', () => a.store.state.runs.get(key)?.state === 'canceled');
        throw new Error('socket write failed');
      },
      expireApproval: (r: string, id: string, reason: string) => a.driver.expireApproval(r, id, reason),
    };
    const result = await decideApprovalOnce(a.store, approvalKeyOf(key, approvalId), 'allow_once', 'notification', () => failing);
    assert.equal(result.kind, 'failed');
    await a.driver.checkpoints.settled(); // the terminal event's file checkpoint marker
    const live = seen(a.store, key, approvalId);
    assert.equal(live.status, 'expired');
    assert.match(live.reason ?? '', /run ended before the decision was delivered: socket write failed/);
    await a.driver.flushStorage();
    await a.driver.dispose();
    await daemon.stop();
    const again = await window(socketPath, storage, false);
    // The run had ended: it comes back from its summary, and its transcript (the settled approval) when it is opened.
    await until('shown from its summary', () => again.store.state.runs.get(key)?.unloaded !== undefined);
    await again.driver.history.load(runId);
    await until('restored', () => again.store.state.approvals.get(approvalKeyOf(key, approvalId)));
    assert.deepEqual(seen(again.store, key, approvalId), live);
    await again.driver.dispose();
  } finally {
    await daemon.stop().catch(() => undefined);
  }
});
