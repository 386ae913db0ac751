/**
 * SCV end to end in a real VS Code: the reference daemon, the session the extension starts in the workspace, a turn
 * sent from the transcript's composer, a prompt queued behind a slow turn and reordered with the queue view's
 * buttons, a tool allowed from the notification, and a dropped connection that keeps the transcript and waits for
 * "Start New SCV Session Here".
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { RunInfo } from '../../extension/model/modelTypes';
import { api, APPROVAL_NOTIFICATION_LINK, CONNECTIONS_ROWS, screenshot, setConnections, startFixture, ui, waitFor } from './support';

const CONNECTION = 'scv:SCV';

function liveRun(runs: ReadonlyMap<string, RunInfo>): RunInfo | undefined {
  return [...runs.values()].find((r) => r.connectionId === CONNECTION && r.state !== 'interrupted');
}

suite('SCV', () => {
  let daemon: ChildProcess | undefined;
  let socketPath: string;

  const startDaemon = async (): Promise<void> => {
    daemon = startFixture('scv', ['--socket', socketPath, '--slow-ms', '4000', '--step-delay-ms', '20']);
    await waitFor('the daemon socket', () => fs.existsSync(socketPath));
  };

  suiteSetup(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-scv-'));
    socketPath = path.join(dir, 'scv.sock');
    await startDaemon();
    const a = await api();
    await setConnections([{ name: 'SCV', protocol: 'scv', socketPath }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected');
  });

  suiteTeardown(async () => {
    await setConnections([]);
    daemon?.kill('SIGTERM');
  });

  test('a turn from the composer, a queued prompt reordered in the queue view, a tool allowed from the notification', async () => {
    const a = await api();
    const session = await waitFor('the session the extension started', () => liveRun(a.store.state.runs));
    assert.equal(session.state, 'idle');
    assert.ok(session.title.startsWith('SCV session — '), session.title);
    const key = session.key;
    const transcriptOf = () => a.store.transcript(key)?.snapshot() ?? [];
    const completedTurns = () => transcriptOf().filter((i) => i.kind === 'turn' && i.phase === 'completed').length;
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', key);

    // 1. A turn, sent from the composer.
    await ui({ action: 'fill', selector: '#composer-input', value: 'hello from the editor', webview: true });
    await ui({ action: 'click', selector: '#composer-send', webview: true });
    await waitFor('the first turn', () => completedTurns() === 1);
    const answers = await waitFor('the answer in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-kind="text"]', webview: true }).catch(() => []);
      return t.some((x) => x.includes('Echo: hello from the editor')) && t;
    });
    assert.ok(answers.length > 0);

    // 2. A slow turn; two prompts queue behind it; the second is moved up with the queue view's button.
    await ui({ action: 'fill', selector: '#composer-input', value: 'slow: think it over', webview: true });
    await ui({ action: 'click', selector: '#composer-send', webview: true });
    await waitFor('running', () => a.store.state.runs.get(key)?.state === 'running');
    for (const prompt of ['first queued', 'second queued']) {
      await ui({ action: 'fill', selector: '#composer-input', value: prompt, webview: true });
      await ui({ action: 'click', selector: '#composer-send', hasText: 'Queue', webview: true });
    }
    await waitFor('two queued prompts', () => a.store.state.runs.get(key)?.queue?.length === 2);
    const second = a.store.state.runs.get(key)!.queue![1]!;
    assert.equal(second.prompt, 'second queued');
    await ui({ action: 'click', selector: `.queue-entry[data-queue-id="${second.queueId}"] .queue-up`, webview: true });
    await waitFor('reordered', () => a.store.state.runs.get(key)?.queue?.map((q) => q.prompt).join('|') === 'second queued|first queued');
    await waitFor('the queue view shows the new order', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '.queue-entry .queue-prompt', webview: true }).catch(() => []);
      return t.join('|') === 'second queued|first queued';
    });
    await screenshot('scv-queue.png');
    await waitFor('the queue ran', () => completedTurns() === 4, 30000);
    const prompts = transcriptOf().flatMap((i) => (i.kind === 'user' ? [i.text] : []));
    assert.deepEqual(prompts.slice(-2), ['second queued', 'first queued'], 'the queue ran in the new order');

    // 3. A tool call, allowed from the notification.
    await vscode.commands.executeCommand('agentSwitchboard.sendMessage', key, 'run a tool for me');
    await waitFor('the approval request', () => a.store.state.runs.get(key)?.pendingApprovals.length === 1);
    assert.equal(a.store.state.runs.get(key)?.state, 'waiting_approval');
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ action: 'waitFor', selector: APPROVAL_NOTIFICATION_LINK, hasText: 'Allow' });
    await screenshot('scv-approval-notification.png');
    await ui({ action: 'click', selector: APPROVAL_NOTIFICATION_LINK, hasText: 'Allow' });
    await waitFor('the tool ran', () => completedTurns() === 5, 30000);
    const tool = transcriptOf().find((i) => i.kind === 'tool');
    assert.ok(tool?.kind === 'tool' && tool.status === 'succeeded' && tool.output === 'hello\n', JSON.stringify(tool));
    await vscode.commands.executeCommand('notifications.hideList');
    const tools = await waitFor('the tool in the webview', async () => {
      const t = await ui<string[]>({ action: 'text', selector: '[data-kind="tool"]', webview: true }).catch(() => []);
      return t.length > 0 && t;
    });
    assert.match(tools.join('\n'), /bash/);
    await screenshot('scv-tool.png');
  });

  test('a dropped connection ends the session but keeps it; a new session takes its place and runs nothing by itself', async () => {
    const a = await api();
    const old = liveRun(a.store.state.runs)!;
    const exited = new Promise((resolve) => daemon?.once('exit', resolve));
    daemon?.kill('SIGTERM');
    await waitFor('interrupted', () => a.store.state.runs.get(old.key)?.state === 'interrupted');
    assert.match(a.store.state.runs.get(old.key)?.stateDetail ?? '', /connection to SCV dropped/);
    assert.ok((a.store.transcript(old.key)?.snapshot() ?? []).some((i) => i.kind === 'user' && i.text === 'hello from the editor'));
    await exited; // the old daemon removes its socket file on exit: let it, before a new one binds the path
    await startDaemon();
    await waitFor('reconnected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    // The daemon restart ended the user's session: the reconnect opens one in its place (WIRE.md 6.2), idle, with
    // nothing resent and no turn started — what the user had typed stays in the ended session.
    const next = await waitFor('a new session in place of the ended one', () => liveRun(a.store.state.runs), 30000);
    assert.notEqual(next.key, old.key);
    assert.equal(a.store.state.runs.get(next.key)?.state, 'idle');
    assert.deepEqual((a.store.transcript(next.key)?.snapshot() ?? []).filter((i) => i.kind === 'user'), [], 'nothing was sent in the new session');
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    // The tree redraws a moment after the model changed (VS Code batches refreshes): wait for the row to say it.
    const labels = await waitFor('the ended session\'s row saying interrupted', async () => {
      const rows = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS }).catch((): string[] => []);
      return rows.some((l) => l.includes('interrupted')) && rows;
    });
    assert.ok(labels.some((l) => l.includes('interrupted')), labels.join(' | '));
    await screenshot('scv-tree.png');
  });

  test('New Run… starts SCV runs; ended sessions of one name collapse under the live one', async function () {
    this.timeout(120000);
    const a = await api();
    const unused = liveRun(a.store.state.runs)!;
    const userTexts = (key: string) => (a.store.transcript(key)?.snapshot() ?? []).flatMap((i) => (i.kind === 'user' ? [i.text] : []));
    const first = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, prompt: 'first run from New Run' })) as string;
    assert.equal(first, unused.key, 'the session nothing ran in took the prompt');
    await waitFor('the first run prompted', () => userTexts(first).includes('first run from New Run'));
    await waitFor('the first run answered', () => a.store.state.runs.get(first)?.state === 'idle', 30000);
    // The live session is used now: a new run replaces it (confirmed here; the command asks a person first).
    const second = (await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: CONNECTION, prompt: 'second run from New Run', confirmed: true })) as string;
    assert.ok(second && second !== first, 'a new session');
    await waitFor('the second run prompted', () => userTexts(second).includes('second run from New Run'));
    await waitFor('the replaced session ended', () => a.store.state.runs.get(first)?.state === 'interrupted');
    const sameName = [...a.store.state.runs.values()].filter((r) => r.connectionId === CONNECTION && r.title === a.store.state.runs.get(second)!.title);
    assert.ok(sameName.length >= 3, `three sessions of one name (${sameName.length})`);
    await vscode.commands.executeCommand('workbench.view.extension.agentSwitchboard');
    const rows = await waitFor('the ended sessions folded', async () => {
      const labels = await ui<string[]>({ action: 'text', selector: CONNECTIONS_ROWS });
      return labels.some((l) => /\d+ ended sessions/.test(l)) && labels;
    });
    const live = rows.findIndex((l) => l.includes('second run from New Run') || l.includes(a.store.state.runs.get(second)!.title));
    const folded = rows.findIndex((l) => /\d+ ended sessions/.test(l));
    assert.ok(live >= 0 && live < folded, `the live session comes before the folded ones: ${rows.join(' | ')}`);
    await screenshot('scv-tree-grouped.png');
  });
});
