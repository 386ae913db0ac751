/**
 * File checkpoints of AgencyProxy runs (issue #26), against the reference daemon: one before `start_run` (turn 0),
 * one at each `message_boundary` after which an interactive run waits, one at the terminal event of a one-shot run
 * (none more when an interactive run that waits is ended: nothing ran since its last boundary); rewinding to the
 * start puts README.md back, redo brings the agent's edit again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgencyProxyDriver } from '../../../../extension/drivers/agencyProxy/agencyProxyDriver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { ReferenceAgencyProxy } from '../../../fixtures/agencyProxy/daemon';
import { TempGitRepo } from '../../changeSets/tempGitRepo';
import { driverSetup, loudLog, until } from '../driverKit';

const base = mkdtempSync(join(tmpdir(), 'apc-'));
const repos: TempGitRepo[] = [];
after(() => {
  repos.forEach((r) => r.dispose());
  rmSync(base, { recursive: true, force: true, maxRetries: 20 });
});

const SEED = '# Demo\n';

async function setup(name: string) {
  const repo = new TempGitRepo();
  repos.push(repo);
  repo.write('README.md', SEED);
  repo.commitAll();
  const socketPath = join(mkdtempSync(join(base, name)), 'ap.sock');
  const daemon = new ReferenceAgencyProxy({ socketPath, workspace: repo.dir });
  await daemon.start();
  const { store, connectionId, ctx } = driverSetup({ name, protocol: 'agency-proxy', socketPath }, mkdtempSync(join(base, `${name}-s`)), { log: loudLog });
  const driver = new AgencyProxyDriver(ctx);
  const recorded: string[] = [];
  driver.checkpoints.onRecorded((r) => recorded.push(`${r.checkpoint.id}:${r.checkpoint.turn}`));
  await driver.connect();
  await until('connected', () => store.state.connections.get(connectionId)?.state.kind === 'connected');
  const stop = async (): Promise<void> => {
    await driver.dispose();
    await daemon.stop();
  };
  return { repo, store, connectionId, driver, recorded, stop };
}

test('an interactive AgencyProxy run is checkpointed at its start and each message boundary, and rewinds and redoes', { timeout: 60_000 }, async () => {
  const t = await setup('inter');
  try {
    const runId = await t.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [t.repo.dir], approvals: true, interactive: true });
    assert.deepEqual(t.recorded, ['c1:0'], 'the start checkpoint is taken before start_run returns');
    const key = runKeyOf(t.connectionId, runId);
    const approvalId = await until('an approval', () => t.store.state.runs.get(key)?.pendingApprovals[0]);
    await t.driver.decideApproval(runId, approvalId, 'allow_once');
    await until('the first boundary checkpoint', () => t.recorded.length === 2);
    const edited = readFileSync(join(t.repo.dir, 'README.md'), 'utf8');
    assert.notEqual(edited, SEED, 'the agent edited the readme');

    await t.driver.sendMessage(runId, 'And the changelog?');
    await until('the second boundary checkpoint', () => t.recorded.length === 3);
    await t.driver.cancelRun(runId);
    await until('canceled', () => t.store.state.runs.get(key)?.state === 'canceled');
    await t.driver.checkpoints.settled();
    assert.deepEqual(t.recorded, ['c1:0', 'c2:1', 'c3:2'], 'no checkpoint for an end while waiting');

    const outcome = await t.driver.checkpoints.store.rewind(runId, 'c1');
    assert.ok(outcome.status === 'rewound', JSON.stringify(outcome));
    assert.equal(readFileSync(join(t.repo.dir, 'README.md'), 'utf8'), SEED);
    assert.equal((await t.driver.checkpoints.store.redo(runId, outcome.rewindId)).status, 'rewound');
    assert.equal(readFileSync(join(t.repo.dir, 'README.md'), 'utf8'), edited);
  } finally {
    await t.stop();
  }
});

test('a one-shot AgencyProxy run is checkpointed at its start and its terminal event', { timeout: 60_000 }, async () => {
  const t = await setup('once');
  try {
    const runId = await t.driver.startRun({ prompt: 'Fix the readme', provider: 'claude', workspaceRoots: [t.repo.dir], approvals: true, interactive: false });
    const key = runKeyOf(t.connectionId, runId);
    const approvalId = await until('an approval', () => t.store.state.runs.get(key)?.pendingApprovals[0]);
    await t.driver.decideApproval(runId, approvalId, 'allow_once');
    await until('completed', () => t.store.state.runs.get(key)?.state === 'completed');
    await until('the terminal checkpoint', () => t.recorded.length === 2);
    await t.driver.checkpoints.settled();
    assert.deepEqual(t.recorded, ['c1:0', 'c2:1']);
    const [start, end] = await t.driver.checkpoints.store.list(runId);
    assert.notEqual(start?.trees[0]?.tree, end?.trees[0]?.tree, 'the run changed the files');
  } finally {
    await t.stop();
  }
});
