/**
 * An AgencyProxy daemon restart, as the real daemon does it (WIRE.md 1.9: runs live in memory only, so a restart
 * loses every run): the run stays in the tree as lost with its transcript, the notification offers *Continue in a
 * New Run*, and that starts a new run resuming the provider session (`resumeSessionId`). *Take Over Run* on a run
 * another client started makes this editor acknowledge it, after a confirmation.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { AgencyProxyClient } from '../../extension/drivers/agencyProxy/client';
import { api, screenshot, sentFrames, setConnections, startFixture, ui, waitFor, workspaceDir } from './support';

const NAME = 'AgencyProxy Restart';
const CONNECTION = `agency-proxy:${NAME}`;
const NOTIFICATION_BUTTON = '.notification-toast .monaco-button, .notifications-center .monaco-button';

suite('AgencyProxy restart', () => {
  let daemon: ChildProcess | undefined;
  let socketPath: string;
  const start = () => startFixture('agencyProxy', ['--socket', socketPath, '--workspace', workspaceDir(), '--same-write']);

  suiteSetup(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-apr-'));
    socketPath = path.join(dir, 'run', 'runtime.sock');
    daemon = start();
    await waitFor('the daemon socket', () => fs.existsSync(socketPath));
    const a = await api();
    await setConnections([{ name: 'AgencyProxy Restart', protocol: 'agency-proxy', socketPath }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  });

  suiteTeardown(async () => {
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('a restart loses the run: it stays lost with its transcript, and Continue in a New Run resumes its session', async function () {
    this.timeout(90000);
    const a = await api();
    const runKey = (await vscode.commands.executeCommand('agentSwitchboard.newRun', {
      connectionId: CONNECTION,
      provider: 'claude',
      model: '',
      permission: 'read_only',
      prompt: 'Say hello notools',
      approvals: false,
      interactive: true,
    })) as string;
    await waitFor('the answer, waiting for a message', () => a.store.state.runs.get(runKey)?.state === 'idle', 30000);
    const before = a.store.transcript(runKey)!.snapshot().length;
    const exited = new Promise((resolve) => daemon!.once('exit', resolve));
    daemon!.kill('SIGKILL');
    await exited;
    fs.rmSync(socketPath, { force: true });
    daemon = start();
    await waitFor('lost', () => a.store.state.runs.get(runKey)?.state === 'lost', 30000);
    const items = a.store.transcript(runKey)!.snapshot();
    assert.ok(items.length > before, 'the transcript is kept and says what happened');
    assert.ok(items.some((i) => i.kind === 'user' && i.text === 'Say hello notools'));
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: NOTIFICATION_BUTTON, hasText: 'Continue in a New Run' });
    await screenshot('agency-proxy-lost-run.png');
    const runsBefore = new Set(a.store.state.runs.keys());
    await ui({ action: 'click', selector: NOTIFICATION_BUTTON, hasText: 'Continue in a New Run' });
    // It asks for the new run's first message (prefilled); "notools" keeps the reference agent from asking approval.
    await ui({ action: 'fill', selector: '.quick-input-widget input', value: 'Pick up where you stopped notools' });
    await ui({ action: 'press', selector: '.quick-input-widget input', value: 'Enter' });
    const next = await waitFor('the continuation', () => [...a.store.state.runs.values()].find((r) => !runsBefore.has(r.key) && r.connectionId === CONNECTION), 30000);
    assert.match(next.title, /^Continued: /);
    await waitFor('the continuation answered', () => a.store.state.runs.get(next.key)?.state === 'idle', 30000);
    const starts = (await sentFrames(NAME)).filter((f) => f.type === 'start_run');
    const resumed = starts.find((f) => f.run_id === next.runId)?.request as { resumeSessionId?: string } | undefined;
    const original = starts.find((f) => f.run_id === runKey.split('::')[1]);
    assert.ok(original, 'the original start_run is in the trace');
    assert.ok(resumed?.resumeSessionId, 'the new run resumes a provider session');
    assert.equal(a.store.state.runs.get(runKey)?.state, 'lost', 'the lost run stays as it was');
    await vscode.commands.executeCommand('agentSwitchboard.endRun', next.key);
    await waitFor('the continuation ended', () => a.store.state.runs.get(next.key)?.state === 'canceled', 30000);
  });

  test('a run another client started is observed without acks until Take Over Run', async function () {
    this.timeout(60000);
    const a = await api();
    // The other client (say, the AgencyZero GUI) starts a one-shot run on the same daemon.
    const other = await AgencyProxyClient.connect({ socketPath, clientName: 'another-client' });
    const runId = `other-${Date.now()}`;
    try {
      await other.startRun(runId, {
        provider: 'claude',
        model: '',
        prompt: 'Someone else\'s run notools',
        permission: 'read_only',
        approvals: false,
        interactive: false,
        workspaceRoots: [workspaceDir()],
        metadata: { title: 'Started elsewhere' },
      });
      const runKey = `${CONNECTION}::${runId}`;
      await vscode.commands.executeCommand('agentSwitchboard.refresh');
      await waitFor('the observed run, completed', () => a.store.state.runs.get(runKey)?.state === 'completed', 30000);
      const acksOf = async () => (await sentFrames(NAME)).filter((f) => f.type === 'ack_events' && f.run_id === runId);
      assert.equal((await acksOf()).length, 0, 'an observed run is never acknowledged (that would delete its history for the other client)');
      assert.equal(await vscode.commands.executeCommand('agentSwitchboard.agencyProxy.adoptRun', runKey, true), true);
      await waitFor('acknowledged after the take-over', async () => (await acksOf()).length > 0, 20000);
    } finally {
      other.close();
    }
  });
});
