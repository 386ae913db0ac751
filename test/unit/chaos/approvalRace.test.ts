/**
 * Approvals under races (against the reference AgencyProxy daemon, through the same settle-once gate ApprovalCenter
 * uses): two decisions for the same request — a notification button and the editor-title action — put exactly one
 * decide_approval on the wire; a failed send leaves it pending; and a disconnect or a window reload never decides.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { decideApprovalOnce } from '../../../extension/model/approvalGate';
import { approvalKeyOf, runKeyOf } from '../../../extension/model/modelTypes';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { driverSetup, quietLog, until } from '../drivers/driverTestKit';

const base = mkdtempSync(join(tmpdir(), 'apr-'));
after(() => rmSync(base, { recursive: true, force: true }));

async function setup(name: string) {
  const dir = mkdtempSync(join(base, name));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# Demo\n');
  const socketPath = join(dir, 'd.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace, stateDir: join(dir, 'state'), chunkDelayMs: 1, interactiveIdleMs: 200 });
  await daemon.start();
  return { dir, workspace, socketPath, daemon };
}

function makeDriver(socketPath: string, storage: string) {
  const frames: { type?: string }[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'race', protocol: 'agency-proxy', socketPath }, storage, {
    log: quietLog,
    tap: (dir, frame) => {
      if (dir === 'out') {
        frames.push(frame as { type?: string });
      }
    },
  });
  const driver = new AgencyProxyDriver(ctx);
  const decides = (): number => frames.filter((f) => f.type === 'decide_approval').length;
  return { store, connectionId, driver, decides };
}

test('two concurrent decisions for one approval: exactly one decide_approval on the wire', async () => {
  const { socketPath, daemon, dir, workspace } = await setup('a');
  const { store, connectionId, driver, decides } = makeDriver(socketPath, join(dir, 'storage'));
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    const runId = await driver.startRun({ prompt: 'edit the readme', provider: 'claude', workspaceRoots: [workspace], approvals: true, interactive: false });
    const key = runKeyOf(connectionId, runId);
    const approvalId = await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]);
    const approvalKey = approvalKeyOf(key, approvalId);
    const deciderFor = () => driver;
    // The notification's "Allow once" and the diff editor's "Deny" land in the same tick.
    const [first, second] = await Promise.all([
      decideApprovalOnce(store, approvalKey, 'allow_once', deciderFor),
      decideApprovalOnce(store, approvalKey, 'deny', deciderFor),
    ]);
    assert.equal(first.kind, 'sent');
    assert.equal(second.kind, 'busy');
    assert.equal(decides(), 1, 'one decide_approval frame');
    assert.equal(store.state.approvals.get(approvalKey)?.status, 'decided');
    assert.equal(store.state.approvals.get(approvalKey)?.decision, 'allow_once');
    const late = await decideApprovalOnce(store, approvalKey, 'deny', deciderFor);
    assert.equal(late.kind, 'decided', 'a click after the decision is refused, not sent');
    assert.equal(decides(), 1);
    await until('completed', () => store.state.runs.get(key)?.state === 'completed');
    const card = store.transcript(key)!.snapshot().find((i) => i.kind === 'approval');
    assert.ok(card?.kind === 'approval' && card.status === 'decided' && card.decision === 'allow_once');
  } finally {
    driver.dispose();
    await daemon.stop();
  }
});

test('a failed send leaves the approval pending; the next click decides', async () => {
  const { socketPath, daemon, dir, workspace } = await setup('b');
  const { store, connectionId, driver, decides } = makeDriver(socketPath, join(dir, 'storage'));
  try {
    await driver.connect();
    await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
    const runId = await driver.startRun({ prompt: 'edit the readme', provider: 'claude', workspaceRoots: [workspace], approvals: true, interactive: false });
    const key = runKeyOf(connectionId, runId);
    const approvalKey = approvalKeyOf(key, await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]));
    const failing = { decideApproval: () => Promise.reject(new Error('socket write failed')) };
    const failed = await decideApprovalOnce(store, approvalKey, 'allow_once', () => failing);
    assert.equal(failed.kind, 'failed');
    assert.equal(store.state.approvals.get(approvalKey)?.status, 'pending', 'pending again, not decided');
    const offline = await decideApprovalOnce(store, approvalKey, 'allow_once', () => undefined);
    assert.equal(offline.kind, 'disconnected');
    assert.equal(store.state.approvals.get(approvalKey)?.status, 'pending');
    const unsupported = await decideApprovalOnce(store, 'nope', 'allow_once', () => driver);
    assert.equal(unsupported.kind, 'unknown');
    assert.equal(decides(), 0);
    assert.equal((await decideApprovalOnce(store, approvalKey, 'deny', () => driver)).kind, 'sent');
    assert.equal(decides(), 1);
    await until('completed', () => store.state.runs.get(key)?.state === 'completed');
  } finally {
    driver.dispose();
    await daemon.stop();
  }
});

test('a disconnect and a window reload never decide: the approval stays pending', async () => {
  const { socketPath, daemon, dir, workspace } = await setup('c');
  const storage = join(dir, 'storage');
  const first = makeDriver(socketPath, storage);
  let second: ReturnType<typeof makeDriver> | undefined;
  try {
    await first.driver.connect();
    await until('connected', () => first.store.state.connections.get(first.connectionId)?.state.kind === 'connected');
    const runId = await first.driver.startRun({ prompt: 'edit the readme', provider: 'claude', workspaceRoots: [workspace], approvals: true, interactive: false });
    const key = runKeyOf(first.connectionId, runId);
    const approvalId = await until('an approval', () => first.store.state.runs.get(key)?.pendingApprovals[0]);
    const approvalKey = approvalKeyOf(key, approvalId);
    await first.driver.disconnect();
    await until('disconnected', () => first.store.state.connections.get(first.connectionId)?.state.kind === 'disconnected');
    assert.equal(first.store.state.approvals.get(approvalKey)?.status, 'pending', 'still pending after a disconnect');
    assert.deepEqual(first.store.state.runs.get(key)?.pendingApprovals, [approvalId]);
    await new Promise((r) => setTimeout(r, 300)); // let the journal settle, as a real window would have by then
    first.driver.dispose(); // the window goes away

    second = makeDriver(socketPath, storage);
    await second.driver.connect();
    await until('reconnected', () => second!.store.state.connections.get(second!.connectionId)?.state.kind === 'connected');
    await new Promise((r) => setTimeout(r, 300)); // any (wrong) automatic decision would have been sent by now
    assert.equal(second.store.state.approvals.get(approvalKey)?.status, 'pending', 'pending after the reload');
    const card = second.store.transcript(key)!.snapshot().find((i) => i.kind === 'approval');
    assert.ok(card?.kind === 'approval' && card.status === 'pending', 'the card is shown pending again');
    assert.equal(first.decides() + second.decides(), 0, 'nobody sent a decision');
    assert.equal(daemon.snapshots().find((r) => r.runId === runId)?.state, 'waiting_approval', 'the daemon still waits');
  } finally {
    first.driver.dispose();
    second?.driver.dispose();
    await daemon.stop();
  }
});
