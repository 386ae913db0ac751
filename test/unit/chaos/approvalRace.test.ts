/**
 * Approvals under real timing, against the reference AgencyProxy daemon and through the same settle-once gate the
 * ApprovalCenter uses. Every scenario runs in three timing modes: the default (a few ms between chunks), `sameWrite`
 * (a zero-delay daemon whose `accepted` and the rest of the run — up to `finished` — arrive in ONE socket write,
 * as a real daemon's do) and `eventsBeforeResponse` (the same write with the run's events before the response).
 * The user's decision must be what every surface shows, every time; nothing is sent twice; a reload re-announces
 * only what the daemon still waits for.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { AgencyProxyDriver } from '../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { approvalOutcomeText } from '../../../extension/model/approvalLifecycle';
import { decideApprovalOnce } from '../../../extension/model/approvalGate';
import { approvalKeyOf, awaitsDecision, runKeyOf } from '../../../extension/model/modelTypes';
import type { ReferenceAgencyProxyOptions } from '../../fixtures/agencyProxy/daemon';
import { ReferenceAgencyProxy } from '../../fixtures/agencyProxy/daemon';
import { driverSetup, quietLog, until } from '../drivers/driverKit';

const base = mkdtempSync(join(tmpdir(), 'apr-'));
after(() => rmSync(base, { recursive: true, force: true, maxRetries: 20 }));

const MODES: readonly [string, Partial<ReferenceAgencyProxyOptions>][] = [
  ['default timing', { chunkDelayMs: 1 }],
  ['zero delay, events in the same write as the response', { sameWrite: true }],
  ['zero delay, events before the response', { eventsBeforeResponse: true }],
];

async function setup(name: string, timing: Partial<ReferenceAgencyProxyOptions>) {
  const dir = mkdtempSync(join(base, name));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# Demo\n');
  const socketPath = join(dir, 'd.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace, ...timing });
  await daemon.start();
  return { dir, workspace, socketPath, daemon };
}

function makeDriver(socketPath: string, storage: string) {
  const frames: { type?: string; decision?: string }[] = [];
  const { store, connectionId, ctx } = driverSetup({ name: 'race', protocol: 'agency-proxy', socketPath }, storage, {
    log: quietLog,
    tap: (dir, frame) => {
      if (dir === 'out') {
        frames.push(frame as { type?: string });
      }
    },
  });
  const driver = new AgencyProxyDriver(ctx);
  const decides = (): string[] => frames.filter((f) => f.type === 'decide_approval').map((f) => f.decision ?? '?');
  const connected = () => until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  const start = async (workspace: string, prompt = 'edit the readme') => {
    const runId = await driver.startRun({ prompt, provider: 'claude', workspaceRoots: [workspace], approvals: true, interactive: false });
    const key = runKeyOf(connectionId, runId);
    const approvalId = await until('an approval', () => store.state.runs.get(key)?.pendingApprovals[0]);
    return { runId, key, approvalKey: approvalKeyOf(key, approvalId) };
  };
  const card = (key: string) => {
    const item = store.transcript(key)!.snapshot().find((i) => i.kind === 'approval');
    assert.ok(item?.kind === 'approval', 'an approval card');
    return item;
  };
  return { store, connectionId, driver, decides, connected, start, card };
}

for (const [mode, timing] of MODES) {
  describe(`approvals, ${mode}`, () => {
    test('ten decisions in a row each end as the user decided, on the model and the card', async () => {
      const { socketPath, daemon, dir, workspace } = await setup('ten', timing);
      const d = makeDriver(socketPath, join(dir, 'storage'));
      try {
        await d.driver.connect();
        await d.connected();
        const decisions = ['allow_once', 'deny', 'allow_similar', 'allow_once', 'deny', 'allow_once', 'allow_similar', 'deny', 'allow_once', 'deny'] as const;
        for (const [i, decision] of decisions.entries()) {
          const { key, approvalKey } = await d.start(workspace);
          const result = await decideApprovalOnce(d.store, approvalKey, decision, 'notification', () => d.driver);
          assert.equal(result.kind, 'sent', `decision ${i}`);
          await until(`run ${i} ended`, () => d.store.state.runs.get(key)?.state === 'completed');
          const approval = d.store.state.approvals.get(approvalKey)!;
          assert.equal(approval.status, 'decided', `decision ${i} is shown as decided, not expired`);
          assert.equal(approval.decision, decision);
          assert.equal(approval.decidedBy, 'notification');
          assert.equal(d.card(key).status, 'decided');
          assert.equal(d.card(key).decision, decision);
          // A click on the (still open) notification afterwards sends nothing and says what was decided.
          const stale = await decideApprovalOnce(d.store, approvalKey, 'deny', 'notification', () => d.driver);
          assert.equal(stale.kind, 'decided');
          assert.match(approvalOutcomeText(d.store.state.approvals.get(approvalKey)!), /already decided: .* from the notification\. Nothing was sent/);
        }
        assert.deepEqual(d.decides(), [...decisions], 'exactly one decide_approval per request, with the chosen decision');
        const tools = d.store.transcript(d.store.state.runs.keys().next().value!)!.snapshot().filter((i) => i.kind === 'tool' && i.name === 'Edit');
        assert.ok(tools.length > 0, 'the allowed edit ran');
      } finally {
        await d.driver.dispose();
        await daemon.stop();
      }
    });

    test('two concurrent decisions for one approval: exactly one decide_approval on the wire', async () => {
      const { socketPath, daemon, dir, workspace } = await setup('two', timing);
      const d = makeDriver(socketPath, join(dir, 'storage'));
      try {
        await d.driver.connect();
        await d.connected();
        const { key, approvalKey } = await d.start(workspace);
        const deciderFor = () => d.driver;
        // The notification's "Allow once" and the diff editor's "Deny" land in the same tick.
        const [first, second] = await Promise.all([
          decideApprovalOnce(d.store, approvalKey, 'allow_once', 'notification', deciderFor),
          decideApprovalOnce(d.store, approvalKey, 'deny', 'editor', deciderFor),
        ]);
        assert.equal(first.kind, 'sent');
        assert.equal(second.kind, 'busy');
        assert.deepEqual(d.decides(), ['allow_once']);
        await until('completed', () => d.store.state.runs.get(key)?.state === 'completed');
        assert.equal(d.store.state.approvals.get(approvalKey)?.status, 'decided');
        assert.equal(d.store.state.approvals.get(approvalKey)?.decision, 'allow_once');
        assert.equal(d.card(key).decidedBy, 'notification');
      } finally {
        await d.driver.dispose();
        await daemon.stop();
      }
    });

    test('a failed send leaves the request waiting (failed, with the reason); the next click decides', async () => {
      const { socketPath, daemon, dir, workspace } = await setup('fail', timing);
      const d = makeDriver(socketPath, join(dir, 'storage'));
      try {
        await d.driver.connect();
        await d.connected();
        const { key, approvalKey } = await d.start(workspace);
        const failing = { decideApproval: () => Promise.reject(new Error('socket write failed')) };
        assert.equal((await decideApprovalOnce(d.store, approvalKey, 'allow_once', 'palette', () => failing)).kind, 'failed');
        const approval = d.store.state.approvals.get(approvalKey)!;
        assert.equal(approval.status, 'failed');
        assert.equal(approval.reason, 'socket write failed');
        assert.equal(awaitsDecision(approval), true, 'still counted as waiting');
        assert.equal((await decideApprovalOnce(d.store, approvalKey, 'allow_once', 'palette', () => undefined)).kind, 'disconnected');
        assert.equal((await decideApprovalOnce(d.store, 'nope', 'allow_once', 'palette', () => d.driver)).kind, 'unknown');
        assert.deepEqual(d.decides(), []);
        assert.equal((await decideApprovalOnce(d.store, approvalKey, 'deny', 'transcript', () => d.driver)).kind, 'sent');
        assert.deepEqual(d.decides(), ['deny']);
        await until('completed', () => d.store.state.runs.get(key)?.state === 'completed');
        assert.equal(d.card(key).status, 'decided');
        assert.equal(d.card(key).reason, undefined);
      } finally {
        await d.driver.dispose();
        await daemon.stop();
      }
    });

    test('a reload re-announces only what the daemon still waits for; decided and ended requests stay settled', async () => {
      const { socketPath, daemon, dir, workspace } = await setup('reload', timing);
      const storage = join(dir, 'storage');
      const first = makeDriver(socketPath, storage);
      let second: ReturnType<typeof makeDriver> | undefined;
      try {
        await first.driver.connect();
        await first.connected();
        // A: decided before the reload. B: still waiting at the daemon.
        const a = await first.start(workspace);
        assert.equal((await decideApprovalOnce(first.store, a.approvalKey, 'allow_once', 'notification', () => first.driver)).kind, 'sent');
        await until('A completed', () => first.store.state.runs.get(a.key)?.state === 'completed');
        const b = await first.start(workspace);
        await first.driver.flushStorage();
        first.driver.dispose(); // the window goes away

        second = makeDriver(socketPath, storage);
        const s = second;
        await s.driver.connect();
        await s.connected();
        await until('B confirmed live by the daemon', () => s.store.state.approvals.get(b.approvalKey)?.live === true);
        assert.equal(s.store.state.approvals.get(b.approvalKey)?.status, 'pending', 'B is announced again: the daemon still waits');
        assert.equal(awaitsDecision(s.store.state.approvals.get(b.approvalKey)!), true);
        // A had finished: it comes back from its summary (issue #25 §2), its approvals once it is opened.
        await s.driver.history.load(a.runId);
        const restoredA = s.store.state.approvals.get(a.approvalKey)!;
        assert.equal(restoredA.status, 'decided', 'A stays decided after the reload');
        assert.equal(restoredA.decision, 'allow_once');
        assert.equal(restoredA.decidedBy, 'notification');
        assert.equal(awaitsDecision(restoredA), false, 'A is not announced again');
        assert.equal(s.card(a.key).status, 'decided');
        assert.deepEqual([...first.decides(), ...s.decides()], ['allow_once'], 'the reload sent nothing');
        assert.equal(daemon.snapshots().find((r) => r.runId === b.runId)?.state, 'waiting_approval', 'the daemon still waits for B');
        assert.equal((await decideApprovalOnce(s.store, b.approvalKey, 'deny', 'transcript', () => s.driver)).kind, 'sent');
        await until('B completed', () => s.store.state.runs.get(b.key)?.state === 'completed');
        assert.equal(s.store.state.approvals.get(b.approvalKey)?.decision, 'deny');
      } finally {
        await first.driver.dispose();
        await second?.driver.dispose();
        await daemon.stop();
      }
    });
  });
}
