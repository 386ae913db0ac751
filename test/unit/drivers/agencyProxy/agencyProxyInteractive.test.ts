/**
 * Interactive AgencyProxy runs against the reference daemon, which keeps them open after each answer as the real
 * one does (WIRE.md 1.5): shown as waiting for your message (not running), with their change set computed after
 * every answer and on demand, and ended by End Run (cancel_run). Also: a one-shot run never shows idle, and a run
 * another client started appears on refresh().
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyClient } from '../../../../extension/drivers/agencyProxy/client';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { runSummaryOf } from '../../../../extension/ui/runSummary';
import type { RunState } from '../../../../extension/protocol/transcriptTypes';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { TempGitRepo } from '../../changeSets/tempGitRepo';
import { driverSetup, loudLog, until } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'api-'));
const repos: TempGitRepo[] = [];
after(() => {
  repos.forEach((r) => r.dispose());
  rmSync(base, { recursive: true, force: true, maxRetries: 20 });
});

async function setup(name: string) {
  const repo = new TempGitRepo();
  repos.push(repo);
  repo.write('README.md', '# Demo\n');
  repo.commitAll();
  const socketPath = join(mkdtempSync(join(base, name)), 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: repo.dir });
  await daemon.start();
  const { store, connectionId, ctx } = driverSetup({ name, protocol: 'agency-proxy', socketPath }, mkdtempSync(join(base, `${name}-storage`)), { log: loudLog });
  const driver = new AgencyProxyDriver(ctx);
  await driver.connect();
  await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  /** Every state the run went through, in order (consecutive repeats collapsed). */
  const history = new Map<string, RunState[]>();
  store.onDidChange((state) => {
    for (const run of state.runs.values()) {
      const seen = history.get(run.key) ?? [];
      if (seen[seen.length - 1] !== run.state) {
        history.set(run.key, [...seen, run.state]);
      }
    }
  });
  const stop = async (): Promise<void> => {
    await driver.disconnect();
    await driver.dispose();
    await daemon.stop();
  };
  return { repo, daemon, store, connectionId, driver, history, socketPath, stop };
}

test('an interactive run that finished answering waits for your message, with its change set, until End Run', async () => {
  const t = await setup('idle');
  try {
    const runId = await t.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [t.repo.dir], approvals: true, interactive: true });
    const key = runKeyOf(t.connectionId, runId);
    const approvalId = await until('an approval', () => t.store.state.runs.get(key)?.pendingApprovals[0]);
    await t.driver.decideApproval(runId, approvalId, 'allow_once');
    await until('waiting for your message', () => t.store.state.runs.get(key)?.state === 'idle');
    assert.equal(t.daemon.snapshots().find((r) => r.runId === runId)?.state, 'running', 'the daemon still says running');

    // The change set is there after the answer, without a terminal event.
    const afterAnswer = await until('change set after the answer', () => {
      const cs = t.store.state.changeSets.get(key);
      return cs?.status === 'ready' ? cs : undefined;
    });
    assert.match(afterAnswer.patch ?? '', /README\.md/);
    const summary = runSummaryOf(t.store.state, key)!;
    assert.deepEqual([summary.actions.end, summary.actions.stop, summary.actions.send], [true, false, true], 'End Run next to Send, no Stop');

    // On demand: a file written after the answer shows up when the change set is asked for.
    t.repo.write('later.txt', 'written after the answer\n');
    await t.driver.refreshChangeSet(runId);
    assert.match(t.store.state.changeSets.get(key)?.patch ?? '', /later\.txt/);

    // A follow-up makes it answer (running) and then wait again.
    await t.driver.sendMessage(runId, 'And the changelog?');
    await until('the follow-up answer', () => t.store.transcript(key)!.snapshot().some((i) => i.kind === 'text' && i.text.includes('You said')));
    await until('waiting again', () => t.store.state.runs.get(key)?.state === 'idle');
    const states = t.history.get(key)!;
    assert.deepEqual(states.slice(states.indexOf('idle')), ['idle', 'running', 'idle'], `states: ${states.join(' → ')}`);

    // End Run = cancel_run: the run ends for good.
    await t.driver.cancelRun(runId);
    await until('canceled', () => t.store.state.runs.get(key)?.state === 'canceled');
    assert.equal(runSummaryOf(t.store.state, key)!.actions.end, false);
  } finally {
    await t.stop();
  }
});

test('a one-shot run is never shown as waiting for input', async () => {
  const t = await setup('oneshot');
  try {
    const runId = await t.driver.startRun({ prompt: 'Explain the readme noedit', provider: 'claude', workspaceRoots: [t.repo.dir], approvals: false, interactive: false });
    const key = runKeyOf(t.connectionId, runId);
    await until('completed', () => t.store.state.runs.get(key)?.state === 'completed');
    assert.ok(!t.history.get(key)!.includes('idle'), `states: ${t.history.get(key)!.join(' → ')}`);
  } finally {
    await t.stop();
  }
});

test('a one-shot run stays one-shot when the daemon does not echo its metadata (re-read while it waits for a decision)', async () => {
  // The reference daemon, like the real one may, sends every snapshot with `metadata: {}` (WIRE.md 1.5).
  const t = await setup('noecho');
  try {
    const runId = await t.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [t.repo.dir], approvals: true, interactive: false });
    const key = runKeyOf(t.connectionId, runId);
    const approvalId = await until('an approval', () => t.store.state.runs.get(key)?.pendingApprovals[0]);
    assert.deepEqual(t.daemon.snapshots().find((r) => r.runId === runId)?.metadata, {}, 'no echo');
    await t.driver.refresh(); // the run list is read again: its snapshot says nothing about `interactive`
    await t.driver.decideApproval(runId, approvalId, 'allow_once');
    await until('completed', () => t.store.state.runs.get(key)?.state === 'completed');
    assert.ok(!t.history.get(key)!.includes('idle'), `states: ${t.history.get(key)!.join(' → ')}`);
  } finally {
    await t.stop();
  }
});

test('a run another client started shows up on refresh(), idle once its answer is in', async () => {
  const t = await setup('other');
  const other = await AgencyProxyClient.connect({ socketPath: t.socketPath, clientName: 'another-editor' });
  try {
    await other.startRun('gui-run-1', {
      provider: 'claude',
      model: '',
      prompt: 'Hello from the GUI notools',
      permission: 'edit',
      approvals: false,
      interactive: true,
      workspaceRoots: [t.repo.dir],
    });
    const key = runKeyOf(t.connectionId, 'gui-run-1');
    assert.equal(t.store.state.runs.has(key), false, 'no push for runs of other clients');
    await until('the daemon answered', () => (t.daemon.snapshots().find((r) => r.runId === 'gui-run-1')?.latestSequence ?? 0) > 3);
    await t.driver.refresh();
    await until('the other client’s run is idle here', () => t.store.state.runs.get(key)?.state === 'idle');
  } finally {
    other.close();
    await t.stop();
  }
});
